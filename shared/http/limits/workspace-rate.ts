import { config, WORKSPACE_RATE_LIMITS_ENV, workspaceRateOverrides, workspaceRateSettings, type WorkspaceRateOverride } from '../../platform/config';
import * as accounts from '../../auth';
import { takeRequestSlot, type RateStoreClient } from '../../platform/data/rate-windows-repository';
import { logger } from '../../platform/observability/logger';
import { TtlCache } from '../../platform/cache';
import { budgetOf, limitOf, LocalWindows, secondWindow, stateOf, type Budget, type BudgetState, type SecondWindow } from './request-budget';

/**
 * Counts a request against its workspace's budget (docs/security.md, "Request budgets per
 * workspace"): at most one store call per request (the counter's conditional `ADD`), none once this
 * process knows the window is full. A workspace's mode never changes after registration, so it is
 * read once per process (and a day at most), one read however many requests wait for it.
 */

const modes = new TtlCache<Promise<boolean>>(24 * 60 * 60 * 1000, config.caches.maxEntries);
const local = new LocalWindows();
/** The workspace of each credential this process authenticated in the last minute, by its digest. */
const credentials = new TtlCache<string>(60_000, config.caches.maxEntries);

/** Remembers that a credential (its digest, never the credential itself) names `workspaceId`. */
export const noteCredential = (digest: string, workspaceId: string): void => credentials.set(digest, workspaceId);

/** What the pre-check decided for a request: refused, or held until it asks for its slot (`release`). */
export type BeforeAuthentication = { refused: BudgetState } | { release: () => void };

/**
 * The pre-check before authentication, for a credential authenticated here lately (else
 * undefined: authenticate as usual). Refused when its workspace has no slot left in this window for
 * the request's budget, counting the requests of known credentials still on their way to one;
 * otherwise held until `release` (called when it asks for its slot, or ends without). A flood that
 * ignores `Retry-After` then costs no store call at all (not even the credential's read, nor at a
 * window's start, when a burst would otherwise all be authenticated before the first took a slot),
 * so it cannot slow the store the other workspaces share. A credential revoked meanwhile is
 * answered 429 rather than 401 until the window ends: it learns nothing it did not know.
 */
export function beforeAuthentication(digest: string, method: string, now: Date = new Date()): BeforeAuthentication | undefined {
  const workspaceId = credentials.get(digest);
  if (workspaceId === undefined) return undefined;
  const window = secondWindow(now.getTime());
  const budget = budgetOf(method);
  const limit = local.hold(workspaceId, budget, window);
  if (limit !== undefined) return { refused: stateOf(undefined, limit, window, now.getTime()) };
  let released = false;
  return {
    release: () => {
      if (!released) local.release(workspaceId, budget, window);
      released = true;
    },
  };
}

function isSandbox(workspaceId: string): Promise<boolean> {
  const known = modes.get(workspaceId);
  if (known !== undefined) return known;
  const reading = accounts.getWorkspace(workspaceId).then((w) => w?.sandbox ?? false);
  modes.set(workspaceId, reading);
  reading.catch(() => modes.invalidate(workspaceId));
  return reading;
}

let overrides: { raw: string | undefined; parsed: Map<string, WorkspaceRateOverride> } | undefined;
function overrideOf(workspaceId: string): WorkspaceRateOverride | undefined {
  const raw = process.env[WORKSPACE_RATE_LIMITS_ENV];
  if (!overrides || overrides.raw !== raw) overrides = { raw, parsed: workspaceRateOverrides() };
  return overrides.parsed.get(workspaceId);
}

/**
 * Counts one request of `workspaceId` with `method` and answers its budget state: admitted (counted)
 * or refused. Should the counter fail or not answer within `timeoutMs`, the request is admitted on
 * this process's own count (fail open, logged): the same store serves the request itself, and a slow
 * counter must not turn into an outage; the process still admits no more than the limit a window.
 */
export async function admitRequest(
  workspaceId: string,
  method: string,
  now: Date = new Date(),
  /** `processOnly`: the caller may not write the table (a read-only area): this process's own count decides. */
  deps: { client?: RateStoreClient; processOnly?: boolean } = {},
): Promise<BudgetState> {
  const settings = workspaceRateSettings();
  const budget = budgetOf(method);
  const nowMs = now.getTime();
  const window = secondWindow(nowMs);
  const own = overrideOf(workspaceId);
  let limit = limitOf(budget, false, settings, own);
  try {
    limit = limitOf(budget, await isSandbox(workspaceId), settings, own);
    if (!local.take(workspaceId, budget, window, limit)) return stateOf(undefined, limit, window, nowMs);
    if (deps.processOnly) return stateOf(local.taken(workspaceId, budget, window), limit, window, nowMs);
    const count = await takeRequestSlot(
      workspaceId,
      budget,
      { key: window.key, limit, expiresAt: window.expiresAt },
      { timeoutMs: settings.timeoutMs, ...deps },
    );
    if (count === undefined) local.markFull(workspaceId, budget, window);
    return stateOf(count, limit, window, nowMs);
  } catch (err) {
    return admittedUncounted(workspaceId, budget, window, limit, nowMs, settings.timeoutMs, err);
  }
}

function admittedUncounted(workspaceId: string, budget: Budget, window: SecondWindow, limit: number, nowMs: number, timeoutMs: number, err: unknown) {
  logger.warn('Request budget could not be counted; request admitted on this process count (fail open)', {
    event: 'workspace.rate_limit_unavailable',
    workspaceId,
    budget,
    timeoutMs,
    error: err instanceof Error ? { name: err.name, message: err.message } : String(err),
  });
  return stateOf(Math.min(limit, local.taken(workspaceId, budget, window)), limit, window, nowMs);
}
