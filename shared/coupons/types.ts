import type { CouponRecord, PoolRecord } from './entities';
import type { Coupon, CouponPool, PoolStatus } from './schemas';

/** Sorts after every ISO timestamp: the expiry key of a coupon that never expires. */
export const NEVER = '9999-12-31T23:59:59.999Z';

export function poolStatus(p: PoolRecord, now: Date): PoolStatus {
  const at = now.toISOString();
  if (!p.active) return 'inactive';
  if (p.validFrom && at < p.validFrom) return 'scheduled';
  if (p.validUntil && at >= p.validUntil) return 'expired';
  if (p.remaining <= 0) return 'exhausted';
  return 'active';
}

export function toPool(p: PoolRecord, now = new Date()): CouponPool {
  return {
    id: p.id,
    name: p.name,
    discount: p.discount,
    codeConfig: p.codeConfig,
    stock: p.stock,
    issued: p.issued,
    redeemed: p.redeemed,
    remaining: p.remaining,
    validFrom: p.validFrom,
    validUntil: p.validUntil,
    perMemberLimit: p.perMemberLimit,
    pointsCost: p.pointsCost,
    active: p.active,
    status: poolStatus(p, now),
    createdAt: p.createdAt,
  };
}

export const isExpired = (c: Pick<CouponRecord, 'status' | 'expiresKey'>, now: Date): boolean => c.status === 'issued' && c.expiresKey <= now.toISOString();

export function toCoupon(c: CouponRecord, now = new Date()): Coupon {
  return {
    id: c.id,
    code: c.code,
    poolId: c.poolId,
    memberId: c.memberId,
    status: isExpired(c, now) ? 'expired' : c.status,
    discount: c.discount,
    validFrom: c.validFrom,
    validUntil: c.validUntil,
    pointsCost: c.pointsCost,
    issuedAt: c.issuedAt,
    redeemedAt: c.redeemedAt,
    redemption: c.redemption,
  };
}
