import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A detail that opens under its list (a campaign's editor, an object type's records, an endpoint's
 * deliveries) at an address of its own: the router scrolls to the top on each new address, so the
 * detail brings itself into view when it opens and when `which` changes.
 */
export function useBroughtIntoView<T extends Element>(which: unknown): RefObject<T> {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start' });
  }, [which]);
  return ref;
}
