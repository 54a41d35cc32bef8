import { useState } from 'preact/hooks';
import { type Loaded, useLoad } from './use-load';

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

/** A cursor-paged list: the page the trail points at, loaded again when a value of `deps` (its filters) changes or on `reload`. */
export function usePaged<T>(
  load: (page: { cursor?: string }) => Promise<Listed<T>>,
  deps: readonly unknown[],
): Loaded<Listed<T>> & { reload: () => void; paging: Cursor } {
  const paging = useCursor();
  const list = useLoad(() => load(paging.cursor ? { cursor: paging.cursor } : {}), [...deps, paging.cursor]);
  return { ...list, paging };
}
