import { describe, expect, it } from 'vitest';
import { codeValidUntil, limitReached, refusalOf, remainingAfter } from '../../../../shared/rewards/eligibility';

/** Whether a member may redeem a reward now, and the numbers a redemption and an edit work out: pure. */

const open = {
  status: 'active' as const,
  availableFrom: null,
  availableUntil: null,
  allowedTiers: null,
  remaining: null,
  perMemberLimit: null,
};
const ctx = { at: '2026-03-10T12:00:00.000Z', tier: 'silver', held: 0 };

describe('refusalOf', () => {
  it('lets an active reward without limits go ahead', () => {
    expect(refusalOf(open, ctx)).toBeNull();
    expect(refusalOf({ ...open, remaining: 1, perMemberLimit: 1, allowedTiers: ['silver'] }, ctx)).toBeNull();
  });

  it.each(['draft', 'paused', 'archived'] as const)('refuses a %s reward as not available', (status) => {
    expect(refusalOf({ ...open, status }, ctx)).toEqual({ code: 'REWARD_NOT_AVAILABLE', message: `The reward is ${status}, not active` });
  });

  it('is available from availableFrom on (inclusive) and until availableUntil (exclusive)', () => {
    const from = { ...open, availableFrom: '2026-03-10T12:00:00.000Z' };
    expect(refusalOf(from, ctx)).toBeNull();
    expect(refusalOf(from, { ...ctx, at: '2026-03-10T11:59:59.999Z' })).toEqual({
      code: 'REWARD_NOT_AVAILABLE',
      message: 'The reward is available from 2026-03-10T12:00:00.000Z',
    });
    const until = { ...open, availableUntil: '2026-03-10T12:00:00.001Z' };
    expect(refusalOf(until, ctx)).toBeNull();
    expect(refusalOf(until, { ...ctx, at: '2026-03-10T12:00:00.001Z' })).toEqual({
      code: 'REWARD_NOT_AVAILABLE',
      message: 'The reward was available until 2026-03-10T12:00:00.001Z',
    });
  });

  it('allows only the tiers listed', () => {
    expect(refusalOf({ ...open, allowedTiers: ['gold', 'platinum'] }, ctx)).toEqual({
      code: 'REWARD_TIER_NOT_ALLOWED',
      message: "The member's tier silver may not redeem it (tiers: gold, platinum)",
    });
    expect(refusalOf({ ...open, allowedTiers: ['gold', 'silver'] }, ctx)).toBeNull();
  });

  it('needs one unit of counted stock', () => {
    expect(refusalOf({ ...open, remaining: 0 }, ctx)).toEqual({ code: 'REWARD_OUT_OF_STOCK', message: 'The reward has no stock left' });
    expect(refusalOf({ ...open, remaining: -1 }, ctx)?.code).toBe('REWARD_OUT_OF_STOCK');
    expect(refusalOf({ ...open, remaining: 1 }, ctx)).toBeNull();
  });

  it('refuses the redemption beyond the per-member limit', () => {
    expect(refusalOf({ ...open, perMemberLimit: 2 }, { ...ctx, held: 1 })).toBeNull();
    expect(refusalOf({ ...open, perMemberLimit: 2 }, { ...ctx, held: 2 })).toEqual(limitReached(2));
    expect(refusalOf({ ...open, perMemberLimit: 2 }, { ...ctx, held: 3 })?.code).toBe('REWARD_LIMIT_REACHED');
    expect(refusalOf(open, { ...ctx, held: 1000 })).toBeNull();
  });

  it('says the first rule broken: status, window, tier, stock, then limit', () => {
    const all = {
      status: 'paused' as const,
      availableFrom: '2099-01-01T00:00:00.000Z',
      availableUntil: null,
      allowedTiers: ['gold'],
      remaining: 0,
      perMemberLimit: 1,
    };
    const busy = { ...ctx, held: 1 };
    expect(refusalOf(all, busy)?.code).toBe('REWARD_NOT_AVAILABLE');
    expect(refusalOf({ ...all, status: 'active' }, busy)?.message).toContain('available from');
    expect(refusalOf({ ...all, status: 'active', availableFrom: null }, busy)?.code).toBe('REWARD_TIER_NOT_ALLOWED');
    expect(refusalOf({ ...all, status: 'active', availableFrom: null, allowedTiers: null }, busy)?.code).toBe('REWARD_OUT_OF_STOCK');
    expect(refusalOf({ ...all, status: 'active', availableFrom: null, allowedTiers: null, remaining: 5 }, busy)?.code).toBe('REWARD_LIMIT_REACHED');
  });
});

describe('limitReached', () => {
  it('names the limit, singular and plural', () => {
    expect(limitReached(1)).toEqual({ code: 'REWARD_LIMIT_REACHED', message: 'The member already holds 1 redemption of this reward, its per-member limit' });
    expect(limitReached(3).message).toBe('The member already holds 3 redemptions of this reward, its per-member limit');
  });
});

describe('codeValidUntil', () => {
  const at = '2026-03-10T12:00:00.000Z';
  it('runs validityDays from the redemption, never past the pool’s own end', () => {
    expect(codeValidUntil(at, 30, null)).toBe('2026-04-09T12:00:00.000Z');
    expect(codeValidUntil(at, 1, '2026-03-20T00:00:00.000Z')).toBe('2026-03-11T12:00:00.000Z');
    expect(codeValidUntil(at, 30, '2026-03-20T00:00:00.000Z')).toBe('2026-03-20T00:00:00.000Z');
    // On the very moment both end, either is the same end.
    expect(codeValidUntil(at, 1, '2026-03-11T12:00:00.000Z')).toBe('2026-03-11T12:00:00.000Z');
  });
  it('without validityDays, the pool decides', () => {
    expect(codeValidUntil(at, null, null)).toBeNull();
    expect(codeValidUntil(at, null, '2026-03-20T00:00:00.000Z')).toBe('2026-03-20T00:00:00.000Z');
  });
});

describe('remainingAfter', () => {
  it('moves what remains by what the stock moves, the live redemptions kept', () => {
    expect(remainingAfter({ before: 10, after: 15 }, 4)).toBe(9);
    expect(remainingAfter({ before: 10, after: 6 }, 4)).toBe(0);
    expect(remainingAfter({ before: 10, after: 10 }, 4)).toBe(4);
  });
  it('refuses a stock below the live redemptions', () => {
    expect(remainingAfter({ before: 10, after: 5 }, 4)).toBe('below_zero');
  });
  it('starts counting at the new stock, and stops with unlimited stock', () => {
    expect(remainingAfter({ before: null, after: 7 }, null)).toBe(7);
    expect(remainingAfter({ before: 10, after: null }, 4)).toBeNull();
    expect(remainingAfter({ before: null, after: null }, null)).toBeNull();
    expect(remainingAfter({ before: null, after: 0 }, null)).toBe(0);
    // Either side unknown: no live redemptions counted against the new stock.
    expect(remainingAfter({ before: null, after: 5 }, 3)).toBe(5);
    expect(remainingAfter({ before: 10, after: 5 }, null)).toBe(5);
  });
});
