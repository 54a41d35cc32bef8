/**
 * Coupon pools and coupons as the table stores them. Plain declarations below the domain, so the
 * data layer can name them without importing it. A discount is stored as given: the domain's
 * discount schema is checked against `DiscountRecord` at compile time (`SameShape`), so this stays
 * the one description of what is stored.
 */

export const COUPON_STATUSES = ['issued', 'redeemed', 'expired', 'voided'] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];

export type DiscountRecord = { type: 'percent'; value: number } | { type: 'fixed'; amount: number; currency: string } | { type: 'free_item'; sku?: string };

export type CodeConfigRecord = { mode: 'generated'; prefix: string | null; length: number } | { mode: 'list'; count: number };

/** A pool as stored. `issued`, `redeemed` and `remaining` change only in conditional transactions. */
export interface PoolRecord {
  id: string;
  workspaceId: string;
  name: string;
  discount: DiscountRecord;
  codeConfig: CodeConfigRecord;
  stock: number;
  issued: number;
  redeemed: number;
  /** stock - issued, kept as its own attribute so the stock condition is `remaining >= 1`. */
  remaining: number;
  validFrom: string | null;
  validUntil: string | null;
  perMemberLimit: number | null;
  pointsCost: number | null;
  active: boolean;
  createdAt: string;
}

export interface CouponRecord {
  id: string;
  workspaceId: string;
  poolId: string;
  memberId: string;
  code: string;
  /** Stored states; `expired` is derived when read (issued, and `validUntil` has passed). */
  status: 'issued' | 'redeemed' | 'voided';
  discount: DiscountRecord;
  validFrom: string | null;
  validUntil: string | null;
  /** validUntil, or NEVER: a string key comparable in conditions and filters. */
  expiresKey: string;
  pointsCost: number;
  issuedAt: string;
  redeemedAt: string | null;
  redemption: { externalOrderId: string | null } | null;
}
