import type { components } from '../../../client/schema';

type Change = NonNullable<components['schemas']['AuditEntry']['changes']>[number];

/** A value as one short line: text as it is, anything else as JSON. */
const shown = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** A configuration change field by field: what it was, what it became; an added or removed field says so. */
export function Changes({ changes }: { changes: Change[] }) {
  if (changes.length === 0) return <>Nothing changed</>;
  return (
    <ul class="changes">
      {changes.map((c) => (
        <li key={c.field}>
          <code>{c.field}</code>:{' '}
          {!('before' in c) ? (
            <>
              added <ins>{shown(c.after)}</ins>
            </>
          ) : !('after' in c) ? (
            <>
              removed <del>{shown(c.before)}</del>
            </>
          ) : (
            <>
              <del>{shown(c.before)}</del> → <ins>{shown(c.after)}</ins>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
