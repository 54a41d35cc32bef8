import { describe, expect, it } from 'vitest';
import { correctionDelta, reversalDelta } from '../../../../shared/members/corrections';
import type { LedgerEntryRecord } from '../../../../shared/members/entities';

/** What reversing an entry moves, and which entries are corrected elsewhere (refused). */

const manual: LedgerEntryRecord['source'] = { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null };
const entry = (type: LedgerEntryRecord['type'], amount: number, source: Partial<LedgerEntryRecord['source']> = {}) => ({
  id: 'ple_1',
  type,
  amount,
  source: { ...manual, ...source },
});

/** A member with lifetime points to spare: no cap applies. */
const RICH = { lifetime: 10_000 };

describe('reversalDelta', () => {
  it('undoes the balance, and lifetime by what the entry added to it (a spend added nothing)', () => {
    expect(reversalDelta(entry('earn', 700), RICH)).toEqual({ balance: -700, pending: 0, lifetime: -700, orderCount: 0 });
    expect(reversalDelta(entry('campaign', 50, { type: 'campaign', campaignId: 'cmp_1' }), RICH)).toEqual({
      balance: -50,
      pending: 0,
      lifetime: -50,
      orderCount: 0,
    });
    expect(reversalDelta(entry('deduct', -80), RICH)).toEqual({ balance: 80, pending: 0, lifetime: 0, orderCount: 0 });
    expect(reversalDelta(entry('correction', -30), RICH)).toEqual({ balance: 30, pending: 0, lifetime: 30, orderCount: 0 });
  });

  it('points kept outside the tier gave lifetime nothing, so their reversal takes none', () => {
    expect(reversalDelta({ ...entry('earn', 600), outsideTier: true }, RICH)).toEqual({ balance: -600, pending: 0, lifetime: 0, orderCount: 0 });
    expect(reversalDelta({ ...entry('earn', 600), outsideTier: undefined }, RICH).lifetime).toBe(-600);
  });

  it('never takes lifetime points below zero: a correction may have taken them back already', () => {
    expect(reversalDelta(entry('earn', 700), { lifetime: 300 })).toEqual({ balance: -700, pending: 0, lifetime: -300, orderCount: 0 });
    expect(reversalDelta(entry('earn', 700), { lifetime: 700 })).toEqual({ balance: -700, pending: 0, lifetime: -700, orderCount: 0 });
    expect(reversalDelta(entry('earn', 700), { lifetime: 0 }).lifetime).toBe(0);
    expect(reversalDelta(entry('earn', 700), { lifetime: -5 }).lifetime).toBe(0);
    // What gives lifetime back is not capped.
    expect(reversalDelta(entry('correction', -30), { lifetime: 0 }).lifetime).toBe(30);
    expect(reversalDelta(entry('deduct', -80), { lifetime: 0 }).lifetime).toBe(0);
  });

  it('refuses an order’s entries, expiries, refund reversals and reversals', () => {
    expect(() => reversalDelta(entry('earn', 40, { type: 'order', orderId: 'ord_1', externalOrderId: 'A-1' }), RICH)).toThrow(
      'Entry ple_1 belongs to order A-1: refund or reconcile the order instead',
    );
    expect(() => reversalDelta(entry('campaign', 40, { type: 'campaign', orderId: 'ord_1', campaignId: 'cmp_1' }), RICH)).toThrow('belongs to order ord_1');
    expect(() => reversalDelta(entry('expire', -10, { type: 'program' }), RICH)).toThrow('Entry ple_1 (expire) cannot be reversed');
    expect(() => reversalDelta(entry('refund_reversal', -10), RICH)).toThrow('(refund_reversal) cannot be reversed');
    expect(() => reversalDelta(entry('correction', -10, { reversedEntryId: 'ple_0' }), RICH)).toThrow('Entry ple_1 (a reversal) cannot be reversed');
    expect(() => reversalDelta(entry('redemption', -10, { type: 'reward', rewardId: 'rwd_1', redemptionId: 'rdm_1' }), RICH)).toThrow(
      'Entry ple_1 belongs to redemption rdm_1: void the redemption instead',
    );
    expect(() => reversalDelta(entry('redemption_void', 10, { type: 'reward', rewardId: 'rwd_1', redemptionId: 'rdm_1' }), RICH)).toThrow(
      'void the redemption instead',
    );
  });
});

describe('correctionDelta', () => {
  it('takes the points from balance and lifetime, up to the lifetime points', () => {
    expect(correctionDelta({ lifetime: 600 }, 600)).toEqual({ balance: -600, pending: 0, lifetime: -600, orderCount: 0 });
    expect(() => correctionDelta({ lifetime: 600 }, 601)).toThrow('Lifetime points are 600; a correction cannot take back 601');
  });
});
