import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lotsAfter, routePending, settleLapsed, type LotsInput } from '../../../../shared/members/points-lots';
import { DAY_MS } from '../../../../shared/program/calendar';
import { stepPlan } from '../../../../shared/campaigns/due-work';
import { effectiveExpiry } from '../../../../shared/program/lots';
import { inactivityAt, NO_LOTS, nextDueAt } from '../../../../shared/members/member-lots';
import { DEFAULT_RULES, type ProgramRules } from '../../../../shared/program/schemas';
import type { LedgerEntryRecord, MemberLotsRecord, MemberRecord } from '../../../../shared/members/entities';

/**
 * Properties of the program engine's bookkeeping over random sequences of earns (by orders and by
 * hand), spends, refunds and clock moves, each move running what fell due the way the due-work run
 * does (`stepPlan` per due moment, the same lot bookkeeping as every points change):
 * the balance equals the ledger's sum; expiry never takes a balance below zero; spends take the lots
 * that expire first; pending points are never part of what can be spent.
 */

type Op =
  | { kind: 'order'; points: number }
  | { kind: 'earn'; points: number }
  | { kind: 'spend'; points: number }
  | { kind: 'refund'; order: number; points: number }
  | { kind: 'advance'; days: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('order' as const), points: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('earn' as const), points: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('spend' as const), points: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('refund' as const), order: fc.nat(20), points: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 90 }) }),
);

const rules: fc.Arbitrary<ProgramRules> = fc
  .record({
    expiry: fc.oneof(
      fc.constant({ policy: 'none' as const }),
      fc.record({
        policy: fc.constantFrom('fixed_days' as const, 'end_of_month' as const, 'inactivity_days' as const),
        days: fc.integer({ min: 1, max: 120 }),
      }),
    ),
    warnDays: fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 3 }),
    pendingDays: fc.integer({ min: 0, max: 20 }),
    timeZone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York'),
  })
  .map(({ timeZone, ...points }) => ({ ...DEFAULT_RULES, points, timeZone }));

interface Sim {
  now: number;
  balance: number;
  pending: number;
  state: MemberLotsRecord;
  ledger: number[];
  /** What each order still holds (earned minus refunded). */
  orders: number[];
  seq: number;
}

const memberOf = (s: Sim): MemberRecord => ({ id: 'mbr_1', balance: s.balance, pending: s.pending, lots: s.state, tier: 'bronze' }) as MemberRecord;

/** One points change as the ledger books it: routed through pending, its entry written, the lots kept. */
function book(s: Sim, p: LotsInput & { lots?: MemberLotsRecord; lotsBefore?: MemberLotsRecord }, r: ProgramRules, at: number): number {
  const given = p.lots ?? p.lotsBefore;
  const routed = given ? { delta: p.delta, state: given } : routePending(memberOf(s), p, r, at);
  const amount = routed.delta.balance;
  const entry = amount === 0 ? null : ({ id: `ple_${++s.seq}`, amount, type: p.entry.type, source: p.entry.source } as LedgerEntryRecord);
  s.balance += amount;
  s.pending += routed.delta.pending;
  if (entry) s.ledger.push(amount);
  s.state = p.lots ?? lotsAfter(routed.state, [entry], r, at);
  return amount;
}

const source = (type: string, orderId: string | null) => ({ type, orderId, externalOrderId: null, apiKeyId: null });
const delta = (balance: number) => ({ balance, pending: 0, lifetime: 0, orderCount: 0 });
const spendKey = (l: { expiresAt: number | null; earnedAt: number }, inactive: number | null) => [
  effectiveExpiry({ lotId: '', remaining: 0, ...l }, inactive) ?? Number.POSITIVE_INFINITY,
  l.earnedAt,
];

function spend(s: Sim, points: number, r: ProgramRules): void {
  // The service refuses a spend beyond the balance: pending points are not part of it.
  if (points > s.balance) return;
  const before = s.state.lots;
  const inactive = inactivityAt(s.state, r.points);
  book(s, { delta: delta(-points), entry: { type: 'deduct', source: source('manual', null) } }, r, s.now);
  const after = new Map(s.state.lots.map((l) => [l.id, l.points]));
  const touched = before.filter((l) => (after.get(l.id) ?? 0) < l.points);
  const whole = before.filter((l) => after.get(l.id) === l.points);
  // Oldest-expiring first: nothing left whole expires before a lot the spend took from.
  for (const t of touched) for (const w of whole) expect(spendKey(t, inactive)[0]! <= spendKey(w, inactive)[0]!).toBe(true);
}

/** The clock moves: every due moment up to the new time runs in order, like the due-work run. */
function advance(s: Sim, days: number, r: ProgramRules): void {
  const target = s.now + days * DAY_MS;
  for (let due = nextDueAt(s.state, r.points); due !== null && due <= target; due = nextDueAt(s.state, r.points)) {
    const before = s.balance;
    const plan = stepPlan(memberOf(s), r, due);
    const moved = book(s, plan, r, due);
    if (plan.entry.type === 'expire') {
      expect(moved).toBeLessThanOrEqual(0);
      expect(s.balance).toBeGreaterThanOrEqual(Math.min(0, before));
    }
  }
  s.now = target;
}

