import { describe, expect, it } from 'vitest';
import { lotsAfter, reversalOf, routePending, settleLapsed, type LotsInput } from '../../../../shared/members/points-lots';
import { DAY_MS } from '../../../../shared/program/calendar';
import { NO_LOTS } from '../../../../shared/members/member-lots';
import { DEFAULT_RULES, type ProgramRules } from '../../../../shared/program/schemas';
import type { LedgerEntryRecord, MemberLotsRecord, MemberRecord } from '../../../../shared/members/entities';

/** How a points change moves an order's earn into pending and back, and how its entries keep the lots. */

const T0 = Date.parse('2026-01-15T10:00:00Z');
const WAIT: ProgramRules = { ...DEFAULT_RULES, points: { expiry: { policy: 'none' }, warnDays: [], pendingDays: 14 } };
const NO_WAIT: ProgramRules = { ...DEFAULT_RULES, points: { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [], pendingDays: 0 } };

const memberWith = (lots?: MemberLotsRecord): MemberRecord =>
  ({ id: 'mbr_1', balance: 0, pending: 0, tier: 'bronze', ...(lots ? { lots } : {}) }) as MemberRecord;
const delta = (balance: number, pending = 0, lifetime = balance) => ({ balance, pending, lifetime, orderCount: 1 });
const input = (balance: number, type: LedgerEntryRecord['type'], sourceType: string, orderId: string | null, pending = 0, lifetime = balance): LotsInput => ({
  delta: delta(balance, pending, lifetime),
  entry: { type, source: { type: sourceType, orderId } },
});
const waiting = (points: number, orderId = 'ord_1', activatesAt = T0 + 14 * DAY_MS) => ({ ...NO_LOTS, pending: [{ orderId, points, activatesAt }] });

