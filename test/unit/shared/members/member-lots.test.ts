import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../shared/program/calendar';
import {
  absorbExpired,
  activationsAt,
  addPending,
  cancelPending,
  credit,
  debit,
  expire,
  expiring,
  inactivityAt,
  lapsed,
  MAX_EXPIRED,
  MAX_LOTS,
  NO_LOTS,
  nextDueAt,
  warningDue,
} from '../../../../shared/members/member-lots';
import type { MemberLotsRecord, PointsLotRecord } from '../../../../shared/members/entities';
import type { PointsRules } from '../../../../shared/program/entities';

/**
 * A member's lots through each change, pinned to exact values and to the boundary instants (an expiry
 * or activation at exactly its moment, a warning at exactly its moment or at `warnedThrough`).
 */

const T0 = Date.parse('2026-01-15T10:00:00Z');
const NONE: PointsRules = { expiry: { policy: 'none' }, warnDays: [], pendingDays: 0 };
const FIXED_30: PointsRules = { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [], pendingDays: 0 };
const INACTIVE_10: PointsRules = { expiry: { policy: 'inactivity_days', days: 10 }, warnDays: [], pendingDays: 0 };

const lot = (id: string, points: number, earnedAt: number, expiresAt: number | null, orderId: string | null = null): PointsLotRecord => ({
  id,
  points,
  earnedAt,
  expiresAt,
  orderId,
});
const state = (over: Partial<MemberLotsRecord>): MemberLotsRecord => ({ ...NO_LOTS, ...over });

describe('member lots: constants and inactivity', () => {
  it('starts empty and caps at 500 lots', () => {
    expect(NO_LOTS).toEqual({ lots: [], pending: [], lastActivityAt: null, warnedThrough: 0 });
    expect(MAX_LOTS).toBe(500);
  });

  it('the inactivity date follows the last activity under inactivity_days only', () => {
    expect(inactivityAt(state({ lastActivityAt: T0 }), INACTIVE_10)).toBe(T0 + 10 * DAY_MS);
    expect(inactivityAt(state({ lastActivityAt: null }), INACTIVE_10)).toBeNull();
    expect(inactivityAt(state({ lastActivityAt: T0 }), FIXED_30)).toBeNull();
  });
});

describe('credit', () => {
  it('adds a lot with its expiry under the rules and counts as activity', () => {
    const before = state({ lots: [lot('a', 5, T0 - DAY_MS, null)], lastActivityAt: T0 - DAY_MS, warnedThrough: 7 });
    const after = credit(before, { id: 'b', points: 12, orderId: 'ord_1' }, T0, FIXED_30, 'UTC');
    expect(after).toEqual({
      lots: [lot('a', 5, T0 - DAY_MS, null), { id: 'b', points: 12, orderId: 'ord_1', earnedAt: T0, expiresAt: T0 + 30 * DAY_MS }],
      pending: [],
      lastActivityAt: T0,
      warnedThrough: 7,
    });
    expect(credit(before, { id: 'c', points: 1, orderId: null }, T0, NONE, 'UTC').lots[1]).toEqual(lot('c', 1, T0, null));
  });

  it('a reward that is not activity keeps the last activity', () => {
    const before = state({ lastActivityAt: T0 - DAY_MS });
    expect(credit(before, { id: 'b', points: 3, orderId: null }, T0, NONE, 'UTC', false).lastActivityAt).toBe(T0 - DAY_MS);
    expect(credit(before, { id: 'b', points: 3, orderId: null }, T0, NONE, 'UTC', true).lastActivityAt).toBe(T0);
  });

  it('zero or negative points change nothing', () => {
    const before = state({ lastActivityAt: T0 - DAY_MS });
    expect(credit(before, { id: 'b', points: 0, orderId: null }, T0, NONE, 'UTC')).toBe(before);
    expect(credit(before, { id: 'b', points: -4, orderId: null }, T0, NONE, 'UTC')).toBe(before);
  });

  it('exactly 500 lots stay as they are; the 501st merges the two that expire last into the later one', () => {
    // Lot i expires on day i + 1; given in reverse so that only sorting finds the last two.
    const lots = Array.from({ length: MAX_LOTS - 1 }, (_, i) => lot(`l${MAX_LOTS - 1 - i}`, 1, T0, T0 + (MAX_LOTS - i) * DAY_MS, 'ord_x'));
    const full = credit(state({ lots }), { id: 'n500', points: 2, orderId: null }, T0, NONE, 'UTC');
    expect(full.lots).toHaveLength(MAX_LOTS);
    expect(full.lots.at(-1)).toEqual(lot('n500', 2, T0, null));

    // The 501st lot: the two lots without a date expire last and merge.
    const over = credit(full, { id: 'n501', points: 3, orderId: 'ord_y' }, T0 + 1, NONE, 'UTC');
    expect(over.lots).toHaveLength(MAX_LOTS);
    // The lots without a date: 'n500' (earned first) and 'n501'; the later in spending order is 'n501'.
    expect(over.lots.at(-1)).toEqual({ id: 'n501', points: 5, earnedAt: T0 + 1, expiresAt: null, orderId: null });
    expect(over.lots.map((l) => l.id)).not.toContain('n500');
    expect(over.lots.slice(0, -1)).toEqual(lots);
    expect(over.lots.reduce((s, l) => s + l.points, 0)).toBe(MAX_LOTS - 1 + 2 + 3);
  });

  it('the merge takes the two latest dated lots when every lot has a date', () => {
    const lots = Array.from({ length: MAX_LOTS }, (_, i) => lot(`l${i}`, 1, T0, T0 + (i + 2) * DAY_MS, `ord_${i}`));
    // Shuffle the two latest to the front: the order of the array must not decide.
    const given = [lots[MAX_LOTS - 1]!, lots[MAX_LOTS - 2]!, ...lots.slice(0, MAX_LOTS - 2)];
    const over = credit(state({ lots: given }), { id: 'early', points: 4, orderId: null }, T0, FIXED_30, 'UTC');
    expect(over.lots).toHaveLength(MAX_LOTS);
    expect(over.lots.at(-1)).toEqual({ ...lots[MAX_LOTS - 1]!, points: 2, orderId: null });
    expect(over.lots.slice(0, -1)).toEqual([...lots.slice(0, MAX_LOTS - 2), lot('early', 4, T0, T0 + 30 * DAY_MS)]);
  });
});

