import { describe, expect, it } from 'vitest';
import { bonusesOf, bonusMoves, bonusReversals, bonusReversedFor } from '../../../../shared/orders/bonus';

/**
 * The campaign points of an order taken back in proportion: rounded down on the running refunded
 * total, never more than granted, everything at a full refund or a cancellation, nothing twice.
 */

const order = (refundedMinor: number, status: 'completed' | 'pending' | 'cancelled' = 'completed', totalMinor = 10_000) => ({
  status,
  totalMinor,
  refundedMinor,
});

describe('bonusesOf', () => {
  it('keeps the points grants, not the coupons or empty grants', () => {
    expect(
      bonusesOf([
        { campaignId: 'cmp_a', points: 7 },
        { campaignId: 'cmp_b', points: 0, reward: { id: 'cpn_x' } },
        { campaignId: 'cmp_c', points: 0 },
        { campaignId: 'cmp_d', points: 3, reward: undefined },
      ]),
    ).toEqual([
      { campaignId: 'cmp_a', points: 7, reversed: 0 },
      { campaignId: 'cmp_d', points: 3, reversed: 0 },
    ]);
  });
});

describe('bonusReversedFor', () => {
  it('rounds the share down, takes everything at a full refund or a cancellation, nothing before a refund', () => {
    expect(bonusReversedFor(7, order(0))).toBe(0);
    expect(bonusReversedFor(7, order(3_334))).toBe(2); // 2.33
    expect(bonusReversedFor(7, order(6_667))).toBe(4); // 4.67, rounded down
    expect(bonusReversedFor(7, order(9_999))).toBe(6);
    expect(bonusReversedFor(7, order(10_000))).toBe(7);
    expect(bonusReversedFor(7, order(0, 'cancelled'))).toBe(7);
    expect(bonusReversedFor(7, order(5_000, 'pending'))).toBe(3);
    expect(bonusReversedFor(1, order(1, 'completed', 1))).toBe(1);
  });
});

describe('bonusReversals', () => {
  it('takes back what is owed since the last reversal, per campaign, and records it on the order', () => {
    const granted = bonusesOf([
      { campaignId: 'cmp_a', points: 7 },
      { campaignId: 'cmp_b', points: 100 },
    ]);
    const first = bonusReversals(granted, order(3_334));
    expect(first.reversals).toEqual([
      { campaignId: 'cmp_a', points: 2 },
      { campaignId: 'cmp_b', points: 33 },
    ]);
    expect(first.bonuses).toEqual([
      { campaignId: 'cmp_a', points: 7, reversed: 2 },
      { campaignId: 'cmp_b', points: 100, reversed: 33 },
    ]);
    const second = bonusReversals(first.bonuses, order(6_667));
    expect(second.reversals).toEqual([
      { campaignId: 'cmp_a', points: 2 },
      { campaignId: 'cmp_b', points: 33 },
    ]);
    const last = bonusReversals(second.bonuses, order(10_000));
    expect(last.reversals).toEqual([
      { campaignId: 'cmp_a', points: 3 },
      { campaignId: 'cmp_b', points: 34 },
    ]);
    expect(last.bonuses.map((b) => b.reversed)).toEqual([7, 100]);
    // Nothing is left to take: a repeat takes nothing.
    expect(bonusReversals(last.bonuses, order(10_000, 'cancelled')).reversals).toEqual([]);
  });

  it('never gives back a reversed point when the total is raised later, and never takes more than granted', () => {
    const half = bonusReversals([{ campaignId: 'cmp_a', points: 10, reversed: 0 }], order(5_000));
    expect(half.bonuses[0]!.reversed).toBe(5);
    const raised = bonusReversals(half.bonuses, order(5_000, 'completed', 20_000));
    expect(raised.reversals).toEqual([]);
    expect(raised.bonuses[0]!.reversed).toBe(5);
    const all = bonusReversals(raised.bonuses, order(20_000, 'completed', 20_000));
    expect(all.reversals).toEqual([{ campaignId: 'cmp_a', points: 5 }]);
  });

  it('a cancellation takes back all that is left; an order without campaign points takes nothing', () => {
    expect(bonusReversals([{ campaignId: 'cmp_a', points: 9, reversed: 4 }], order(0, 'cancelled')).reversals).toEqual([{ campaignId: 'cmp_a', points: 5 }]);
    expect(bonusReversals(undefined, order(10_000))).toEqual({ bonuses: [], reversals: [] });
  });
});

