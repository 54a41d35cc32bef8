/**
 * The tier metric over a window, kept compact, and when a member's tier must be looked at again:
 * pure. A member's qualifying points and orders are summed per local day (at most 366 days are
 * kept: enough for a rolling year and for the current calendar year), so one small item answers
 * the metric of any window at any instant.
 */
import type { TierRulesRecord } from './entities';
import { DAY_MS, localDate, startOfLocalDay } from './calendar';
import { decideTier, windowStart, type TierDecision, type TierState } from './tier-rules';

/** Qualifying points and completed orders per local day (`YYYY-MM-DD`). */
export type TierDays = Record<string, [points: number, orders: number]>;

/** Days kept: a rolling window of 365 days spans 366 local dates, a calendar year at most 366. */
export const DAYS_KEPT = 366;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The local date of `at` as a sortable key. */
export function dayKey(at: number, timeZone: string): string {
  const d = localDate(at, timeZone);
  return `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`;
}

const parseDay = (key: string) => {
  const [year, month, day] = key.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};

/** The days with `points` and `orders` added to the day of `at`, days no window can reach any more dropped. */
export function addToDays(days: TierDays, at: number, points: number, orders: number, timeZone: string): TierDays {
  const oldest = dayKey(at - DAYS_KEPT * DAY_MS, timeZone);
  const out: TierDays = {};
  for (const [key, value] of Object.entries(days)) if (key >= oldest) out[key] = [value[0], value[1]];
  if (points === 0 && orders === 0) return out;
  const key = dayKey(at, timeZone);
  const [p, o] = out[key] ?? [0, 0];
  out[key] = [p + points, o + orders];
  return out;
}

/**
 * The metric of a window at `now` from the days: every day from the local date the window starts
 * on up to today counts whole (so a day's points count up to one day longer, never shorter).
 * Never below zero (a reversal can outweigh what its window still holds).
 */
export function windowMetric(days: TierDays, tiers: Pick<TierRulesRecord, 'metric' | 'window'>, now: number, timeZone: string): number {
  const start = windowStart(tiers.window, now, timeZone);
  const from = start === null ? '' : dayKey(start, timeZone);
  const to = dayKey(now, timeZone);
  const slot = tiers.metric === 'order_count' ? 1 : 0;
  let sum = 0;
  for (const [key, value] of Object.entries(days)) if (key >= from && key <= to) sum += value[slot];
  return Math.max(0, sum);
}

/** The first instant at which the day `key` no longer counts in the window. */
export function dayLeavesWindow(key: string, window: TierRulesRecord['window'], timeZone: string): number | null {
  const d = parseDay(key);
  if (window === 'calendar_year') return startOfLocalDay({ year: d.year + 1, month: 1, day: 1 }, timeZone);
  if (window === 'rolling_365_days') return startOfLocalDay({ ...d, day: d.day + 1 }, timeZone) + 365 * DAY_MS;
  return null;
}

/**
 * The first instant after `now` at which the window metric, without any new activity, falls below
 * `below` or reaches `reach` (a reversal's day leaving the window raises it), and which of the two;
 * null: neither, e.g. a lifetime window.
 */
export function metricMoves(
  days: TierDays,
  tiers: Pick<TierRulesRecord, 'metric' | 'window'>,
  bounds: { below: number | null; reach: number | null },
  now: number,
  timeZone: string,
): { at: number; falls: boolean } | null {
  const exits = [...new Set(Object.keys(days).map((k) => dayLeavesWindow(k, tiers.window, timeZone)))]
    .filter((t): t is number => t !== null && t > now)
    .sort((a, b) => a - b);
  for (const at of exits) {
    const value = windowMetric(days, tiers, at, timeZone);
    if (bounds.below !== null && value < bounds.below) return { at, falls: true };
    if (bounds.reach !== null && value >= bounds.reach) return { at, falls: false };
  }
  return null;
}

/**
 * When the member's tier must be evaluated again without any activity: the retention end when the
 * metric is already below the tier; else when the metric will fall below it (but not before the
 * retention ends), or reach the next tier (a reversal leaving the window), whichever comes first.
 * Null: the tier cannot move by time alone (a lifetime metric).
 */
export function tierReviewAt(state: TierState, days: TierDays, value: number, tiers: TierRulesRecord, now: number, timeZone: string): number | null {
  const current = tiers.levels.findIndex((l) => l.key === state.tier);
  const below = current > 0 ? tiers.levels[current]!.threshold : null;
  if (below !== null && value < below) return Math.max(state.retainedUntil, now);
  const moves = metricMoves(days, tiers, { below, reach: tiers.levels[current + 1]?.threshold ?? null }, now, timeZone);
  if (moves === null) return null;
  return moves.falls ? Math.max(moves.at, state.retainedUntil) : moves.at;
}

export interface TierEvaluation {
  decision: TierDecision;
  days: TierDays;
  /** The metric at the evaluation. */
  value: number;
  reviewAt: number | null;
}

/**
 * One evaluation at `now`: the change's points and orders join their day, the metric is taken in
 * the window (a lifetime window uses the member's lifetime counters as given), the tier decided
 * and the next review computed.
 */
export function evaluateTier(
  input: { state: TierState; days: TierDays; lifetimeValue: number; points: number; orders: number },
  tiers: TierRulesRecord,
  now: number,
  timeZone: string,
): TierEvaluation {
  const days = addToDays(input.days, now, input.points, input.orders, timeZone);
  const value = tiers.window === 'lifetime' ? input.lifetimeValue : windowMetric(days, tiers, now, timeZone);
  const decision = decideTier(input.state, value, tiers.levels, tiers, now);
  return { decision, days, value, reviewAt: tierReviewAt(decision, days, value, tiers, now, timeZone) };
}