describe('debit', () => {
  const manual = lot('m', 10, T0, T0 + 5 * DAY_MS);
  const order = lot('o', 10, T0, T0 + 20 * DAY_MS, 'ord_1');
  const other = lot('p', 10, T0, T0 + 10 * DAY_MS, 'ord_2');
  const before = state({ lots: [manual, order, other], lastActivityAt: T0 - DAY_MS });

  it('takes in spending order, removes emptied lots, and a spend counts as activity', () => {
    const after = debit(before, 14, T0, { spend: true });
    expect(after).toEqual({ ...before, lots: [{ ...order }, { ...other, points: 6 }], lastActivityAt: T0 });
    expect(debit(before, 14, T0, { spend: false }).lastActivityAt).toBe(T0 - DAY_MS);
  });

  it('an order lot that expires first goes first when no order is named', () => {
    const early = lot('e', 5, T0, T0 + DAY_MS, 'ord_1');
    const late = lot('n', 5, T0, T0 + 2 * DAY_MS, null);
    expect(debit(state({ lots: [late, early] }), 3, T0, { orderId: null, spend: false }).lots).toEqual([late, { ...early, points: 2 }]);
  });

  it("a refund takes the order's own lots first, the rest from the others in spending order", () => {
    expect(debit(before, 4, T0, { orderId: 'ord_1', spend: false }).lots).toEqual([manual, { ...order, points: 6 }, other]);
    expect(debit(before, 13, T0, { orderId: 'ord_1', spend: false }).lots).toEqual([{ ...manual, points: 7 }, other]);
    // The order's lot expires first: once it is empty the rest comes from the others, never from it again.
    const own = lot('own', 4, T0, T0 + DAY_MS, 'ord_3');
    expect(debit(state({ lots: [manual, own] }), 6, T0, { orderId: 'ord_3', spend: false }).lots).toEqual([{ ...manual, points: 8 }]);
    // More than all the lots hold: every lot goes.
    expect(debit(before, 50, T0, { orderId: 'ord_1', spend: false }).lots).toEqual([]);
  });

  it('a reversed entry takes the lot it opened first (named by the entry), the rest from the others in spending order', () => {
    const late = lot('late', 10, T0 + DAY_MS, T0 + 31 * DAY_MS);
    const lots = state({ lots: [manual, late] });
    expect(debit(lots, 4, T0, { orderId: null, lotId: 'late', spend: false }).lots).toEqual([manual, { ...late, points: 6 }]);
    expect(debit(lots, 13, T0, { orderId: null, lotId: 'late', spend: false }).lots).toEqual([{ ...manual, points: 7 }]);
    // A lot no longer there (spent, expired): spending order.
    expect(debit(lots, 4, T0, { orderId: null, lotId: 'gone', spend: false }).lots).toEqual([{ ...manual, points: 6 }, late]);
    // Named by both: the order's lots and the entry's lot go first, together in spending order.
    expect(debit(before, 12, T0, { orderId: 'ord_1', lotId: 'p', spend: false }).lots).toEqual([manual, { ...order, points: 8 }]);
    expect(debit(before, 5, T0, { orderId: 'ord_1', lotId: 'p', spend: false }).lots).toEqual([manual, order, { ...other, points: 5 }]);
  });

  it('zero or negative points change nothing', () => {
    expect(debit(before, 0, T0, { spend: true })).toBe(before);
    expect(debit(before, -3, T0, { spend: true })).toBe(before);
  });
});

