/**
 * A `points` row, pure: a signed whole number of points (never 0) and the reason the ledger and
 * the audit trail show.
 */
import { type BulkRowKind, type Check, combined, fail, parsePoints } from './checks';

export interface PointsChange {
  points: number;
  reason: string;
}

/** The most one row moves, either way (the manual points change's bound). */
export const MAX_POINTS = 1_000_000_000;
const MAX_REASON = 500;

function points(f: Record<string, unknown>): Check<number> {
  if (f.points === undefined || f.points === null) return fail('points', 'is required');
  const n = parsePoints(f.points);
  if (n === null) return fail('points', 'must be a whole number');
  if (n === 0) return fail('points', 'must not be 0: give + to add, - to take away');
  if (Math.abs(n) > MAX_POINTS) return fail('points', `must be at most ${MAX_POINTS} either way`);
  return { value: n };
}

function reason(f: Record<string, unknown>): Check<string> {
  const r = typeof f.reason === 'string' ? f.reason.trim() : '';
  if (r === '') return fail('reason', 'is required');
  if (r.length > MAX_REASON) return fail('reason', `must be at most ${MAX_REASON} characters`);
  return { value: r };
}

export const pointsRows: BulkRowKind<PointsChange> = {
  fields: ['points', 'reason'],
  change: (f) => combined([points(f), reason(f)] as const, ([p, r]) => ({ points: p, reason: r })),
  count(c, totals) {
    if (c.points > 0) totals.points += c.points;
    else totals.pointsRemoved -= c.points;
  },
};
