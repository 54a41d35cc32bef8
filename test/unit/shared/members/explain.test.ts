import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../shared/program/calendar';
import { ACTIVATION_REASON, explainAt, isActivation, lifetimeMove, orderMove, waitingAt } from '../../../../shared/members/explain';
import { isSpend } from '../../../../shared/members/points-lots';
import type { LedgerEntryRecord, LedgerType } from '../../../../shared/members/entities';
import type { ProgramRules } from '../../../../shared/program/schemas';
import { DEFAULT_RULES } from '../../../../shared/program/schemas';

/**
 * A balance replayed from the ledger at a moment: entries up to the moment, each through the
 * ledger's own lot keeping (spend what expires first, a refund from its order's lots first, an
 * expiry takes what was due), what waited counted from the start of its wait, and the tier with the
 * daily review's evaluations between entries. Pinned to exact values and to the boundary instants.
 */

const T0 = Date.parse('2026-01-15T10:00:00Z');
const iso = (t: number) => new Date(t).toISOString();

const rules = (over: { points?: Partial<ProgramRules['points']>; tiers?: Partial<ProgramRules['tiers']> } = {}): ProgramRules => ({
  ...DEFAULT_RULES,
  points: { ...DEFAULT_RULES.points, expiry: { policy: 'fixed_days', days: 30 }, ...over.points },
  tiers: {
    ...DEFAULT_RULES.tiers,
    levels: [
      { key: 'bronze', name: 'Bronze', threshold: 0 },
      { key: 'silver', name: 'Silver', threshold: 100 },
      { key: 'gold', name: 'Gold', threshold: 300 },
    ],
    ...over.tiers,
  },
});

let rev = 0;
function entries(...spec: [type: LedgerType, amount: number, at: number, extra?: Partial<LedgerEntryRecord>][]): LedgerEntryRecord[] {
  let balance = 0;
  return spec.map(([type, amount, at, extra]) => {
    balance += amount;
    rev++;
    return {
      id: `ple_${rev}`,
      memberId: 'mbr_1',
      rev,
      type,
      amount,
      balanceAfter: balance,
      reason: null,
      source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null },
      createdAt: iso(at),
      ...extra,
    };
  });
}

const orderSource = (orderId: string) => ({ type: 'order' as const, orderId, externalOrderId: null, apiKeyId: null });
const activation = (orderId: string): Partial<LedgerEntryRecord> => ({ reason: ACTIVATION_REASON, source: orderSource(orderId) });
const input = (list: LedgerEntryRecord[], over: Partial<Parameters<typeof explainAt>[0]> = {}) => ({
  entries: list,
  createdAt: T0,
  waitingNow: [],
  statusPending: 0,
  ...over,
});

