/**
 * What the store's writers do when they contend for one item: how long a loser waits before it
 * tries again, when it stops trying, and the per-process ordering of writes to one hot item.
 * Pure (no store, no clock of its own), so the schedule can be tested exactly.
 */

/** Full-jitter exponential backoff: attempt n waits U(0, min(capMs, baseMs * 2^(n-1))). */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

/**
 * The wait after failed attempt `attempt` (1-based). Full jitter (AWS Architecture Blog, "Exponential
 * Backoff And Jitter") spreads contenders over the whole window, so the losers of one round do not
 * meet again in the next one; the window doubles while they keep losing.
 */
export function backoffMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  return random() * Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
}

/**
 * Whether another attempt may start after `attempt` failed ones: attempts are left and, inside a
 * request, more than `reserveMs` of its deadline is (`msLeft` undefined: no deadline). An attempt
 * started later could be cut off by the deadline while committing, and its outcome would be unknown.
 */
export function mayRetry(attempt: number, maxAttempts: number, msLeft: number | undefined, reserveMs: number): boolean {
  return attempt < maxAttempts && (msLeft === undefined || msLeft > reserveMs);
}

/**
 * Runs work one at a time per key, in arrival order; work of different keys runs concurrently. A
 * caller whose signal fires while it waits leaves the line at once (rejecting with the signal's
 * reason) without ever running its work, and without letting the callers behind it overtake the
 * work still running.
 */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  /** Keys with work running or waiting (an idle key holds no memory). */
  get activeKeys(): number {
    return this.tails.size;
  }

  /** Runs `work` once the earlier work of `key` is done; `waited` tells whether there was any. */
  async run<T>(key: string, work: (waited: boolean) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw signal.reason;
    const previous = this.tails.get(key);
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const tail = previous !== undefined ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    try {
      if (previous !== undefined) await waitFor(previous, signal);
      return await work(previous !== undefined);
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** Resolves when `turn` does, or rejects with the signal's reason if it fires first. */
function waitFor(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return turn;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    // An AbortSignal fires once; the listener goes when the turn comes.
    signal.addEventListener('abort', onAbort);
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
