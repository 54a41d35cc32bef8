import type { ComponentChildren } from 'preact';
import type { Loaded } from '../hooks/use-load';
import type { Cursor, Listed } from '../hooks/use-paged';
import { Empty, Failure, Loading } from './feedback';

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
