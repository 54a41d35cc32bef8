/**
 * Exponential backoff with full jitter (AWS Architecture Blog): attempt n (1-based) waits
 * U(0, min(cap, base * 2^(n-1))) seconds. A receiver's Retry-After is honoured as a floor, within
 * the cap. `random` is injectable for tests.
 */
export function retryDelaySeconds(
  attempt: number,
  settings: { backoffBaseSeconds: number; backoffCapSeconds: number },
  retryAfterSeconds?: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(settings.backoffCapSeconds, settings.backoffBaseSeconds * 2 ** Math.max(0, attempt - 1));
  const jittered = random() * ceiling;
  const floor = retryAfterSeconds === undefined ? 0 : Math.min(settings.backoffCapSeconds, retryAfterSeconds);
  return Math.ceil(Math.max(jittered, floor));
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unusable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  // Number() skips the same surrounding white space as trim().
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
