import * as z from 'zod';
import { COUPON_STATUSES, type DiscountRecord } from './entities';
import type { SameShape } from '../platform/data/same-shape';
import { idSchema, isoDateTime, isStorableNumber, STORABLE_NUMBER_MESSAGE } from '../platform/validation/common';
import { amountSchema, currencySchema, toMinor } from '../platform/money';
import { filterValue, pageQueryShape } from '../platform/validation/pagination';

/** Uploaded codes per list pool at most (one request body stays well under 1 MiB). */
export const MAX_LIST_CODES = 10_000;
/** Coupons one generated pool can issue at most. */
export const MAX_STOCK = 1_000_000;

/**
 * A coupon code as a merchant uploads it: letters, digits, `-` and `_`, 3-64 characters. Codes are
 * unique per workspace regardless of case (`SUMMER-1` and `summer-1` are one code).
 */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/;
export const codeSchema = z.string().regex(CODE_PATTERN, { message: 'letters, digits, - and _ (3-64 characters)' });

/** What a coupon is worth. One schema for requests and answers (stored as given). */
export const discountSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('percent'),
      value: z.number().gt(0).max(100).refine(isStorableNumber, { message: STORABLE_NUMBER_MESSAGE }).describe('Percent off, e.g. 15 or 12.5'),
    }),
    z.strictObject({
      type: z.literal('fixed'),
      amount: amountSchema.positive().describe('Amount off in major units of `currency`, e.g. 5.00'),
      currency: currencySchema,
    }),
    z.strictObject({
      type: z.literal('free_item'),
      sku: z.string().trim().min(1).max(100).optional().describe('The item given away; omitted: any eligible item'),
    }),
  ])
  .meta({ id: 'CouponDiscount', description: 'What a coupon takes off: a percentage, a fixed amount in a currency, or a free item' });
export type Discount = z.infer<typeof discountSchema>;
// A discount is stored as given.
true satisfies SameShape<Discount, DiscountRecord>;

const codeConfigInput = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('generated'),
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/, { message: 'letters, digits, - and _ (1-20 characters)' })
      .optional()
      .describe('Put before the random part, as given (e.g. `SUMMER-`)'),
    length: z.number().int().min(6).max(32).default(8).describe('Characters of the random part (upper-case Crockford base32), 6-32, default 8'),
  }),
  z.strictObject({
    mode: z.literal('list'),
    codes: z
      .array(codeSchema)
      .min(1)
      .max(MAX_LIST_CODES)
      .describe(`Your own codes, unique within the list and the workspace regardless of case; handed out in this order; at most ${MAX_LIST_CODES}`),
  }),
]);

export const createPoolBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).describe('Shown to staff and in reports, e.g. Spring 15% off'),
    discount: discountSchema,
    codeConfig: codeConfigInput.describe('Generate random codes, or hand out an uploaded list'),
    stock: z
      .number()
      .int()
      .min(1)
      .max(MAX_STOCK)
      .optional()
      .describe('Coupons the pool can issue. Required for generated codes; for a list it is the number of codes (may be omitted)'),
    validFrom: isoDateTime.optional().describe('Issuing and redeeming start here; omitted: now'),
    validUntil: isoDateTime.optional().describe('Issuing stops and coupons expire here; omitted: never'),
    perMemberLimit: z.number().int().min(1).max(10_000).optional().describe('Coupons one member may receive from this pool; omitted: no limit'),
    pointsCost: z
      .number()
      .int()
      .min(1)
      .max(1e9)
      .optional()
      .describe('Points deducted from the member when a coupon is issued (same transaction); omitted: free'),
    active: z.boolean().default(true).describe('An inactive pool issues nothing'),
  })
  .superRefine((b, ctx) => {
    if (b.codeConfig.mode === 'generated' && b.stock === undefined) {
      ctx.addIssue({ code: 'custom', path: ['stock'], message: 'is required for generated codes' });
    }
    if (b.codeConfig.mode === 'list') {
      if (b.stock !== undefined && b.stock !== b.codeConfig.codes.length) {
        ctx.addIssue({ code: 'custom', path: ['stock'], message: `must equal the number of codes (${b.codeConfig.codes.length}) or be omitted` });
      }
      const seen = new Map<string, number>();
      b.codeConfig.codes.forEach((code, i) => {
        const key = code.toUpperCase();
        if (seen.has(key))
          ctx.addIssue({ code: 'custom', path: ['codeConfig', 'codes', i], message: `repeats code ${seen.get(key)} (codes are unique regardless of case)` });
        else seen.set(key, i);
      });
    }
    if (b.validFrom && b.validUntil && Date.parse(b.validFrom) >= Date.parse(b.validUntil)) {
      ctx.addIssue({ code: 'custom', path: ['validUntil'], message: 'must be after validFrom' });
    }
    if (b.discount.type === 'fixed' && toMinor(b.discount.amount, b.discount.currency) === undefined) {
      ctx.addIssue({ code: 'custom', path: ['discount', 'amount'], message: `has more decimals than ${b.discount.currency} allows` });
    }
  });
