import { rateGuardSettings, type RateGuardSettings } from '../platform/config';
import { countRateWindows, type RateStoreClient } from './repository';
import { logger } from '../platform/observability/logger';
import { emitMetric } from '../platform/observability/metrics';
import type { Principal } from '../platform/contract/principal';
import { AppError, rateLimited } from '../platform/errors';

/**
 * Write-rate guard of custom-object record writes, per credential: at most `burst` writes in any
 * fixed 1-second window and `perSecond * windowSeconds` in any fixed `windowSeconds` window
 * (defaults 40 and 200 per 10 s, i.e. 20/s sustained). Each counter is moved by its own conditional
 * single-item update, shortest window first, and a slot taken in a shorter window is given back when
 * a longer one refuses: exact under concurrency, without the clashes of a transaction on hot items.
 * It fails closed: if a counter cannot be moved (an error, or no answer in `timeoutMs`) the write is
 * refused.
 */

/** One fixed window: `[start, start + sizeSeconds)` in epoch seconds. */
export interface RateWindow {
  sizeSeconds: number;
  /** Epoch seconds, a multiple of `sizeSeconds`. */
  start: number;
  /** Epoch milliseconds at which the window ends (the next one starts). */
  endsAtMs: number;
  limit: number;
  /** `<size>s:<start>`, the window's part of the counter's key. */
  key: string;
  /** TTL of the counter (epoch seconds): the window's end plus a minute. */
  expiresAt: number;
}

/** Counters outlive their window by this long before the table's TTL may delete them. */
const TTL_GRACE_SECONDS = 60;

/** The fixed window of `sizeSeconds` that holds `nowMs`. */
export function fixedWindow(nowMs: number, sizeSeconds: number, limit: number): RateWindow {
  const start = Math.floor(nowMs / 1000 / sizeSeconds) * sizeSeconds;
  return {
    sizeSeconds,
    start,
    endsAtMs: (start + sizeSeconds) * 1000,
    limit,
    key: `${sizeSeconds}s:${start}`,
    expiresAt: start + sizeSeconds + TTL_GRACE_SECONDS,
  };
}

/**
 * The windows a write at `now` is counted in, shortest first: the order they are counted in. A slot
 * a write holds for a moment in the 1 s window, before the 10 s window refuses it and it is given
 * back, can only turn away writes the full 10 s window refuses anyway; counted the other way round,
 * a briefly held 10 s slot could turn away a legal write for the rest of the 10 s. (Windows are
 * aligned to the epoch, so the 1 s window always lies inside the 10 s one and never ends later.)
 */
export function rateWindows(now: Date, settings: RateGuardSettings): RateWindow[] {
  const nowMs = now.getTime();
  const sustained = fixedWindow(nowMs, settings.windowSeconds, settings.perSecond * settings.windowSeconds);
  const burst = fixedWindow(nowMs, 1, settings.burst);
  // A 1-second "sustained" window is the burst window: one counter with the stricter limit.
  if (sustained.sizeSeconds === burst.sizeSeconds) return [{ ...burst, limit: Math.min(sustained.limit, burst.limit) }];
  return [burst, sustained];
}

/** Seconds until a refusing window ends, as the Retry-After header states it (at least 1). */
export const retryAfterSeconds = (window: RateWindow, now: Date): number => Math.max(1, Math.ceil((window.endsAtMs - now.getTime()) / 1000));

/** The guard's budget holder: the API key, or the user behind a session (`user:<id>`). */
export const guardKeyOf = (principal: Principal): string => (principal.kind === 'apiKey' ? principal.keyId : `user:${principal.userId}`);

/**
 * Counts one record write of `principal`, or throws: 429 `RATE_LIMITED` (Retry-After until the
 * refusing window ends) over the limit, 503 `SERVICE_UNAVAILABLE` when the guard cannot decide.
 * Resolves only when the write was counted; call it before the write.
 */
export async function guardWrite(
  principal: Principal,
  now: Date = new Date(),
  settings: RateGuardSettings = rateGuardSettings(),
  deps: { client?: RateStoreClient } = {},
): Promise<void> {
  const keyId = guardKeyOf(principal);
  const windows = rateWindows(now, settings);
  let refused: number | undefined;
  try {
    refused = await countRateWindows(
      principal.workspaceId,
      keyId,
      windows.map((w) => ({ window: w.key, limit: w.limit, expiresAt: w.expiresAt })),
      { timeoutMs: settings.timeoutMs, client: deps.client },
    );
  } catch (err) {
    logger.warn('Write-rate guard could not decide; write refused (fail closed)', {
      event: 'objects.rate_guard_unavailable',
      workspaceId: principal.workspaceId,
      keyId,
      timeoutMs: settings.timeoutMs,
      error: err instanceof Error ? { name: err.name, message: err.message } : String(err),
    });
    emitMetric('writeGuardRefusals', 1);
    throw new AppError('SERVICE_UNAVAILABLE', 'The write-rate guard could not decide; the write was refused', undefined, { 'retry-after': '1' });
  }
  if (refused === undefined) return;
  emitMetric('writeGuardRefusals', 1);
  const window = windows[refused]!;
  throw rateLimited(
    retryAfterSeconds(window, now),
    `Write rate limit reached for this credential: at most ${window.limit} writes per ${window.sizeSeconds === 1 ? 'second' : `${window.sizeSeconds} seconds`}`,
  );
}