describe('bonusMoves', () => {
  const granted = [
    { campaignId: 'cmp_a', points: 7, reversed: 0 },
    { campaignId: 'cmp_b', points: 10, reversed: 4 },
  ];

  it('a completed order refunded: taken back from where completed points stand, pending untouched', () => {
    expect(bonusMoves(granted, order(0), order(5_000))).toEqual({
      bonuses: [
        { campaignId: 'cmp_a', points: 7, reversed: 3 },
        { campaignId: 'cmp_b', points: 10, reversed: 5 },
      ],
      reversals: [
        { campaignId: 'cmp_a', points: 3 },
        { campaignId: 'cmp_b', points: 1 },
      ],
      regrants: [],
      pending: 0,
    });
  });

  it('back to pending: everything left goes from the balance side to pending, less what the change refunds', () => {
    expect(bonusMoves(granted, order(0), order(0, 'pending'))).toEqual({
      bonuses: granted.map((b) => ({ ...b, announced: true })),
      reversals: [
        { campaignId: 'cmp_a', points: 7 },
        { campaignId: 'cmp_b', points: 6 },
      ],
      regrants: [],
      pending: 13,
    });
    expect(bonusMoves(granted, order(0), order(5_000, 'pending')).pending).toBe(9);
  });

  it('a pending order that completed once completes again: what is left given back once, out of pending', () => {
    const back = bonusMoves(granted, order(0, 'pending'), order(0));
    expect(back).toEqual({
      bonuses: granted,
      reversals: [],
      regrants: [
        { campaignId: 'cmp_a', points: 7, announced: false },
        { campaignId: 'cmp_b', points: 6, announced: false },
      ],
      pending: -13,
    });
    // Refunded while pending, then completed: only what is left is given back.
    const refunded = bonusMoves(granted, order(0, 'pending'), order(5_000, 'pending'));
    expect(refunded).toMatchObject({ reversals: [], regrants: [], pending: -4 });
    expect(bonusMoves(refunded.bonuses, order(5_000, 'pending'), order(5_000))).toMatchObject({
      reversals: [],
      regrants: [
        { campaignId: 'cmp_a', points: 4, announced: false },
        { campaignId: 'cmp_b', points: 5, announced: false },
      ],
      pending: -9,
    });
  });

  it('a share whose reward was announced keeps saying so through pending, so its return is not announced again', () => {
    // cmp_a still waits out the pending period (announced when it activates); cmp_b reached the balance.
    const back = bonusMoves(granted, order(0), order(0, 'pending'), (c) => c === 'cmp_a');
    expect(back.bonuses).toEqual([granted[0], { ...granted[1], announced: true }]);
    expect(bonusMoves(back.bonuses, order(0, 'pending'), order(0)).regrants).toEqual([
      { campaignId: 'cmp_a', points: 7, announced: false },
      { campaignId: 'cmp_b', points: 6, announced: true },
    ]);
    // Only a completed order going back to pending marks anything; a refund or cancellation does not.
    expect(bonusMoves(granted, order(0), order(5_000)).bonuses.some((b) => 'announced' in b)).toBe(false);
    expect(bonusMoves(granted, order(0), order(0, 'cancelled')).bonuses.some((b) => 'announced' in b)).toBe(false);
    expect(bonusMoves(granted, order(0, 'pending'), order(0, 'pending')).bonuses.some((b) => 'announced' in b)).toBe(false);
  });

  it('a cancellation takes everything left from where it stands; a cancelled order moves nothing more', () => {
    expect(bonusMoves(granted, order(0, 'pending'), order(0, 'cancelled'))).toMatchObject({ reversals: [], regrants: [], pending: -13 });
    const cancelled = bonusMoves(granted, order(0), order(0, 'cancelled'));
    expect(cancelled).toMatchObject({
      reversals: [
        { campaignId: 'cmp_a', points: 7 },
        { campaignId: 'cmp_b', points: 6 },
      ],
      regrants: [],
      pending: 0,
    });
    expect(bonusMoves(cancelled.bonuses, order(0, 'cancelled'), order(0, 'cancelled'))).toEqual({
      bonuses: cancelled.bonuses,
      reversals: [],
      regrants: [],
      pending: 0,
    });
  });

  it('an order without campaign points moves nothing', () => {
    expect(bonusMoves(undefined, order(0), order(0, 'pending'))).toEqual({ bonuses: [], reversals: [], regrants: [], pending: 0 });
    expect(bonusMoves([{ campaignId: 'cmp_a', points: 7, reversed: 7 }], order(10_000), order(10_000, 'pending'))).toMatchObject({
      reversals: [],
      regrants: [],
      pending: 0,
    });
  });
});