describe('what an entry moves', () => {
  it('lifetime: every type but a spend and an expiry', () => {
    const types: LedgerType[] = ['earn', 'deduct', 'refund_reversal', 'adjustment', 'campaign', 'expire'];
    expect(types.map((type) => lifetimeMove({ type, amount: -7 }))).toEqual([-7, 0, -7, -7, -7, 0]);
  });

  it('lifetime: an entry kept outside the tier moves nothing, whatever its type', () => {
    expect(lifetimeMove({ type: 'earn', amount: 600, outsideTier: true })).toBe(0);
    expect(lifetimeMove({ type: 'correction', amount: -600, outsideTier: true })).toBe(0);
    expect(lifetimeMove({ type: 'earn', amount: 600, outsideTier: undefined })).toBe(600);
  });

  it('lifetime: a reward’s redemption and its void are spending, neither moves it', () => {
    expect(lifetimeMove({ type: 'redemption', amount: -7 })).toBe(0);
    expect(lifetimeMove({ type: 'redemption_void', amount: 7 })).toBe(0);
  });

  it('a spend is a deduction or a redemption; a void of one is not', () => {
    expect((['deduct', 'redemption'] as LedgerType[]).map(isSpend)).toEqual([true, true]);
    expect((['earn', 'redemption_void', 'correction', 'expire', 'campaign', 'adjustment', 'refund_reversal'] as LedgerType[]).map(isSpend)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('lifetime: a correction that reverses a spend gives the points back without lifetime; any other moves it', () => {
    const spends = new Set(['ple_spend']);
    const reversal = (reversedEntryId?: string) => ({ type: 'correction' as const, amount: 40, source: reversedEntryId ? { reversedEntryId } : {} });
    expect(lifetimeMove(reversal('ple_spend'), spends)).toBe(0);
    expect(lifetimeMove(reversal('ple_earn'), spends)).toBe(40);
    expect(lifetimeMove(reversal(), spends)).toBe(40);
    expect(lifetimeMove(reversal('ple_spend'))).toBe(40);
    expect(lifetimeMove({ type: 'correction', amount: -40 }, spends)).toBe(-40);
  });

  it('orders: an earn of an order only; an activation is one by its reason and source', () => {
    const manual = { type: 'earn' as const, reason: ACTIVATION_REASON, source: { type: 'manual' as const } };
    expect(orderMove({ type: 'earn', reason: null, source: orderSource('o') })).toBe(1);
    expect(orderMove({ type: 'campaign', reason: null, source: orderSource('o') })).toBe(0);
    expect(orderMove(manual as never)).toBe(0);
    expect(isActivation({ type: 'earn', reason: ACTIVATION_REASON, source: orderSource('o') })).toBe(true);
    expect(isActivation({ type: 'earn', reason: 'Order A-1', source: orderSource('o') })).toBe(false);
    expect(isActivation({ type: 'adjustment', reason: ACTIVATION_REASON, source: orderSource('o') })).toBe(false);
    expect(isActivation(manual as never)).toBe(false);
    // The due work writes this reason on the entry, and the ledger shows it to people.
    expect(ACTIVATION_REASON).toBe('Pending points of an order activated');
  });
});

describe('waitingAt', () => {
  const r = rules({ points: { pendingDays: 14 } });
  const later = entries(['earn', 120, T0 + 14 * DAY_MS, activation('ord_a')], ['earn', 5, T0 + 15 * DAY_MS]);

  it('counts an activation after the moment whose wait had begun, from its first instant to the one before activation', () => {
    const wait = (at: number) => waitingAt(later, [], r, at);
    expect(wait(T0 - 1)).toEqual([]);
    expect(wait(T0)).toEqual([{ orderId: 'ord_a', points: 120, activatesAt: T0 + 14 * DAY_MS }]);
    expect(wait(T0 + 14 * DAY_MS - 1)).toHaveLength(1);
    expect(wait(T0 + 14 * DAY_MS)).toEqual([]);
  });

  it('adds what still waits now, on the same bounds', () => {
    const now = [{ orderId: 'ord_b', points: 30, activatesAt: T0 + 20 * DAY_MS }];
    expect(waitingAt([], now, r, T0 + 6 * DAY_MS - 1)).toEqual([]);
    expect(waitingAt([], now, r, T0 + 6 * DAY_MS)).toEqual(now);
    expect(waitingAt([], now, r, T0 + 20 * DAY_MS)).toEqual([]);
  });
});

describe('explainAt', () => {
  it('replays only the entries up to the moment, inclusive', () => {
    const list = entries(['earn', 50, T0], ['earn', 20, T0 + 1000]);
    expect(explainAt(input(list), rules(), T0 - 1)).toMatchObject({ balance: 0, lifetime: 0, lots: [], replayed: 0 });
    expect(explainAt(input(list), rules(), T0)).toMatchObject({ balance: 50, lifetime: 50, replayed: 1 });
    expect(explainAt(input(list), rules(), T0 + 1000)).toMatchObject({ balance: 70, lifetime: 70, replayed: 2 });
  });

  it('spends from the lot that expires first; expiry takes the lots due by its date; lifetime keeps both', () => {
    const list = entries(['earn', 50, T0], ['earn', 80, T0 + 10 * DAY_MS], ['deduct', -30, T0 + 11 * DAY_MS], ['expire', -20, T0 + 30 * DAY_MS]);
    const before = explainAt(input(list), rules(), T0 + 29 * DAY_MS);
    expect(before).toMatchObject({ balance: 100, lifetime: 130 });
    expect(before.lots).toEqual([
      { entryId: list[0]!.id, points: 20, earnedAt: T0, expiresAt: T0 + 30 * DAY_MS, orderId: null },
      { entryId: list[1]!.id, points: 80, earnedAt: T0 + 10 * DAY_MS, expiresAt: T0 + 40 * DAY_MS, orderId: null },
    ]);
    const after = explainAt(input(list), rules(), T0 + 30 * DAY_MS);
    expect(after).toMatchObject({ balance: 80, lifetime: 130 });
    expect(after.lots.map((l) => l.points)).toEqual([80]);
  });

  it('lots due leave at their date, even when their expiry took nothing from a balance below them and wrote no entry', () => {
    const list = entries(['refund_reversal', -5, T0, { source: { ...orderSource('ord_a'), type: 'refund' } }], ['earn', 5, T0 + DAY_MS]);
    const due = T0 + 31 * DAY_MS;
    expect(explainAt(input(list), rules(), due - 1).lots.map((l) => l.points)).toEqual([5]);
    expect(explainAt(input(list), rules(), due)).toMatchObject({ balance: 0, lots: [] });
    // Before a later entry too: the spend order never sees a lot past its date.
    const later = entries(['earn', 10, T0], ['earn', 3, T0 + 40 * DAY_MS]);
    expect(explainAt(input(later), rules(), T0 + 40 * DAY_MS).lots.map((l) => l.points)).toEqual([3]);
  });

  it('a refund takes from its order’s lot first and lowers lifetime', () => {
    const list = entries(
      ['earn', 50, T0],
      ['earn', 100, T0 + DAY_MS, { source: orderSource('ord_a') }],
      ['refund_reversal', -40, T0 + 2 * DAY_MS, { source: { ...orderSource('ord_a'), type: 'refund' } }],
    );
    const x = explainAt(input(list), rules(), T0 + 2 * DAY_MS);
    expect(x).toMatchObject({ balance: 110, lifetime: 110 });
    expect(x.lots.map((l) => [l.points, l.orderId])).toEqual([
      [50, null],
      [60, 'ord_a'],
    ]);
  });

  it('reversals by id: a reversed earn leaves lifetime and its own lot first; a reversed spend gives the points back, lifetime as it was', () => {
    const list = entries(['earn', 50, T0], ['earn', 30, T0 + DAY_MS], ['deduct', -20, T0 + 2 * DAY_MS]);
    const [, mistaken, spend] = list;
    const reversed = [
      ...list,
      ...entries([
        'correction',
        -30,
        T0 + 3 * DAY_MS,
        { source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null, reversedEntryId: mistaken!.id } },
      ]),
      ...entries([
        'correction',
        20,
        T0 + 4 * DAY_MS,
        { source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null, reversedEntryId: spend!.id } },
      ]),
    ];
    reversed.forEach((e, i) => {
      e.balanceAfter = reversed.slice(0, i + 1).reduce((n, x) => n + x.amount, 0);
    });
    expect(explainAt(input(reversed), rules(), T0 + 3 * DAY_MS)).toMatchObject({ balance: 30, lifetime: 50 });
    const x = explainAt(input(reversed), rules(), T0 + 4 * DAY_MS);
    expect(x).toMatchObject({ balance: 50, lifetime: 50 });
    // The spend took the first lot's 20; the reversal took the mistaken lot; the spend given back is a lot of its own.
    expect(x.lots.map((l) => [l.entryId, l.points])).toEqual([
      [list[0]!.id, 30],
      [reversed[4]!.id, 20],
    ]);
  });

  it('an inactivity expiry dates every lot at the last activity', () => {
    const r = rules({ points: { expiry: { policy: 'inactivity_days', days: 10 } } });
    const x = explainAt(input(entries(['earn', 5, T0], ['earn', 7, T0 + DAY_MS])), r, T0 + 2 * DAY_MS);
    expect(x.lots.map((l) => l.expiresAt)).toEqual([T0 + 11 * DAY_MS, T0 + 11 * DAY_MS]);
    expect(explainAt(input(entries(['earn', 5, T0])), rules({ points: { expiry: { policy: 'none' } } }), T0).lots[0]!.expiresAt).toBeNull();
  });

  it('pending: what waited at the moment, plus pending orders only as the caller counts them', () => {
    const r = rules({ points: { pendingDays: 14 } });
    const list = entries(['earn', 120, T0 + 14 * DAY_MS, activation('ord_a')]);
    expect(explainAt(input(list, { statusPending: 9 }), r, T0 + DAY_MS)).toMatchObject({ balance: 0, pending: 129, lifetime: 0, lots: [] });
    expect(explainAt(input(list), r, T0 + 14 * DAY_MS)).toMatchObject({ balance: 120, pending: 0, lifetime: 120 });
  });

  it('the tier: reached by lifetime points; an order-count metric counts order earns', () => {
    const list = entries(['earn', 150, T0 + DAY_MS, { source: orderSource('o1') }], ['earn', 200, T0 + 2 * DAY_MS]);
    expect(explainAt(input(list), rules(), T0).tier).toEqual({ key: 'bronze', reachedAt: T0, retainedUntil: 0, value: 0, windowFrom: null });
    expect(explainAt(input(list), rules(), T0 + DAY_MS).tier).toMatchObject({ key: 'silver', reachedAt: T0 + DAY_MS, value: 150 });
    expect(explainAt(input(list), rules(), T0 + 3 * DAY_MS).tier).toMatchObject({ key: 'gold', reachedAt: T0 + 2 * DAY_MS, value: 350 });
    const orders = rules({
      tiers: {
        metric: 'order_count',
        levels: [
          { key: 'bronze', name: 'B', threshold: 0 },
          { key: 'silver', name: 'S', threshold: 1 },
        ],
      },
    });
    expect(explainAt(input(list), orders, T0 + 3 * DAY_MS).tier).toMatchObject({ key: 'silver', value: 1 });
  });

  it('the tier in a rolling window: kept through its retention, lost at the review after the window moved on', () => {
    const r = rules({ tiers: { window: 'rolling_365_days', retainDays: 30 } });
    const list = entries(['earn', 150, T0]);
    const held = explainAt(input(list), r, T0 + 300 * DAY_MS);
    expect(held.tier).toMatchObject({
      key: 'silver',
      value: 150,
      reachedAt: T0,
      retainedUntil: T0 + 30 * DAY_MS,
      windowFrom: T0 + 300 * DAY_MS - 365 * DAY_MS,
    });
    const lost = explainAt(input(list), r, T0 + 400 * DAY_MS);
    expect(lost.tier).toMatchObject({ key: 'bronze', value: 0 });
    expect(lost.tier.reachedAt).toBeGreaterThan(T0 + 365 * DAY_MS);
    expect(lost.tier.reachedAt).toBeLessThanOrEqual(T0 + 367 * DAY_MS);
  });
});