describe('routePending', () => {
  it("an order's earn waits pendingDays: balance to pending, lifetime follows at activation", () => {
    const p = input(40, 'earn', 'order', 'ord_1', 2, 45);
    expect(routePending(memberWith(), p, WAIT, T0)).toEqual({
      delta: { balance: 0, pending: 42, lifetime: 5, orderCount: 1 },
      state: waiting(40),
    });
    // A reconciliation's earn waits the same way, added to what the order already has waiting.
    expect(routePending(memberWith(waiting(10)), input(3, 'earn', 'reconciliation', 'ord_1'), WAIT, T0 + DAY_MS)).toEqual({
      delta: { balance: 0, pending: 3, lifetime: 0, orderCount: 1 },
      state: waiting(13),
    });
  });

  it('other changes pass unchanged, the lots as they were (none: the empty lots)', () => {
    const lots = waiting(10);
    const unchanged = (m: MemberRecord, p: LotsInput, r: ProgramRules) => {
      const out = routePending(m, p, r, T0);
      expect(out.delta).toBe(p.delta);
      return out.state;
    };
    expect(unchanged(memberWith(lots), input(40, 'earn', 'order', null), WAIT)).toBe(lots);
    expect(unchanged(memberWith(), input(40, 'earn', 'order', null), WAIT)).toBe(NO_LOTS);
    expect(unchanged(memberWith(lots), input(40, 'earn', 'order', 'ord_1'), NO_WAIT)).toBe(lots);
    expect(unchanged(memberWith(lots), input(40, 'campaign', 'order', 'ord_1'), WAIT)).toBe(lots);
    expect(unchanged(memberWith(lots), input(40, 'earn', 'manual', 'ord_1'), WAIT)).toBe(lots);
    expect(unchanged(memberWith(lots), input(0, 'earn', 'order', 'ord_1'), WAIT)).toBe(lots);
    expect(unchanged(memberWith(), input(0, 'earn', 'order', 'ord_1'), WAIT)).toBe(NO_LOTS);
  });

  it("a reversal during the wait takes the order's waiting points first, leaving the balance alone", () => {
    const p = input(-6, 'refund_reversal', 'refund', 'ord_1', 0, -6);
    expect(routePending(memberWith(waiting(10)), p, WAIT, T0)).toEqual({ delta: { balance: 0, pending: -6, lifetime: 0, orderCount: 1 }, state: waiting(4) });
    // Beyond what waits: the rest comes from the balance.
    const more = input(-15, 'refund_reversal', 'refund', 'ord_1', 0, -15);
    expect(routePending(memberWith(waiting(10)), more, WAIT, T0)).toEqual({
      delta: { balance: -5, pending: -10, lifetime: -5, orderCount: 1 },
      state: NO_LOTS,
    });
  });

  it("a reversal takes the order's expired points after its waiting ones: the balance keeps them, lifetime points lose them", () => {
    const lots: MemberLotsRecord = {
      ...waiting(10),
      expired: [
        { orderId: 'ord_1', points: 20 },
        { orderId: 'ord_2', points: 5 },
      ],
    };
    const p = input(-25, 'refund_reversal', 'refund', 'ord_1', 0, -25);
    expect(routePending(memberWith(lots), p, WAIT, T0)).toEqual({
      delta: { balance: 0, pending: -10, lifetime: -15, orderCount: 1 },
      state: {
        ...NO_LOTS,
        expired: [
          { orderId: 'ord_1', points: 5 },
          { orderId: 'ord_2', points: 5 },
        ],
      },
    });
    // Beyond both: the rest from the balance; without a wait, the expired points alone.
    const more = input(-40, 'refund_reversal', 'refund', 'ord_1', 0, -40);
    expect(routePending(memberWith(lots), more, WAIT, T0)).toEqual({
      delta: { balance: -10, pending: -10, lifetime: -30, orderCount: 1 },
      state: { ...NO_LOTS, expired: [{ orderId: 'ord_2', points: 5 }] },
    });
    const expiredOnly: MemberLotsRecord = { ...NO_LOTS, expired: [{ orderId: 'ord_1', points: 20 }] };
    expect(routePending(memberWith(expiredOnly), input(-8, 'adjustment', 'reconciliation', 'ord_1', 0, -8), NO_WAIT, T0)).toEqual({
      delta: { balance: 0, pending: 0, lifetime: -8, orderCount: 1 },
      state: { ...NO_LOTS, expired: [{ orderId: 'ord_1', points: 12 }] },
    });
  });

  it('reversalOf answers how a reversal is taken: waiting points, then expired points, the rest from the balance', () => {
    const lots: MemberLotsRecord = { ...waiting(10), expired: [{ orderId: 'ord_1', points: 20 }] };
    expect(reversalOf(lots, 'ord_1', 25)).toEqual({ state: { ...NO_LOTS, expired: [{ orderId: 'ord_1', points: 5 }] }, cancelled: 10, absorbed: 15 });
    expect(reversalOf(lots, 'ord_1', 6)).toEqual({ state: { ...waiting(4), expired: lots.expired }, cancelled: 6, absorbed: 0 });
    expect(reversalOf(lots, 'ord_1', 50)).toMatchObject({ cancelled: 10, absorbed: 20 });
    expect(reversalOf(lots, 'ord_2', 50)).toEqual({ state: lots, cancelled: 0, absorbed: 0 });
    expect(reversalOf(lots, 'ord_1', 0)).toEqual({ state: lots, cancelled: 0, absorbed: 0 });
  });

  it('a reversal with nothing waiting for its order passes unchanged', () => {
    const lots = waiting(10, 'ord_2');
    const p = input(-6, 'refund_reversal', 'refund', 'ord_1');
    const out = routePending(memberWith(lots), p, WAIT, T0);
    expect(out.delta).toBe(p.delta);
    expect(out.state).toBe(lots);
  });
});

