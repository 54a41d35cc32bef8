import { useRef, useState } from 'preact/hooks';

/**
 * A form's submission: sent once per click (a second click while the request runs does nothing;
 * the client gives each submission its own Idempotency-Key), with its error in the API's words.
 */
export function useSubmit(run: () => Promise<void>): { onSubmit: (event?: Event) => void; busy: boolean; error: unknown } {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const onSubmit = (event?: Event) => {
    event?.preventDefault();
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(undefined);
    run()
      .catch(setError)
      .finally(() => {
        running.current = false;
        setBusy(false);
      });
  };
  return { onSubmit, busy, error };
}