describe('pending points', () => {
  const rules: PointsRules = { ...NONE, pendingDays: 14 };

  it('an order waits pendingDays; more of the same order adds to it, its time unchanged', () => {
    const one = addPending(NO_LOTS, 'ord_1', 20, T0, rules);
    expect(one).toEqual({ ...NO_LOTS, pending: [{ orderId: 'ord_1', points: 20, activatesAt: T0 + 14 * DAY_MS }] });
    const two = addPending(one, 'ord_2', 5, T0 + DAY_MS, rules);
    const more = addPending(two, 'ord_1', 7, T0 + 2 * DAY_MS, rules);
    expect(more.pending).toEqual([
      { orderId: 'ord_1', points: 27, activatesAt: T0 + 14 * DAY_MS },
      { orderId: 'ord_2', points: 5, activatesAt: T0 + 15 * DAY_MS },
    ]);
    // A campaign share given back after its reward was announced says so, for its activation.
    expect(addPending(NO_LOTS, 'ord_1/cmp_1', 4, T0, rules, true).pending).toEqual([
      { orderId: 'ord_1/cmp_1', points: 4, activatesAt: T0 + 14 * DAY_MS, announced: true },
    ]);
  });

  it('a cancellation takes up to what the order has waiting and drops it when empty', () => {
    const s = state({
      pending: [
        { orderId: 'ord_1', points: 20, activatesAt: T0 },
        { orderId: 'ord_2', points: 5, activatesAt: T0 + 1 },
      ],
    });
    expect(cancelPending(s, 'ord_1', 8)).toEqual({
      state: { ...s, pending: [{ orderId: 'ord_1', points: 12, activatesAt: T0 }, s.pending[1]] },
      cancelled: 8,
    });
    expect(cancelPending(s, 'ord_1', 20)).toEqual({ state: { ...s, pending: [s.pending[1]] }, cancelled: 20 });
    expect(cancelPending(s, 'ord_1', 99)).toEqual({ state: { ...s, pending: [s.pending[1]] }, cancelled: 20 });
    const none = cancelPending(s, 'ord_9', 8);
    expect(none.cancelled).toBe(0);
    expect(none.state).toBe(s);
    const zero = cancelPending(s, 'ord_1', 0);
    expect(zero.cancelled).toBe(0);
    expect(zero.state).toBe(s);
    expect(cancelPending(s, 'ord_1', -3).state).toBe(s);
  });

  it('activation is due at exactly its moment, not a millisecond before', () => {
    const a = { orderId: 'a', points: 1, activatesAt: T0 };
    const b = { orderId: 'b', points: 2, activatesAt: T0 + 1 };
    const s = state({ pending: [a, b] });
    expect(activationsAt(s, T0 - 1)).toEqual({ due: [], rest: [a, b] });
    expect(activationsAt(s, T0)).toEqual({ due: [a], rest: [b] });
    expect(activationsAt(s, T0 + 1)).toEqual({ due: [a, b], rest: [] });
  });
});

