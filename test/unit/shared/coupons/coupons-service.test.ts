import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/platform/errors';
import { redeemCoupon, redeemMemberCoupon } from '../../../../shared/coupons/service';
import type { CouponRecord } from '../../../../shared/coupons/entities';
import { MemoryRedemptionStore } from '../../../support/memory-stores';

/** Coupon redemption on its narrow store interface, in memory: at most once, never expired, a member's own. */

const WS = 'ws_01j9z3k4m5n6p7q8r9s0t1v2w3';
const MEMBER = 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3';
const OTHER = 'mbr_01j9z3k4m5n6p7q8r9s0t1v2zz';
const COUPON = 'cpn_01j9z3k4m5n6p7q8r9s0t1v2w3';
const POOL = 'cpl_01j9z3k4m5n6p7q8r9s0t1v2w3';
const clock = () => new Date('2026-03-01T10:00:00Z');

const setup = (c: Partial<CouponRecord> = {}) => {
  const store = new MemoryRedemptionStore();
  store.ledger.addMember({ id: MEMBER, workspaceId: WS });
  store.ledger.addMember({ id: OTHER, workspaceId: WS });
  store.coupons.set(COUPON, {
    id: COUPON,
    workspaceId: WS,
    poolId: POOL,
    memberId: MEMBER,
    code: 'SAVE-ABCD-1234',
    status: 'issued',
    discount: { type: 'percent', value: 10 },
    validFrom: null,
    validUntil: '2026-04-01T00:00:00.000Z',
    expiresKey: '2026-04-01T00:00:00.000Z',
    pointsCost: 0,
    issuedAt: '2026-02-01T00:00:00.000Z',
    redeemedAt: null,
    redemption: null,
    ...c,
  });
  store.lookups.set('SAVE-ABCD-1234', { poolId: POOL, couponId: COUPON, memberId: MEMBER });
  return store;
};

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('coupon redemption (in-memory store)', () => {
  it('redeems once: the pool counts it and coupon.redeemed is emitted; a second redeem is COUPON_ALREADY_REDEEMED and changes nothing', async () => {
    const store = setup();
    const redeemed = await redeemCoupon(WS, COUPON, { externalOrderId: 'ext-9' }, store, {}, clock);
    expect(redeemed).toMatchObject({ id: COUPON, status: 'redeemed', redeemedAt: '2026-03-01T10:00:00.000Z' });
    expect(store.coupons.get(COUPON)).toMatchObject({ status: 'redeemed', redemption: { externalOrderId: 'ext-9' } });
    expect(store.redeemedByPool.get(POOL)).toBe(1);
    expect(await code(redeemCoupon(WS, COUPON, {}, store, {}, clock))).toBe('COUPON_ALREADY_REDEEMED');
    expect(store.redeemedByPool.get(POOL)).toBe(1);
    expect(store.ledger.eventTypes()).toEqual(['coupon.redeemed']);
  });

  it('of two redeems that both read it issued, the loser is told it was already redeemed', async () => {
    const store = setup();
    // Another redeem commits between this one's read and its write.
    store.ledger.interleave = () => Object.assign(store.coupons.get(COUPON)!, { status: 'redeemed', redeemedAt: '2026-03-01T09:59:59.000Z' });
    expect(await code(redeemCoupon(WS, COUPON, {}, store, {}, clock))).toBe('COUPON_ALREADY_REDEEMED');
    expect(store.redeemedByPool.get(POOL)).toBeUndefined();
  });

  it('an expired coupon is COUPON_EXPIRED; an unknown id is NOT_FOUND', async () => {
    const store = setup({ validUntil: '2026-03-01T10:00:00.000Z', expiresKey: '2026-03-01T10:00:00.000Z' });
    expect(await code(redeemCoupon(WS, COUPON, {}, store, {}, clock))).toBe('COUPON_EXPIRED');
    expect(await code(redeemCoupon(WS, 'cpn_01j9z3k4m5n6p7q8r9s0t1v2zz', {}, store, {}, clock))).toBe('NOT_FOUND');
    expect(store.ledger.committed).toEqual([]);
  });

  it("a member redeems by code only their own coupon (another member's code is NOT_FOUND)", async () => {
    const store = setup();
    expect(await code(redeemMemberCoupon(WS, OTHER, { code: 'save-abcd-1234' }, store, {}, clock))).toBe('NOT_FOUND');
    expect(await redeemMemberCoupon(WS, MEMBER, { code: 'save-abcd-1234' }, store, {}, clock)).toMatchObject({ status: 'redeemed' });
  });
});