describe('lotsAfter', () => {
  const entry = (id: string, amount: number, type: LedgerEntryRecord['type'], orderId: string | null = null) =>
    ({ id, amount, type, source: { type: 'manual', orderId, externalOrderId: null, apiKeyId: null } }) as LedgerEntryRecord;

  it('each credit a lot, each debit taken from the lots; missing entries skipped', () => {
    const before: MemberLotsRecord = { ...NO_LOTS, lastActivityAt: T0 - DAY_MS };
    const after = lotsAfter(before, [entry('a', 10, 'earn', 'ord_1'), null, entry('b', 5, 'adjustment'), entry('c', -12, 'deduct')], NO_WAIT, T0);
    expect(after).toEqual({
      ...NO_LOTS,
      lots: [{ id: 'b', points: 3, earnedAt: T0, expiresAt: T0 + 30 * DAY_MS, orderId: null }],
      lastActivityAt: T0,
    });
  });

  it("a campaign's reward and a reversal are not the member's activity; an earn and a spend are", () => {
    const before: MemberLotsRecord = {
      ...NO_LOTS,
      lots: [{ id: 'x', points: 10, earnedAt: T0, expiresAt: null, orderId: 'ord_1' }],
      lastActivityAt: T0 - DAY_MS,
    };
    expect(lotsAfter(before, [entry('a', 10, 'campaign')], NO_WAIT, T0).lastActivityAt).toBe(T0 - DAY_MS);
    expect(lotsAfter(before, [entry('a', 10, 'earn')], NO_WAIT, T0).lastActivityAt).toBe(T0);
    expect(lotsAfter(before, [entry('r', -4, 'refund_reversal', 'ord_1')], NO_WAIT, T0)).toEqual({
      ...before,
      lots: [{ ...before.lots[0], points: 6 }],
    });
    expect(lotsAfter(before, [entry('d', -4, 'deduct')], NO_WAIT, T0).lastActivityAt).toBe(T0);
    // A reward's redemption is the member's spend; a correction that takes points is not.
    expect(lotsAfter(before, [entry('d', -4, 'redemption')], NO_WAIT, T0)).toEqual({ ...before, lots: [{ ...before.lots[0], points: 6 }], lastActivityAt: T0 });
    expect(lotsAfter(before, [entry('d', -4, 'correction')], NO_WAIT, T0).lastActivityAt).toBe(T0 - DAY_MS);
  });

  it("a redemption's void gives its points back as a lot of their own, dated from the void", () => {
    const after = lotsAfter(NO_LOTS, [entry('v', 40, 'redemption_void')], NO_WAIT, T0);
    expect(after.lots).toEqual([{ id: 'v', points: 40, earnedAt: T0, expiresAt: T0 + 30 * DAY_MS, orderId: null }]);
  });

  it("a campaign's reward on an order is the campaign's share of it: a claim of its own, apart from the order's points", () => {
    const share = (id: string, amount: number, type: LedgerEntryRecord['type']) =>
      ({ ...entry(id, amount, type, 'ord_1'), source: { ...entry(id, amount, type, 'ord_1').source, campaignId: 'cmp_1' } }) as LedgerEntryRecord;
    const after = lotsAfter(NO_LOTS, [share('g', 7, 'campaign'), entry('e', 10, 'earn', 'ord_1'), entry('b', 3, 'campaign')], NO_WAIT, T0);
    expect(after.lots.map((l) => [l.id, l.orderId])).toEqual([
      ['g', 'ord_1/cmp_1'],
      ['e', 'ord_1'],
      ['b', null],
    ]);
    // The share's reversal takes its own lot first; the order's own reversal takes the order's.
    expect(lotsAfter(after, [share('r', -5, 'refund_reversal')], NO_WAIT, T0).lots.map((l) => l.points)).toEqual([2, 10, 3]);
    expect(lotsAfter(after, [entry('r', -5, 'refund_reversal', 'ord_1')], NO_WAIT, T0).lots.map((l) => l.points)).toEqual([7, 5, 3]);
  });

  it("a reversal takes the order's own lot first", () => {
    const own = { id: 'o', points: 5, earnedAt: T0, expiresAt: T0 + 9 * DAY_MS, orderId: 'ord_1' };
    const first = { id: 'f', points: 5, earnedAt: T0, expiresAt: T0 + DAY_MS, orderId: null };
    const before: MemberLotsRecord = { ...NO_LOTS, lots: [first, own] };
    expect(lotsAfter(before, [entry('r', -3, 'refund_reversal', 'ord_1')], NO_WAIT, T0).lots).toEqual([first, { ...own, points: 2 }]);
    expect(lotsAfter(before, [entry('r', -3, 'refund_reversal')], NO_WAIT, T0).lots).toEqual([{ ...first, points: 2 }, own]);
  });
});

