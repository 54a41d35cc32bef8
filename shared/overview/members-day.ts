/**
 * The members aggregates, pure: counters of tiers and of active members kept beside the points
 * counters (docs/decisions/0098-members-by-tier-and-active-members-counted-on-write.md).
 *
 * Tiers: `t.<key>` moves by -1 on the tier a member leaves and +1 on the one it reaches, so the sum
 * of every counter is the number of members in each tier.
 *
 * Active members: a member records the last local day it was active (`activeDay`). The first time
 * it is active on a day, that day counts it once, under the gap since its previous active day
 * (`a<gap>`, 1 to ACTIVE_WINDOW days) or `aNew` (never active, or longer ago). A member is counted
 * once in a period exactly when its first activity in the period has its previous one before the
 * period's first day: a gap greater than the days since that first day. So the distinct count of
 * any period of up to ACTIVE_WINDOW days is a sum of day counters.
 */
import { dayGap, daysBetween } from './points-report';
import type { DayCounters } from './points-day';

/** The longest period whose active members are counted exactly (a quarter). */
export const ACTIVE_WINDOW = 92;

const TIER = 't.';

/** The counters a member's tier change moves (none when it stays). */
export function tierMove(from: string | undefined, to: string | undefined): DayCounters {
  if (from === to) return {};
  const out: Record<string, number> = {};
  if (from !== undefined) out[`${TIER}${from}`] = -1;
  if (to !== undefined) out[`${TIER}${to}`] = 1;
  return out as DayCounters;
}

/** What a member's activity on `day` counts, given its previous active day: nothing when it was already active that day. */
export function activityMove(previous: string | undefined, day: string): DayCounters {
  if (previous !== undefined && previous >= day) return {};
  const gap = previous === undefined ? Number.POSITIVE_INFINITY : dayGap(previous, day);
  return (gap <= ACTIVE_WINDOW ? { [`a${gap}`]: 1 } : { aNew: 1 }) as DayCounters;
}

/** Members per tier key in counters summed over every day (and the running totals): zeros left out. */
export function tierCounts(counters: Readonly<Record<string, number | undefined>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of Object.entries(counters)) if (k.startsWith(TIER) && v) out.set(k.slice(TIER.length), v);
  return out;
}

/**
 * Distinct members active in `from`..`to` from the counters of each day: on each day, those whose
 * previous activity was before `from`. null for a period longer than ACTIVE_WINDOW days.
 */
export function activeIn(days: readonly { day: string; counters: Readonly<Record<string, number | undefined>> }[], from: string, to: string): number | null {
  if (from > to || daysBetween(from, to).length > ACTIVE_WINDOW) return null;
  let active = 0;
  for (const { day, counters } of days) {
    if (day < from || day > to) continue;
    const since = dayGap(from, day);
    for (const [k, v] of Object.entries(counters)) {
      if (v && (k === 'aNew' || (/^a\d+$/.test(k) && Number(k.slice(1)) > since))) active += v;
    }
  }
  return active;
}