describe('due times and warnings', () => {
  const warn: PointsRules = { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [7, 1], pendingDays: 0 };
  const at = T0 + 30 * DAY_MS;
  const l = lot('a', 10, T0, at);

  it('nothing due: null', () => {
    expect(nextDueAt(NO_LOTS, warn)).toBeNull();
    expect(nextDueAt(state({ lots: [lot('a', 10, T0, null)] }), NONE)).toBeNull();
  });

  it('the earliest of activations, expiries and warnings not yet sent', () => {
    expect(nextDueAt(state({ lots: [l] }), FIXED_30)).toBe(at);
    expect(nextDueAt(state({ lots: [l] }), warn)).toBe(at - 7 * DAY_MS);
    // A warning at exactly warnedThrough was sent.
    expect(nextDueAt(state({ lots: [l], warnedThrough: at - 7 * DAY_MS }), warn)).toBe(at - DAY_MS);
    expect(nextDueAt(state({ lots: [l], warnedThrough: at - 7 * DAY_MS - 1 }), warn)).toBe(at - 7 * DAY_MS);
    expect(nextDueAt(state({ lots: [l], warnedThrough: at - DAY_MS }), warn)).toBe(at);
    expect(nextDueAt(state({ lots: [l], pending: [{ orderId: 'o', points: 1, activatesAt: at - 9 * DAY_MS }] }), warn)).toBe(at - 9 * DAY_MS);
    expect(nextDueAt(state({ pending: [{ orderId: 'o', points: 1, activatesAt: T0 }] }), NONE)).toBe(T0);
  });

  it('a warning before the earn or at the expiry itself has no moment', () => {
    // 30 days before an expiry 30 days after the earn is the earn itself; 0 days before is the expiry.
    expect(nextDueAt(state({ lots: [l] }), { ...warn, warnDays: [30] })).toBe(at);
    expect(nextDueAt(state({ lots: [l] }), { ...warn, warnDays: [29] })).toBe(T0 + DAY_MS);
    expect(warningDue(state({ lots: [l] }), { ...warn, warnDays: [30] }, T0)).toBe(false);
    expect(warningDue(state({ lots: [l] }), { ...warn, warnDays: [0] }, at - 1)).toBe(false);
  });

  it('the inactivity date decides for lots without their own, and when it comes first', () => {
    const s = state({ lots: [lot('a', 10, T0, null), lot('b', 5, T0, T0 + 30 * DAY_MS)], lastActivityAt: T0 });
    expect(nextDueAt(s, INACTIVE_10)).toBe(T0 + 10 * DAY_MS);
    expect(nextDueAt(s, { ...INACTIVE_10, warnDays: [3] })).toBe(T0 + 7 * DAY_MS);
  });

  it('a warning is due from exactly its moment, once, and never at or after the expiry', () => {
    const s = state({ lots: [l] });
    expect(warningDue(s, warn, at - 7 * DAY_MS - 1)).toBe(false);
    expect(warningDue(s, warn, at - 7 * DAY_MS)).toBe(true);
    expect(warningDue(state({ lots: [l], warnedThrough: at - 7 * DAY_MS }), warn, at - 2 * DAY_MS)).toBe(false);
    expect(warningDue(state({ lots: [l], warnedThrough: at - 7 * DAY_MS - 1 }), warn, at - 7 * DAY_MS)).toBe(true);
    expect(warningDue(s, warn, at - 1)).toBe(true);
    expect(warningDue(s, warn, at)).toBe(false);
    expect(warningDue(state({ lots: [lot('a', 10, T0, null)] }), { ...NONE, warnDays: [7] }, at)).toBe(false);
    expect(warningDue(NO_LOTS, warn, at - DAY_MS)).toBe(false);
  });

  it('inactivity warnings count from the last activity', () => {
    const s = state({ lots: [lot('a', 10, T0, null)], lastActivityAt: T0 });
    const r = { ...INACTIVE_10, warnDays: [3] };
    expect(warningDue(s, r, T0 + 7 * DAY_MS - 1)).toBe(false);
    expect(warningDue(s, r, T0 + 7 * DAY_MS)).toBe(true);
  });
});

