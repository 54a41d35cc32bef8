import { useCallback, useEffect, useState } from 'preact/hooks';

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'ready'; data: T };

/**
 * Loads on mount and again whenever a value of `deps` changes (the values `load` reads: an id, the
 * filters), as `useEffect` compares them; `reload` loads again with the same values. An answer that
 * arrives after the values changed is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> & { reload: () => void } {
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
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...loaded, reload };
}
