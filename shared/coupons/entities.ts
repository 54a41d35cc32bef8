/**
 * Coupon pools, code lookups and coupons as the table stores them, declared once below the domain.
 * A discount is stored as given: the domain's discount schema (which validates what is given) is
 * checked against `DiscountRecord` at compile time (`SameShape`).
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const COUPON_STATUSES = ['issued', 'redeemed', 'expired', 'voided'] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];

export const discountRecordSchema = () =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('percent'), value: z.number() }),
    z.object({ type: z.literal('fixed'), amount: z.number(), currency: z.string() }),
    z.object({ type: z.literal('free_item'), sku: z.string().optional() }),
  ]);
export type DiscountRecord = z.infer<ReturnType<typeof discountRecordSchema>>;

export const codeConfigRecordSchema = () =>
  z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('generated'), prefix: z.string().nullable(), length: z.number() }),
    z.object({ mode: z.literal('list'), count: z.number() }),
  ]);
export type CodeConfigRecord = z.infer<ReturnType<typeof codeConfigRecordSchema>>;

/** A pool as stored. `issued`, `redeemed` and `remaining` change only in conditional transactions. */
export const poolRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    discount: discountRecordSchema(),
    codeConfig: codeConfigRecordSchema(),
    stock: z.number(),
    issued: z.number(),
    redeemed: z.number(),
    /** stock - issued, kept as its own attribute so the stock condition is `remaining >= 1`. */
    remaining: z.number(),
    validFrom: z.string().nullable(),
    validUntil: z.string().nullable(),
    perMemberLimit: z.number().nullable(),
    pointsCost: z.number().nullable(),
    active: z.boolean(),
    createdAt: z.string(),
  });
export type PoolRecord = z.infer<ReturnType<typeof poolRecordSchema>>;

export const poolEntity = /* @__PURE__ */ defineEntity({
  name: 'couponPool',
  keys: (p: PoolRecord) => ({ workspaceId: p.workspaceId, poolId: p.id }),
});

/** A code's lookup item (the upper-cased code is its key): its pool, and its coupon once issued. */
export const codeLookupRecordSchema = () =>
  z.object({
    poolId: z.string(),
    /** Absent while an uploaded code waits in its pool's list. */
    couponId: z.string().optional(),
    memberId: z.string().optional(),
  });
export type CodeLookup = z.infer<ReturnType<typeof codeLookupRecordSchema>>;

export const codeLookupEntity = /* @__PURE__ */ defineEntity({
  name: 'couponCode',
  keys: (_: CodeLookup, c: { workspaceId: string; code: string }) => c,
});

export const couponRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    poolId: z.string(),
    memberId: z.string(),
    code: z.string(),
    /** Stored states; `expired` is derived when read (issued, and `validUntil` has passed). */
    status: z.enum(['issued', 'redeemed', 'voided']),
    discount: discountRecordSchema(),
    validFrom: z.string().nullable(),
    validUntil: z.string().nullable(),
    /** validUntil, or NEVER: a string key comparable in conditions and filters. */
    expiresKey: z.string(),
    pointsCost: z.number(),
    issuedAt: z.string(),
    redeemedAt: z.string().nullable(),
    redemption: z.object({ externalOrderId: z.string().nullable() }).nullable(),
  });
export type CouponRecord = z.infer<ReturnType<typeof couponRecordSchema>>;

export const couponEntity = /* @__PURE__ */ defineEntity({
  name: 'coupon',
  keys: (c: CouponRecord) => ({ workspaceId: c.workspaceId, couponId: c.id, memberId: c.memberId, poolId: c.poolId }),
});