describe('lotsAfter: a reversal by id', () => {
  it('takes from the lot the reversed entry opened first, whatever expires first', () => {
    const first = { id: 'ple_first', points: 5, earnedAt: T0, expiresAt: T0 + DAY_MS, orderId: null };
    const mistaken = { id: 'ple_mistaken', points: 5, earnedAt: T0, expiresAt: T0 + 9 * DAY_MS, orderId: null };
    const before: MemberLotsRecord = { ...NO_LOTS, lots: [first, mistaken] };
    const reversal = (amount: number, reversedEntryId?: string) =>
      ({
        id: 'ple_r',
        amount,
        type: 'correction',
        source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null, ...(reversedEntryId ? { reversedEntryId } : {}) },
      }) as LedgerEntryRecord;
    expect(lotsAfter(before, [reversal(-3, 'ple_mistaken')], NO_WAIT, T0).lots).toEqual([first, { ...mistaken, points: 2 }]);
    expect(lotsAfter(before, [reversal(-7, 'ple_mistaken')], NO_WAIT, T0).lots).toEqual([{ ...first, points: 3 }]);
    // A correction that names no entry takes in spending order.
    expect(lotsAfter(before, [reversal(-3)], NO_WAIT, T0).lots).toEqual([{ ...first, points: 2 }, mistaken]);
  });
});

describe('settleLapsed', () => {
  const lapsedLot = { id: 'a', points: 30, earnedAt: T0, expiresAt: T0 + 30 * DAY_MS, orderId: 'ord_1' };
  const validLot = { id: 'b', points: 5, earnedAt: T0, expiresAt: T0 + 40 * DAY_MS, orderId: null };
  const member = (balance: number, lots?: MemberLotsRecord) => ({ ...memberWith(lots), balance, rev: 4 }) as MemberRecord;

  it('a member with lots past their date: balance and lots as after their expiry, and the expiry to book first', () => {
    const m = member(35, { ...NO_LOTS, lots: [lapsedLot, validLot] });
    expect(settleLapsed(m, NO_WAIT, T0 + 31 * DAY_MS)).toEqual({
      member: { ...m, balance: 5, lots: { ...NO_LOTS, lots: [validLot], expired: [{ orderId: 'ord_1', points: 30 }] } },
      expired: { points: 30, at: T0 + 30 * DAY_MS },
    });
    // A balance in debt loses nothing more; the lots still go.
    const owing = member(-10, { ...NO_LOTS, lots: [lapsedLot] });
    expect(settleLapsed(owing, NO_WAIT, T0 + 31 * DAY_MS)).toEqual({
      member: { ...owing, lots: NO_LOTS },
      expired: { points: 0, at: T0 + 30 * DAY_MS },
    });
  });

  it('nothing past its date, or no lots at all: the member as read', () => {
    for (const m of [member(35, { ...NO_LOTS, lots: [lapsedLot, validLot] }), member(35)]) {
      const out = settleLapsed(m, NO_WAIT, T0 + 30 * DAY_MS - 1);
      expect(out.member).toBe(m);
      expect(out.expired).toBeNull();
    }
  });
});
