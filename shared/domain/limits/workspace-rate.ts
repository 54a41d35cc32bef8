import { config, WORKSPACE_RATE_LIMITS_ENV, workspaceRateOverrides, workspaceRateSettings, type WorkspaceRateOverride } from '../../config';
import * as accounts from '../../data/repositories/accounts';
import { takeRequestSlot, type RateStoreClient } from '../../data/repositories/rate-windows';
import { logger } from '../../observability/logger';
import { TtlCache } from '../cache';
import { budgetOf, FullWindows, limitOf, secondWindow, stateOf, type BudgetState } from './request-budget';

/**
 * Counts a request against its workspace's budget (docs/security.md, "Request budgets per
 * workspace"): at most one store call per request (the counter's conditional `ADD`), none once this
 * process knows the window is full. A workspace's mode never changes after registration, so it is
 * read once per process (and a day at most).
 */

const modes = new TtlCache<boolean>(24 * 60 * 60 * 1000, config.caches.maxEntries);
const fullWindows = new FullWindows();

async function isSandbox(workspaceId: string): Promise<boolean> {
  return modes.load(workspaceId, async () => (await accounts.getWorkspace(workspaceId))?.sandbox ?? false);
}

let overrides: { raw: string | undefined; parsed: Map<string, WorkspaceRateOverride> } | undefined;
function overrideOf(workspaceId: string): WorkspaceRateOverride | undefined {
  const raw = process.env[WORKSPACE_RATE_LIMITS_ENV];
  if (!overrides || overrides.raw !== raw) overrides = { raw, parsed: workspaceRateOverrides() };
  return overrides.parsed.get(workspaceId);
}

/**
 * The budget state of one request of `workspaceId` with `method`: admitted (counted) or refused.
 * `undefined` when the counter could not decide in time: the request is then admitted uncounted
 * (fail open, logged), since the same store serves the request itself and is the real bottleneck.
 */
export async function admitRequest(
  workspaceId: string,
  method: string,
  now: Date = new Date(),
  deps: { client?: RateStoreClient } = {},
): Promise<BudgetState | undefined> {
  const settings = workspaceRateSettings();
  const budget = budgetOf(method);
  const nowMs = now.getTime();
  const window = secondWindow(nowMs);
  try {
    const limit = limitOf(budget, await isSandbox(workspaceId), settings, overrideOf(workspaceId));
    if (fullWindows.isFull(workspaceId, budget, window)) return stateOf(undefined, limit, window, nowMs);
    const count = await takeRequestSlot(workspaceId, budget, { key: window.key, limit, expiresAt: window.expiresAt }, { timeoutMs: settings.timeoutMs, ...deps });
    if (count === undefined || count >= limit) fullWindows.markFull(workspaceId, budget, window);
    return stateOf(count, limit, window, nowMs);
  } catch (err) {
    logger.warn('Request budget could not be counted; request admitted (fail open)', {
      event: 'workspace.rate_limit_unavailable',
      workspaceId,
      budget,
      timeoutMs: settings.timeoutMs,
      error: err instanceof Error ? { name: err.name, message: err.message } : String(err),
    });
    return undefined;
  }
}