/** A change at the clock's now first expires what lapsed (the due work may be behind): nothing past its own date is left. */
function settle(s: Sim, r: ProgramRules): void {
  const { member, expired } = settleLapsed(memberOf(s), r, s.now);
  if (expired?.points) s.ledger.push(-expired.points);
  s.balance = member.balance;
  s.state = member.lots ?? s.state;
  for (const l of s.state.lots) expect(l.expiresAt === null || l.expiresAt > s.now).toBe(true);
  // An inactivity date is left to the due work only while an activation falls due before it.
  const inactive = inactivityAt(s.state, r.points);
  if (inactive !== null && inactive <= s.now && s.state.lots.length > 0) expect(s.state.pending.some((p) => p.activatesAt <= inactive)).toBe(true);
}

/** `lag`: days the due work stays behind each clock move (null: it keeps up, and no change needs to settle). */
function run(r: ProgramRules, ops: Op[], lag: number | null = null): void {
  const s: Sim = { now: Date.UTC(2027, 0, 15, 12), balance: 0, pending: 0, state: NO_LOTS, ledger: [], orders: [], seq: 0 };
  for (const o of ops) {
    if (lag !== null && o.kind !== 'advance') settle(s, r);
    if (o.kind === 'advance' && lag !== null) {
      advance(s, o.days - Math.min(lag, o.days), r);
      s.now += Math.min(lag, o.days) * DAY_MS;
    } else if (o.kind === 'order') {
      s.orders.push(o.points);
      book(s, { delta: { ...delta(o.points), lifetime: o.points }, entry: { type: 'earn', source: source('order', `ord_${s.orders.length - 1}`) } }, r, s.now);
    } else if (o.kind === 'earn') book(s, { delta: delta(o.points), entry: { type: 'earn', source: source('manual', null) } }, r, s.now);
    else if (o.kind === 'spend') spend(s, o.points, r);
    else if (o.kind === 'refund' && s.orders.length > 0) {
      const i = o.order % s.orders.length;
      const points = Math.min(o.points, s.orders[i]!);
      s.orders[i]! -= points;
      if (points > 0) book(s, { delta: delta(-points), entry: { type: 'refund_reversal', source: source('refund', `ord_${i}`) } }, r, s.now);
    } else if (o.kind === 'advance') advance(s, o.days, r);
    // The balance is the ledger's sum; pending is exactly what waits, apart from the lots.
    expect(s.balance).toBe(s.ledger.reduce((a, b) => a + b, 0));
    expect(s.pending).toBe(s.state.pending.reduce((a, p) => a + p.points, 0));
    // Waiting points are not in any lot: nothing spends them before they activate.
    const waiting = new Set(s.state.pending.map((p) => p.orderId));
    for (const l of s.state.lots) expect(l.orderId !== null && waiting.has(l.orderId)).toBe(false);
    for (const l of s.state.lots) expect(l.points).toBeGreaterThan(0);
  }
}

describe('program engine properties (random earn, spend, refund, advance, expire)', () => {
  it('the balance equals the ledger sum, expiry never goes below zero, lots go oldest-expiring first, pending is never spendable', () => {
    fc.assert(
      fc.property(rules, fc.array(op, { maxLength: 40 }), (r, ops) => run(r, ops)),
      { numRuns: 300 },
    );
  });

  it('with the due work behind the clock, every change first expires what lapsed: spends and refunds see only valid lots', () => {
    fc.assert(
      fc.property(rules, fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 60 }), (r, ops, lag) => run(r, ops, lag)),
      { numRuns: 300 },
    );
  });

  it('a long enough wait leaves nothing due and, under an expiry policy, nothing of what was earned', () => {
    fc.assert(
      fc.property(
        rules.filter((r) => r.points.expiry.policy !== 'none'),
        fc.array(op, { maxLength: 20 }),
        (r, ops) => {
          const s: Sim = { now: Date.UTC(2027, 0, 15, 12), balance: 0, pending: 0, state: NO_LOTS, ledger: [], orders: [], seq: 0 };
          for (const o of ops)
            if (o.kind === 'earn' || o.kind === 'order')
              book(
                s,
                {
                  delta: delta(o.points),
                  entry: { type: 'earn', source: source(o.kind === 'order' ? 'order' : 'manual', o.kind === 'order' ? `ord_${s.seq}` : null) },
                },
                r,
                s.now,
              );
          advance(s, 400, r);
          expect(s.state.lots).toEqual([]);
          expect(s.state.pending).toEqual([]);
          expect(nextDueAt(s.state, r.points)).toBeNull();
          expect(s.balance).toBe(0);
          expect(s.balance).toBe(s.ledger.reduce((a, b) => a + b, 0));
        },
      ),
      { numRuns: 200 },
    );
  });
});
