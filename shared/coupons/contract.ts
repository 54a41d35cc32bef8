import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import {
  couponSchema,
  createPoolBody,
  issueCouponBody,
  listCouponsQuery,
  listMemberCouponsQuery,
  poolSchema,
  redeemByCodeBody,
  redeemCouponBody,
} from './schemas';
import { pageQuery } from '../platform/validation/pagination';
import { dataOf, errorBody, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });

export const couponsArea = declareArea({
  area: 'coupons',
  description: 'Coupon pools and the coupons issued from them to members; a coupon is redeemed at most once.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listCoupons: {
      method: 'GET',
      path: '/api/v2/coupons',
      auth: ['apiKey'],
      scope: 'coupons:read',
      summary: 'List coupons',
      query: listCouponsQuery,
      responses: { 200: pageOf(couponSchema) },
      description: 'Newest first. `status=expired` lists issued coupons whose validUntil has passed; `issued` only the ones still redeemable.',
    },
    listCouponPools: {
      method: 'GET',
      path: '/api/v2/coupons/pools',
      auth: ['apiKey'],
      scope: 'coupons:read',
      summary: 'List coupon pools',
      query: pageQuery,
      responses: { 200: pageOf(poolSchema) },
      description: 'Newest first, each with its issued, redeemed and remaining counts.',
    },
    createCouponPool: {
      method: 'POST',
      path: '/api/v2/coupons/pools',
      auth: ['apiKey'],
      scope: 'coupons:write',
      summary: 'Create a coupon pool',
      idempotent: true,
      body: createPoolBody,
      responses: { 201: dataOf(poolSchema) },
      description:
        'A pool either generates random codes (`codeConfig.mode: generated`, `stock` required) or hands out an uploaded list ' +
        '(`mode: list`, up to 10,000 codes, stock = number of codes). Codes are unique per workspace regardless of case: ' +
        'an uploaded code already used in the workspace is 409 and nothing is created.',
    },
    issueCoupon: {
      method: 'POST',
      path: '/api/v2/coupons/issue',
      auth: ['apiKey'],
      scope: 'coupons:write',
      summary: 'Issue a coupon from a pool to a member',
      idempotent: true,
      body: issueCouponBody,
      responses: { 201: dataOf(couponSchema), 410: errorBody },
      description:
        'Issues one coupon to the member in one transaction: stock (never below zero; 409 POOL_EXHAUSTED), the per-member limit ' +
        '(409 COUPON_LIMIT_REACHED), the validity window and switch (409 POOL_NOT_ACTIVE) and, if the pool has a points cost, ' +
        'the deduction (409 INSUFFICIENT_POINTS: nothing is issued). Unknown pool or member: 404; unenrolled member: 409 CONFLICT.',
    },
    redeemCoupon: {
      method: 'POST',
      path: '/api/v2/coupons/{id}/redeem',
      auth: ['apiKey'],
      scope: 'coupons:write',
      summary: 'Redeem a coupon (at most once)',
      idempotent: true,
      params: byId,
      body: redeemCouponBody,
      responses: { 200: dataOf(couponSchema), 410: errorBody },
      description:
        'Redeems the coupon at most once, even under concurrent calls: 409 COUPON_ALREADY_REDEEMED afterwards, 410 COUPON_EXPIRED ' +
        'after validUntil, 409 CONFLICT once voided (a campaign granted it on an order then fully refunded or cancelled), 404 for an unknown id. ' +
        'Send `{}` when there is no order context.',
    },
    listMemberCoupons: {
      method: 'GET',
      path: '/api/v2/members/{id}/coupons',
      auth: ['apiKey'],
      scope: 'coupons:read',
      summary: "A member's coupons",
      params: byId,
      query: listMemberCouponsQuery,
      responses: { 200: pageOf(couponSchema) },
      description: "The member's coupons, newest first.",
    },
    listMemberCouponsInConsole: {
      method: 'GET',
      path: '/api/flash/members/{id}/coupons',
      auth: ['adminSession'],
      permission: 'members:read',
      summary: "A member's coupons (console)",
      params: byId,
      query: listMemberCouponsQuery,
      responses: { 200: pageOf(couponSchema) },
      description: 'The list of `GET /api/v2/members/{id}/coupons` for the console, newest first.',
    },
    redeemMemberCoupon: {
      method: 'POST',
      path: '/api/v2/members/{id}/redeem-coupon',
      auth: ['apiKey'],
      scope: 'coupons:write',
      summary: "Redeem one of the member's coupons by code",
      idempotent: true,
      params: byId,
      body: redeemByCodeBody,
      responses: { 200: dataOf(couponSchema), 410: errorBody },
      description:
        "Redeems the member's coupon with this code (case-insensitive). A code that is unknown or belongs to another member is 404; " +
        'otherwise as `POST /coupons/{id}/redeem`.',
    },
  },
});
