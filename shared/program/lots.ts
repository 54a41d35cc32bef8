/**
 * Points lots: pure. Each earn is a lot with its own expiry; a spend takes from the lot that expires
 * first, so a member never loses points that a different order of spending would have saved.
 */
import type { ExpiryPolicy } from './entities';
import { DAY_MS, startOfNextMonth } from './calendar';

export type ExpiryRule = { policy: 'none' } | { policy: Exclude<ExpiryPolicy, 'none'>; days: number };

export interface Lot {
  lotId: string;
  /** Points still in the lot (spends and expiry take from it). */
  remaining: number;
  /** ms since the epoch */
  earnedAt: number;
  /** ms since the epoch; null: the lot has no date of its own (no expiry, or inactivity decides). */
  expiresAt: number | null;
}

export interface Taken {
  lotId: string;
  points: number;
}

/**
 * When a lot earned at `earnedAt` expires: `fixed_days` after the earn; `end_of_month` at the end of
 * the local month in which `days` after the earn falls; never for `none` and for `inactivity_days`,
 * where the member's last activity decides for all lots at once (`inactivityExpiry`).
 */
export function lotExpiry(rule: ExpiryRule, earnedAt: number, timeZone: string): number | null {
  switch (rule.policy) {
    case 'fixed_days':
      return earnedAt + rule.days * DAY_MS;
    case 'end_of_month':
      return startOfNextMonth(earnedAt + rule.days * DAY_MS, timeZone);
    default:
      return null;
  }
}

/** Under `inactivity_days`, when everything left expires: `days` after the last earn or spend. */
export function inactivityExpiry(rule: ExpiryRule, lastActivityAt: number | null): number | null {
  return rule.policy === 'inactivity_days' && lastActivityAt !== null ? lastActivityAt + rule.days * DAY_MS : null;
}

/** The date a lot actually expires at: its own, or the member's inactivity date, whichever comes first. */
export function effectiveExpiry(lot: Lot, inactivityAt: number | null): number | null {
  if (lot.expiresAt === null) return inactivityAt;
  return inactivityAt === null ? lot.expiresAt : Math.min(lot.expiresAt, inactivityAt);
}

/** Spending order: earliest expiry first, lots without a date last; then oldest first, then by id. */
export function bySpendOrder(a: Lot, b: Lot): number {
  const ea = a.expiresAt ?? Number.POSITIVE_INFINITY;
  const eb = b.expiresAt ?? Number.POSITIVE_INFINITY;
  if (ea !== eb) return ea < eb ? -1 : 1;
  if (a.earnedAt !== b.earnedAt) return a.earnedAt - b.earnedAt;
  return a.lotId < b.lotId ? -1 : a.lotId > b.lotId ? 1 : 0;
}

/**
 * Takes `points` from the lots in spending order. `short` is what the lots could not cover (a spend
 * beyond the lots is refused by the balance condition before this matters; a reversal may exceed them).
 */
export function takeFromLots(lots: readonly Lot[], points: number): { taken: Taken[]; short: number } {
  const taken: Taken[] = [];
  let left = points;
  for (const lot of [...lots].sort(bySpendOrder)) {
    if (left <= 0) break;
    const n = Math.min(lot.remaining, left);
    if (n <= 0) continue;
    taken.push({ lotId: lot.lotId, points: n });
    left -= n;
  }
  return { taken, short: Math.max(0, left) };
}

/** The lots with points left whose expiry has come at `now`. */
export function dueLots(lots: readonly Lot[], now: number, inactivityAt: number | null): Lot[] {
  return lots.filter((lot) => {
    const at = effectiveExpiry(lot, inactivityAt);
    return lot.remaining > 0 && at !== null && at <= now;
  });
}

/**
 * What an expiry run takes at `now`: every due lot's remainder, never more than the balance (a
 * balance spent below its lots, e.g. by a reversal, is never pushed negative by expiry).
 */
export function expiryAt(lots: readonly Lot[], now: number, inactivityAt: number | null, balance: number): { points: number; lots: Taken[] } {
  const due = dueLots(lots, now, inactivityAt).sort(bySpendOrder);
  const taken = due.map((lot) => ({ lotId: lot.lotId, points: lot.remaining }));
  const total = taken.reduce((s, t) => s + t.points, 0);
  return { points: Math.min(total, Math.max(0, balance)), lots: taken };
}

/** Points left per expiry date, next dates first, at most `limit` dates (what a member sees coming). */
export function expiringSchedule(lots: readonly Lot[], inactivityAt: number | null, limit = 10): { points: number; expiresAt: number }[] {
  const byDate = new Map<number, number>();
  for (const lot of lots) {
    const at = effectiveExpiry(lot, inactivityAt);
    if (lot.remaining > 0 && at !== null) byDate.set(at, (byDate.get(at) ?? 0) + lot.remaining);
  }
  return [...byDate]
    .sort(([a], [b]) => a - b)
    .slice(0, limit)
    .map(([expiresAt, points]) => ({ points, expiresAt }));
}

/**
 * The warnings that fell due in (`since`, `now`]: for each of `warnDays`, the moment `days` before the
 * expiry. A warning whose moment passed after the expiry itself is not sent (the points are gone).
 */
export function warningsDue(expiresAt: number, warnDays: readonly number[], since: number, now: number): number[] {
  return warnDays.filter((days) => {
    const at = expiresAt - days * DAY_MS;
    return at > since && at <= now && now < expiresAt;
  });
}
