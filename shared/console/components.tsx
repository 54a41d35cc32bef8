import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, type ApiError } from './api';

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

/** The API's message for each field of a refusal (`details[].field`, e.g. `points.expiry.days`). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiFailure)) return {};
  return Object.fromEntries((error.error.details ?? []).filter((d) => d.field).map((d) => [d.field!, d.message]));
}

/** The message for `field` or for a part of it (`points.warnDays` holds `points.warnDays.1`). */
export const errorAt = (errors: Record<string, string>, field: string): string | undefined =>
  errors[field] ?? Object.entries(errors).find(([f]) => f.startsWith(`${field}.`))?.[1];

/** A field's refusal next to it; the field names it with aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span id={id} class="field-error">
      {message}
    </span>
  ) : null;
}

/** A labelled number input with the API's message for its field next to it (empty is NaN: sent as null, which the API refuses by name). */
export function NumberField(props: {
  label: string;
  name: string;
  value: number | null | undefined;
  onValue: (n: number) => void;
  error: string | undefined;
  min?: number;
  max?: number;
  step?: string;
}) {
  const id = `err-${props.name}`;
  return (
    <label>
      {props.label}
      <input
        type="number"
        name={props.name}
        min={props.min}
        max={props.max}
        step={props.step}
        // An empty or half-typed number (NaN) leaves the input as typed.
        value={props.value == null || Number.isNaN(props.value) ? undefined : props.value}
        aria-describedby={id}
        onInput={(e) => props.onValue(e.currentTarget.valueAsNumber)}
      />
      <FieldError id={id} message={props.error} />
    </label>
  );
}

export const Loading = ({ what }: { what: string }) => (
  <p role="status" class="loading">
    Loading {what}…
  </p>
);

export const Empty = ({ children }: { children: ComponentChildren }) => <p class="empty">{children}</p>;

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'ready'; data: T };

/** Loads on mount and whenever `key` changes; `reload` loads again. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> & { reload: () => void } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    load().then(
      (data) => current && setLoaded({ state: 'ready', data }),
      (error) => current && setLoaded({ state: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...loaded, reload };
}

/** Cursor paging: the cursors of the pages before this one, so "Previous page" works without page numbers. */
export function useCursor(): { cursor: string | undefined; next: (c: string) => void; previous: (() => void) | undefined; first: () => void } {
  const [trail, setTrail] = useState<(string | undefined)[]>([undefined]);
  const cursor = trail[trail.length - 1];
  return {
    cursor,
    next: (c) => setTrail((t) => [...t, c]),
    previous: trail.length > 1 ? () => setTrail((t) => t.slice(0, -1)) : undefined,
    first: () => setTrail([undefined]),
  };
}

export type Cursor = ReturnType<typeof useCursor>;

/** A list as the API answers it: its rows and, when it is paged, the cursor of the next page. */
export interface Listed<T> {
  data: T[];
  nextCursor?: string | null;
}

/** A cursor-paged list: the page the trail points at, loaded again when `key` (its filters) changes or on `reload`. */
export function usePaged<T>(load: (page: { cursor?: string }) => Promise<Listed<T>>, key: string): Loaded<Listed<T>> & { reload: () => void; paging: Cursor } {
  const paging = useCursor();
  const list = useLoad(() => load(paging.cursor ? { cursor: paging.cursor } : {}), `${key}@${paging.cursor ?? ''}`);
  return { ...list, paging };
}

/**
 * A list's states in one place: loading, its failure in the API's words, `empty` when it has no rows
 * (rows of an empty table when no `empty` is given), then the rows and, for a paged list, the pager.
 */
export function Listing<T>(props: {
  list: Loaded<Listed<T>> & { paging?: Cursor };
  what: string;
  empty?: ComponentChildren;
  children: (rows: T[]) => ComponentChildren;
}) {
  const { list } = props;
  if (list.state === 'loading') return <Loading what={props.what} />;
  if (list.state === 'failed') return <Failure error={list.error} />;
  if (list.data.data.length === 0 && props.empty !== undefined) return <Empty>{props.empty}</Empty>;
  return (
    <>
      {props.children(list.data.data)}
      {list.paging ? <Pager nextCursor={list.data.nextCursor ?? null} paging={list.paging} /> : null}
    </>
  );
}

export function Pager({ nextCursor, paging }: { nextCursor: string | null; paging: Cursor }) {
  if (!nextCursor && !paging.previous) return null;
  return (
    <nav aria-label="Pages" class="pager">
      <button type="button" disabled={!paging.previous} onClick={() => paging.previous?.()}>
        Previous page
      </button>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && paging.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}

/** When an ISO instant was, in the reader's locale and time zone. */
export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

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

/**
 * Ask, then act: the button opens a confirmation (a group named by `legend`, saying what follows);
 * its one action runs once per click, with its error in the API's words; Cancel closes it.
 */
export function Confirmed(props: {
  /** The opening button's text and accessible name, e.g. `Remove` and `Remove ada@example.com`. */
  open: { text: string; label: string };
  legend: string;
  children: ComponentChildren;
  /** The confirming button's text, e.g. `Remove member`. */
  confirm: string;
  run: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const { onSubmit, busy, error } = useSubmit(props.run);
  if (!asking) {
    return (
      <button type="button" aria-label={props.open.label} onClick={() => setAsking(true)}>
        {props.open.text}
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend>{props.legend}</legend>
      <p>{props.children}</p>
      <button type="button" class="danger" disabled={busy} onClick={() => onSubmit()}>
        {props.confirm}
      </button>{' '}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
      {error ? <Failure error={error} /> : null}
    </fieldset>
  );
}

/** A list table's column headers; `actions`: a last column of row buttons, named for screen readers only. */
export function TableHead({ columns, actions = false }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
