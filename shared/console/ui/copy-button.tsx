import { useState } from 'preact/hooks';

/** Copies a value shown once (a key, a signing secret) to the clipboard, and says so. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? 'Copied' : `Copy ${what}`}
    </button>
  );
}
