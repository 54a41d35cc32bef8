import { describe, expect, it } from 'vitest';
import { moveBonuses, type PlannedReversal } from '../../../../shared/members/bonus-lots';
import { bonusClaim, claimOf, parseClaim } from '../../../../shared/members/claims';
import { NO_LOTS } from '../../../../shared/members/member-lots';
import { DEFAULT_RULES, type ProgramRules } from '../../../../shared/program/schemas';
import { DAY_MS } from '../../../../shared/program/calendar';
import type { MemberLotsRecord } from '../../../../shared/members/entities';

/** A campaign's share of an order in the member's lots: it waits with the order and goes back with it. */

const T0 = Date.parse('2026-03-01T00:00:00Z');
const rules = (pendingDays: number): ProgramRules => ({ ...DEFAULT_RULES, points: { ...DEFAULT_RULES.points, pendingDays } });
const onOrder = (points: number, campaignId = 'cmp_a') => ({
  points,
  source: { type: 'campaign' as const, orderId: 'ord_1', externalOrderId: 'A-1', apiKeyId: null, campaignId },
});
const reversal = (points: number, campaignId = 'cmp_a'): PlannedReversal => ({
  points,
  type: 'refund_reversal',
  reason: 'Refund',
  source: { type: 'refund', orderId: 'ord_1', externalOrderId: 'A-1', apiKeyId: null, campaignId },
});

describe('claims', () => {
  it('names an order’s own points by its id and a campaign’s share by both', () => {
    expect(bonusClaim('ord_1', 'cmp_a')).toBe('ord_1/cmp_a');
    expect(claimOf({ orderId: 'ord_1', campaignId: 'cmp_a' })).toBe('ord_1/cmp_a');
    expect(claimOf({ orderId: 'ord_1' })).toBe('ord_1');
    expect(claimOf({ orderId: null, campaignId: 'cmp_a' })).toBeNull();
    expect(parseClaim('ord_1/cmp_a')).toEqual({ orderId: 'ord_1', campaignId: 'cmp_a' });
    expect(parseClaim('ord_1')).toEqual({ orderId: 'ord_1', campaignId: null });
  });
});

describe('moveBonuses', () => {
  it('lands grants at once without a pending period; a grant on no order or a coupon never waits', () => {
    const birthday = { points: 5, source: { orderId: null, campaignId: 'cmp_b' } };
    const coupon = { ...onOrder(0), reward: { id: 'cpn_1' } };
    const moved = moveBonuses(NO_LOTS, [onOrder(10), birthday, coupon], [], rules(0), T0);
    expect(moved.now).toHaveLength(3);
    expect(moved.waiting).toEqual([]);
    expect(moved.delta).toEqual({ balance: 0, pending: 0, lifetime: 0 });
    expect(moved.state).toBe(NO_LOTS);
    const pending = moveBonuses(NO_LOTS, [birthday, coupon], [], rules(14), T0);
    expect(pending.waiting).toEqual([]);
  });

  it('makes a grant on an order wait as long as the order’s points, under its own claim', () => {
    const moved = moveBonuses(NO_LOTS, [onOrder(10), onOrder(4, 'cmp_b')], [], rules(14), T0);
    expect(moved.now).toEqual([]);
    expect(moved.waiting).toHaveLength(2);
    expect(moved.delta).toEqual({ balance: 0, pending: 14, lifetime: 0 });
    expect(moved.state.pending).toEqual([
      { orderId: 'ord_1/cmp_a', points: 10, activatesAt: T0 + 14 * DAY_MS },
      { orderId: 'ord_1/cmp_b', points: 4, activatesAt: T0 + 14 * DAY_MS },
    ]);
  });

  it('takes a reversal from the waiting points first, then the expired ones, then the balance', () => {
    const state: MemberLotsRecord = {
      ...NO_LOTS,
      pending: [{ orderId: 'ord_1/cmp_a', points: 3, activatesAt: T0 }],
      expired: [
        { orderId: 'ord_1/cmp_a', points: 2 },
        { orderId: 'ord_1', points: 50 },
      ],
    };
    const moved = moveBonuses(state, [], [reversal(10)], rules(14), T0);
    // 3 waiting (never in lifetime), 2 expired (lifetime only), 5 from the balance (an entry).
    expect(moved.delta).toEqual({ balance: -5, pending: -3, lifetime: -7 });
    expect(moved.entries).toEqual([{ type: 'refund_reversal', amount: -5, reason: 'Refund', source: reversal(10).source }]);
    expect(moved.state.pending).toEqual([]);
    // The order's own expired points are another claim: untouched.
    expect(moved.state.expired).toEqual([{ orderId: 'ord_1', points: 50 }]);
  });

  it('writes no entry for a reversal that waiting points cover whole', () => {
    const state: MemberLotsRecord = { ...NO_LOTS, pending: [{ orderId: 'ord_1/cmp_a', points: 8, activatesAt: T0 }] };
    const moved = moveBonuses(state, [], [reversal(5)], rules(14), T0);
    expect(moved.entries).toEqual([]);
    expect(moved.delta).toEqual({ balance: 0, pending: -5, lifetime: 0 });
    expect(moved.state.pending).toEqual([{ orderId: 'ord_1/cmp_a', points: 3, activatesAt: T0 }]);
  });
});
