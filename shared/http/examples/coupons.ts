import type { couponsArea } from '../../coupons';
import type { AreaExamples } from './types';
import { coupon, couponPool, ids, redeemedCoupon } from './world';

export const couponsExamples: AreaExamples<typeof couponsArea> = {
  listCoupons: {
    summary: "A member's unused coupons of one pool",
    query: { poolId: ids.pool, memberId: ids.member, status: 'issued', limit: 50 },
    responses: { 200: { data: [coupon], nextCursor: null } },
  },
  listCouponPools: { query: { limit: 50 }, responses: { 200: { data: [couponPool], nextCursor: null } } },
  createCouponPool: {
    summary: '1000 generated codes for 15% off, one per member, for 100 points each, valid until withdrawn',
    request: {
      name: couponPool.name,
      discount: { type: 'percent', value: 15 },
      codeConfig: { mode: 'generated', prefix: 'LOYAL-' },
      stock: 1000,
      validFrom: '2026-03-01T00:00:00Z',
      perMemberLimit: 1,
      pointsCost: 100,
    },
    responses: { 201: { data: { ...couponPool, issued: 0, remaining: 1000 } } },
  },
  issueCoupon: { request: { poolId: ids.pool, memberId: ids.member }, responses: { 201: { data: coupon } } },
  redeemCoupon: {
    summary: 'Redeem at checkout, naming the order',
    params: { id: ids.coupon },
    request: { externalOrderId: 'WEB-100391' },
    responses: { 200: { data: redeemedCoupon } },
  },
  listMemberCoupons: { params: { id: ids.member }, query: { status: 'issued', limit: 50 }, responses: { 200: { data: [coupon], nextCursor: null } } },
  listMemberCouponsInConsole: { params: { id: ids.member }, query: { limit: 20 }, responses: { 200: { data: [coupon], nextCursor: null } } },
  redeemMemberCoupon: {
    summary: 'Redeem the code the member typed in',
    params: { id: ids.member },
    request: { code: coupon.code, externalOrderId: 'WEB-100391' },
    responses: { 200: { data: redeemedCoupon } },
  },
};
