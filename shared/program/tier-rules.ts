/**
 * Tier windows, retention and downgrade: pure. The metric counts only what falls in the window; a
 * reached tier is kept until its retention ends even when the metric falls below it.
 */
import { DOWNGRADES, TIER_WINDOWS, type Downgrade, type TierWindow } from './entities';
import { tierFor, type TierLevel } from './arithmetic';
import { DAY_MS, startOfYear } from './calendar';

export { DOWNGRADES, TIER_WINDOWS, type Downgrade, type TierWindow };

export interface TierPolicy {
  window: TierWindow;
  /** A reached tier is kept at least this many days (0: only while it qualifies). */
  retainDays: number;
  downgrade: Downgrade;
}

/** The first instant that counts toward the metric at `now` (null: everything counts). */
export function windowStart(window: TierWindow, now: number, timeZone: string): number | null {
  if (window === 'rolling_365_days') return now - 365 * DAY_MS;
  if (window === 'calendar_year') return startOfYear(now, timeZone);
  return null;
}

/** The metric at `now`: the sum of the contributions inside the window. */
export function metricInWindow(contributions: readonly { at: number; value: number }[], window: TierWindow, now: number, timeZone: string): number {
  const from = windowStart(window, now, timeZone);
  return contributions.reduce((sum, c) => (c.at <= now && (from === null || c.at >= from) ? sum + c.value : sum), 0);
}

export interface TierState {
  tier: string;
  /** When the current tier was reached (ms). */
  reachedAt: number;
  /** The current tier is kept at least until then (ms). */
  retainedUntil: number;
}

export interface TierDecision extends TierState {
  change: 'upgraded' | 'downgraded' | null;
}

/**
 * The tier after an evaluation at `now` with `metric`. Up at once to the qualified tier; down only
 * once the retention has ended, one level or to the qualified tier as the policy says. A new tier
 * starts a new retention period, so `one_level` steps down at most once per period.
 */
export function decideTier(state: TierState, metric: number, levels: readonly TierLevel[], policy: TierPolicy, now: number): TierDecision {
  const current = Math.max(
    0,
    levels.findIndex((l) => l.key === state.tier),
  );
  const qualified = levels.indexOf(tierFor(metric, levels));
  const fresh = (index: number, change: TierDecision['change']): TierDecision => ({
    tier: levels[index]!.key,
    reachedAt: now,
    retainedUntil: now + policy.retainDays * DAY_MS,
    change,
  });
  if (qualified > current) return fresh(qualified, 'upgraded');
  if (qualified === current || now < state.retainedUntil) return { ...state, tier: levels[current]!.key, change: null };
  return fresh(policy.downgrade === 'one_level' ? current - 1 : qualified, 'downgraded');
}
