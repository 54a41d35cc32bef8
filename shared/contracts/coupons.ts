import { z } from 'zod';
import {
  couponSchema,
  createPoolBody,
  issueCouponBody,
  listCouponsQuery,
  listMemberCouponsQuery,
  poolSchema,
  redeemByCodeBody,
  redeemCouponBody,
} from '../domain/coupons/schemas';
import { pageQuery } from '../domain/pagination';
import { contract, dataOf, errorBody, pageOf } from './contract';

const byId = z.object({ id: z.string() });

export const couponsContract = contract({
  'GET /api/v2/coupons': {
    query: listCouponsQuery,
    responses: { 200: pageOf(couponSchema) },
    description: 'Newest first. `status=expired` lists issued coupons whose validUntil has passed; `issued` only the ones still redeemable.',
  },
  'GET /api/v2/coupons/pools': {
    query: pageQuery,
    responses: { 200: pageOf(poolSchema) },
    description: 'Newest first, each with its issued, redeemed and remaining counts.',
  },
  'POST /api/v2/coupons/pools': {
    body: createPoolBody,
    responses: { 201: dataOf(poolSchema) },
    description:
      'A pool either generates random codes (`codeConfig.mode: generated`, `stock` required) or hands out an uploaded list ' +
      '(`mode: list`, up to 10,000 codes, stock = number of codes). Codes are unique per workspace regardless of case: ' +
      'an uploaded code already used in the workspace is 409 and nothing is created.',
  },
  'POST /api/v2/coupons/issue': {
    body: issueCouponBody,
    responses: { 201: dataOf(couponSchema) },
    description:
      'Issues one coupon to the member in one transaction: stock (never below zero; 409 POOL_EXHAUSTED), the per-member limit ' +
      '(409 COUPON_LIMIT_REACHED), the validity window and switch (409 POOL_NOT_ACTIVE) and, if the pool has a points cost, ' +
      'the deduction (409 INSUFFICIENT_POINTS: nothing is issued). Unknown pool or member: 404; unenrolled member: 409 CONFLICT.',
  },
  'POST /api/v2/coupons/{id}/redeem': {
    params: byId,
    body: redeemCouponBody,
    responses: { 200: dataOf(couponSchema), 410: errorBody },
    description:
      'Redeems the coupon at most once, even under concurrent calls: 409 COUPON_ALREADY_REDEEMED afterwards, 410 COUPON_EXPIRED ' +
      'after validUntil, 404 for an unknown id. Send `{}` when there is no order context.',
  },
  'GET /api/v2/members/{id}/coupons': {
    params: byId,
    query: listMemberCouponsQuery,
    responses: { 200: pageOf(couponSchema) },
    description: "The member's coupons, newest first.",
  },
  'POST /api/v2/members/{id}/redeem-coupon': {
    params: byId,
    body: redeemByCodeBody,
    responses: { 200: dataOf(couponSchema), 410: errorBody },
    description:
      "Redeems the member's coupon with this code (case-insensitive). A code that is unknown or belongs to another member is 404; " +
      'otherwise as `POST /coupons/{id}/redeem`.',
  },
});