describe('expire and expiring', () => {
  const a = lot('a', 10, T0, T0 + 5 * DAY_MS);
  const b = lot('b', 4, T0, T0 + 5 * DAY_MS);
  const c = lot('c', 6, T0, T0 + 9 * DAY_MS);
  const s = state({ lots: [a, c, b], warnedThrough: 3 });

  it('lots leave at exactly their expiry; the balance loses their points, never below zero', () => {
    const none = expire(s, FIXED_30, T0 + 5 * DAY_MS - 1, 100);
    expect(none).toEqual({ state: s, points: 0 });
    expect(none.state).toBe(s);
    expect(expire(s, FIXED_30, T0 + 5 * DAY_MS, 100)).toEqual({ state: { ...s, lots: [c] }, points: 14 });
    expect(expire(s, FIXED_30, T0 + 5 * DAY_MS, 9)).toEqual({ state: { ...s, lots: [c] }, points: 9 });
    expect(expire(s, FIXED_30, T0 + 5 * DAY_MS, -2)).toEqual({ state: { ...s, lots: [c] }, points: 0 });
  });

  it('inactivity expires every lot at once', () => {
    const idle = state({ lots: [lot('x', 3, T0, null), a], lastActivityAt: T0 });
    expect(expire(idle, INACTIVE_10, T0 + 5 * DAY_MS, 50)).toEqual({ state: { ...idle, lots: [idle.lots[0]] }, points: 10 });
    expect(expire(idle, INACTIVE_10, T0 + 10 * DAY_MS, 50)).toEqual({ state: { ...idle, lots: [] }, points: 13 });
  });

  it('points by date as ISO instants, next first, at most the limit', () => {
    expect(expiring(s, FIXED_30)).toEqual([
      { points: 14, expiresAt: new Date(T0 + 5 * DAY_MS).toISOString() },
      { points: 6, expiresAt: new Date(T0 + 9 * DAY_MS).toISOString() },
    ]);
    expect(expiring(s, FIXED_30, 1)).toEqual([{ points: 14, expiresAt: '2026-01-20T10:00:00.000Z' }]);
    const many = state({ lots: Array.from({ length: 12 }, (_, i) => lot(`l${i}`, 1, T0, T0 + (i + 1) * DAY_MS)) });
    expect(expiring(many, FIXED_30)).toHaveLength(10);
    const idle = state({ lots: [lot('x', 3, T0, null)], lastActivityAt: T0 });
    expect(expiring(idle, INACTIVE_10)).toEqual([{ points: 3, expiresAt: new Date(T0 + 10 * DAY_MS).toISOString() }]);
  });
});

describe("expired points remembered per order, and a reversal's share of them", () => {
  const a = lot('a', 10, T0, T0 + 5 * DAY_MS, 'ord_1');
  const b = lot('b', 4, T0 + 1, T0 + 5 * DAY_MS, 'ord_2');
  const m = lot('m', 3, T0 + 2, T0 + 5 * DAY_MS);
  const c = lot('c', 6, T0, T0 + 9 * DAY_MS, 'ord_3');
  const at = T0 + 5 * DAY_MS;

  it("an expiry remembers what each order's lots lost; a lot of no order is not remembered", () => {
    const s = state({ lots: [a, m, c, b] });
    expect(expire(s, FIXED_30, at, 100)).toEqual({
      state: {
        ...s,
        lots: [c],
        expired: [
          { orderId: 'ord_1', points: 10 },
          { orderId: 'ord_2', points: 4 },
        ],
      },
      points: 17,
    });
    // Only the manual lot expires: nothing to remember, and nothing remembered before is lost.
    const before = state({ lots: [m, c], expired: [{ orderId: 'ord_9', points: 2 }] });
    expect(expire(before, FIXED_30, at, 100)).toEqual({ state: { ...before, lots: [c] }, points: 3 });
    expect(expire(state({ lots: [m] }), FIXED_30, at, 100).state).not.toHaveProperty('expired');
  });

  it('a balance below the lots loses less: the lots lose it in spending order, the rest was owed', () => {
    const s = state({ lots: [b, a, m] });
    expect(expire(s, FIXED_30, at, 12).state.expired).toEqual([
      { orderId: 'ord_1', points: 10 },
      { orderId: 'ord_2', points: 2 },
    ]);
    expect(expire(s, FIXED_30, at, 0)).toEqual({ state: { ...s, lots: [] }, points: 0 });
  });

  it("an order's expiry adds to what it had, moved to the end; beyond 500 orders the oldest are forgotten", () => {
    const s = state({
      lots: [a],
      expired: [
        { orderId: 'ord_1', points: 5 },
        { orderId: 'ord_8', points: 1 },
      ],
    });
    expect(expire(s, FIXED_30, at, 100).state.expired).toEqual([
      { orderId: 'ord_8', points: 1 },
      { orderId: 'ord_1', points: 15 },
    ]);
    expect(MAX_EXPIRED).toBe(500);
    const full = Array.from({ length: MAX_EXPIRED }, (_, i) => ({ orderId: `ord_x${i}`, points: 1 }));
    const kept = expire(state({ lots: [a], expired: full }), FIXED_30, at, 100).state.expired!;
    expect(kept).toHaveLength(MAX_EXPIRED);
    expect(kept[0]).toEqual({ orderId: 'ord_x1', points: 1 });
    expect(kept.at(-1)).toEqual({ orderId: 'ord_1', points: 10 });
    const exactly = expire(state({ lots: [a], expired: full.slice(1) }), FIXED_30, at, 100).state.expired!;
    expect(exactly).toHaveLength(MAX_EXPIRED);
    expect(exactly[0]).toEqual({ orderId: 'ord_x1', points: 1 });
  });

  it("a reversal takes up to its points from the order's expired points; an order emptied leaves the list", () => {
    const s = state({
      expired: [
        { orderId: 'ord_1', points: 10 },
        { orderId: 'ord_2', points: 4 },
      ],
    });
    expect(absorbExpired(s, 'ord_1', 6)).toEqual({ state: { ...s, expired: [{ orderId: 'ord_1', points: 4 }, s.expired![1]] }, absorbed: 6 });
    expect(absorbExpired(s, 'ord_1', 10)).toEqual({ state: { ...s, expired: [s.expired![1]] }, absorbed: 10 });
    expect(absorbExpired(s, 'ord_2', 50)).toEqual({ state: { ...s, expired: [s.expired![0]] }, absorbed: 4 });
    for (const [orderId, points] of [
      ['ord_3', 5],
      ['ord_1', 0],
      ['ord_1', -2],
    ] as const) {
      const out = absorbExpired(s, orderId, points);
      expect(out.absorbed).toBe(0);
      expect(out.state).toBe(s);
    }
    expect(absorbExpired(state({}), 'ord_1', 5)).toEqual({ state: state({}), absorbed: 0 });
  });
});

