/**
 * The door of the coupons area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { poolAvailability } from './availability';
export type { PoolAvailability } from './availability';
export { couponsArea } from './contract';
export type { CouponRecord, PoolRecord } from './entities';
export { getPool } from './repository';
export { couponSchema, discountSchema, issueCouponBody, listMemberCouponsQuery, poolSchema, redeemByCodeBody, redeemCouponBody } from './schemas';
export {
  campaignCoupon,
  couponByCode,
  couponUse,
  couponVoid,
  createPool,
  issueCoupon,
  listCoupons,
  listMemberCoupons,
  listPools,
  redeemCoupon,
  redeemMemberCoupon,
  rewardCoupon,
  tableRedemptionStore,
  voidOrderCoupons,
} from './service';
export { poolStatus, toCoupon } from './types';
