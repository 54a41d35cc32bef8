/**
 * In-process wake-ups for the local pollers: a send (or a commit that the table stream will carry)
 * wakes a poller that sleeps on the same name at once, instead of at its next poll. Polling stays
 * the fallback for writes from other processes, so a missed signal only costs one poll interval.
 */

const sleepers = new Map<string, Set<() => void>>();
const signalled = new Map<string, number>();

/** Wakes everything sleeping on `name` now. */
export function notifyQueue(name: string): void {
  signalled.set(name, signalCount(name) + 1);
  const waiting = sleepers.get(name);
  if (!waiting) return;
  sleepers.delete(name);
  for (const wake of waiting) wake();
}

/**
 * How often `name` has been signalled in this process: a poller that compares it before and after a
 * pass sees a signal that came while it was busy, not asleep.
 */
export const signalCount = (name: string): number => signalled.get(name) ?? 0;

/** Resolves after `ms`, on `notifyQueue(name)`, or when `signal` aborts, whichever comes first. */
export function sleepOn(name: string, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      sleepers.get(name)?.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    let waiting = sleepers.get(name);
    if (!waiting) sleepers.set(name, (waiting = new Set()));
    waiting.add(done);
  });
}

/**
 * How long an idle poller sleeps before it polls again: `minMs` after a poll that found work,
 * doubling with each poll that found none, up to `maxMs`. Wake-ups bring this process's sends and
 * writes at once; the longer sleeps only delay what another process wrote (a handful of polls per
 * second of a whole idle runtime cost a tenth of a core in SQLite and DynamoDB Local).
 */
export function idleBackoff(minMs: number, maxMs: number): { idle(): number; busy(): void } {
  const ceiling = Math.max(minMs, maxMs);
  let next = minMs;
  return {
    idle() {
      const ms = next;
      next = Math.min(ceiling, next * 2);
      return ms;
    },
    busy() {
      next = minMs;
    },
  };
}
