import type { ComponentChildren } from 'preact';
import { type ApiError, ApiFailure } from '../api';

/** An error in the API's own words, with its code, the request id to quote and where it is explained. */
export function Failure({ error }: { error: unknown }) {
  const e: ApiError =
    error instanceof ApiFailure
      ? error.error
      : { status: 0, code: 'NETWORK', message: error instanceof Error ? error.message : String(error), requestId: null };
  return (
    <div role="alert" class="failure">
      <p>
        <strong>{e.message}</strong> <code>{e.code}</code>
      </p>
      {e.details?.length ? (
        <ul>
          {e.details.map((d) => (
            <li key={`${d.field}:${d.message}`}>{d.field ? `${d.field}: ${d.message}` : d.message}</li>
          ))}
        </ul>
      ) : null}
      <p class="meta">
        {e.requestId ? (
          <>
            Request id: <code>{e.requestId}</code>{' '}
          </>
        ) : null}
        {e.docUrl ? <a href={e.docUrl}>What this means</a> : null}
      </p>
    </div>
  );
}

export const Loading = ({ what }: { what: string }) => (
  <p role="status" class="loading">
    Loading {what}…
  </p>
);

export const Empty = ({ children }: { children: ComponentChildren }) => <p class="empty">{children}</p>;

/** When an ISO instant was, in the reader's locale and time zone. */
export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