describe('lapsed: what a change finds past its date before the due work ran', () => {
  const a = lot('a', 10, T0, T0 + 5 * DAY_MS, 'ord_1');
  const b = lot('b', 4, T0, T0 + 7 * DAY_MS);
  const c = lot('c', 6, T0, T0 + 9 * DAY_MS);

  it('every lot past its date expires at once, dated at the last of their dates; nothing lapsed leaves the state as it is', () => {
    const s = state({ lots: [c, a, b], warnedThrough: 3 });
    expect(lapsed(s, FIXED_30, T0 + 8 * DAY_MS, 100)).toEqual({
      state: { ...s, lots: [c], expired: [{ orderId: 'ord_1', points: 10 }] },
      points: 14,
      at: T0 + 7 * DAY_MS,
    });
    expect(lapsed(s, FIXED_30, T0 + 5 * DAY_MS, 100)).toMatchObject({ points: 10, at: T0 + 5 * DAY_MS });
    const none = lapsed(s, FIXED_30, T0 + 5 * DAY_MS - 1, 100);
    expect(none).toEqual({ state: s, points: 0, at: null });
    expect(none.state).toBe(s);
    // A balance at or below zero loses nothing, the lots still go.
    expect(lapsed(s, FIXED_30, T0 + 8 * DAY_MS, -5)).toEqual({ state: { ...s, lots: [c] }, points: 0, at: T0 + 7 * DAY_MS });
  });

  it('an inactivity date counts only when it comes before every due activation (which is activity that moves it)', () => {
    const idle = (activatesAt?: number) =>
      state({
        lots: [lot('x', 3, T0, null), a],
        lastActivityAt: T0,
        pending: activatesAt === undefined ? [] : [{ orderId: 'ord_p', points: 7, activatesAt }],
      });
    const now = T0 + 12 * DAY_MS;
    expect(lapsed(idle(), INACTIVE_10, now, 50)).toMatchObject({ points: 13, at: T0 + 10 * DAY_MS, state: { lots: [] } });
    expect(lapsed(idle(T0 + 10 * DAY_MS + 1), INACTIVE_10, now, 50)).toMatchObject({ points: 13, state: { lots: [] } });
    // An activation due at or before the inactivity date: only the lots' own dates count.
    for (const activatesAt of [T0 + 10 * DAY_MS, T0 + 6 * DAY_MS]) {
      const s = idle(activatesAt);
      expect(lapsed(s, INACTIVE_10, now, 50)).toEqual({
        state: { ...s, lots: [s.lots[0]!], expired: [{ orderId: 'ord_1', points: 10 }] },
        points: 10,
        at: T0 + 5 * DAY_MS,
      });
    }
    // Before the inactivity date nothing has lapsed.
    expect(lapsed(idle(), INACTIVE_10, T0 + 10 * DAY_MS - 1, 50)).toMatchObject({ points: 10, at: T0 + 5 * DAY_MS });
  });
});