export type CreatePoolInput = z.infer<typeof createPoolBody>;

export const POOL_STATUSES = ['active', 'inactive', 'scheduled', 'expired', 'exhausted'] as const;
export type PoolStatus = (typeof POOL_STATUSES)[number];

export const poolSchema = z
  .object({
    id: z.string().describe('cpl_...'),
    name: z.string(),
    discount: discountSchema,
    codeConfig: z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('generated'), prefix: z.string().nullable(), length: z.number().int() }),
      z.object({ mode: z.literal('list'), count: z.number().int().describe('Number of uploaded codes (the codes themselves are never listed)') }),
    ]),
    stock: z.number().int().describe('Coupons the pool can issue in all'),
    issued: z.number().int(),
    redeemed: z.number().int(),
    remaining: z.number().int().describe('stock - issued; never below zero'),
    validFrom: isoDateTime.nullable(),
    validUntil: isoDateTime.nullable(),
    perMemberLimit: z.number().int().nullable(),
    pointsCost: z.number().int().nullable(),
    active: z.boolean(),
    status: z
      .enum(POOL_STATUSES)
      .describe('active: issues now; inactive: switched off; scheduled: before validFrom; expired: after validUntil; exhausted: no stock left'),
    createdAt: isoDateTime,
  })
  .meta({ id: 'CouponPool' });
export type CouponPool = z.infer<typeof poolSchema>;

export const couponSchema = z
  .object({
    id: z.string().describe('cpn_...'),
    code: z.string().describe('What the member types or shows at the till'),
    poolId: z.string(),
    memberId: z.string(),
    status: z
      .enum(COUPON_STATUSES)
      .describe(
        'expired: issued, not redeemed, and validUntil has passed; voided: a campaign granted it on an order that was then fully refunded or cancelled',
      ),
    discount: discountSchema,
    validFrom: isoDateTime.nullable(),
    validUntil: isoDateTime.nullable(),
    pointsCost: z.number().int().describe('Points the member paid for it (0: free)'),
    issuedAt: isoDateTime,
    redeemedAt: isoDateTime.nullable(),
    redemption: z.object({ externalOrderId: z.string().nullable() }).nullable().describe('Context given when it was redeemed'),
  })
  .meta({ id: 'Coupon' });
export type Coupon = z.infer<typeof couponSchema>;

export const issueCouponBody = z.strictObject({
  poolId: idSchema.describe('cpl_...'),
  memberId: idSchema.describe('mbr_...'),
});
export type IssueCouponInput = z.infer<typeof issueCouponBody>;

const redemptionContext = {
  externalOrderId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:#-]{0,127}$/, { message: 'letters, digits and . _ : # - (max 128)' })
    .optional()
    .describe('The order the coupon was used on (your id; it need not be recorded yet)'),
};

export const redeemCouponBody = z.strictObject(redemptionContext);
export type RedeemInput = z.infer<typeof redeemCouponBody>;

export const redeemByCodeBody = z.strictObject({
  code: z.string().trim().min(1).max(64).describe('The code as the member shows it (case does not matter)'),
  ...redemptionContext,
});

export const listCouponsQuery = z.strictObject({
  ...pageQueryShape,
  poolId: filterValue().optional(),
  memberId: filterValue().optional(),
  status: z.enum(COUPON_STATUSES).optional(),
});
export type ListCouponsQuery = z.infer<typeof listCouponsQuery>;

export const listMemberCouponsQuery = z.strictObject({
  ...pageQueryShape,
  poolId: filterValue().optional(),
  status: z.enum(COUPON_STATUSES).optional(),
});
