import * as z from 'zod';
import { REDEMPTION_STATUSES, REWARD_STATUSES, type RewardTypeRecord } from './entities';
import type { SameShape } from '../platform/data/same-shape';
import { idSchema, isoDateTime } from '../platform/validation/common';
import { currencySchema } from '../platform/money';
import { pageQueryShape } from '../platform/validation/pagination';
import { externalOrderIdSchema } from '../orders';

/** Units one reward can be redeemed in all at most. */
export const MAX_REWARD_STOCK = 1_000_000;

const minorAmount = z.number().int().min(1).max(1e12);

/** Money in minor units (cents) of its currency. */
export const moneySchema = z
  .strictObject({ amount: minorAmount.describe('Minor units of `currency` (cents), e.g. 500 for 5.00 EUR'), currency: currencySchema })
  .meta({ id: 'MinorMoney' });

/** What a reward gives. One schema for requests and answers (stored as given). */
export const rewardBenefitSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('fixed_discount'), amount: minorAmount.describe('Amount off in minor units of `currency`'), currency: currencySchema }),
    z.strictObject({
      type: z.literal('percent_discount'),
      percent: z.number().int().min(1).max(100).describe('Percent off, 1-100'),
      maxDiscount: moneySchema.nullable().describe('The most it takes off; null: no cap'),
    }),
    z.strictObject({ type: z.literal('free_shipping') }),
    z.strictObject({ type: z.literal('free_product'), sku: z.string().trim().min(1).max(100).describe('The product given away') }),
  ])
  .meta({ id: 'RewardBenefit', description: 'What the reward gives: a fixed or percent discount, free shipping or a free product' });
export type RewardBenefit = z.infer<typeof rewardBenefitSchema>;
// A benefit is stored as given.
true satisfies SameShape<RewardBenefit, RewardTypeRecord>;

const tierKey = z.string().trim().min(1).max(64);

const rewardFields = {
  name: z.string().trim().min(1).max(200).describe('Shown to members, e.g. 5 € off your next order'),
  description: z.string().trim().max(2000).nullable().optional().describe('Shown to members under the name'),
  imageUrl: z
    .url({ protocol: /^https$/, message: 'an https URL' })
    .max(2048)
    .nullable()
    .optional()
    .describe('An https picture of the reward'),
  pointsCost: z.number().int().min(1).max(1e9).describe('Points a redemption takes from the member'),
  benefit: rewardBenefitSchema,
  minimumSpend: moneySchema.nullable().optional().describe('The order total the issued code asks for; null: none'),
  validityDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .nullable()
    .optional()
    .describe("Days the issued code stays valid (never beyond its pool's validUntil); null: as the pool's coupons"),
  stock: z.number().int().min(0).max(MAX_REWARD_STOCK).nullable().optional().describe('Redemptions possible in all (a void gives one back); null: unlimited'),
  perMemberLimit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .nullable()
    .optional()
    .describe('Redemptions one member may hold (voided ones do not count); null: no limit'),
  availableFrom: isoDateTime.nullable().optional().describe('Redeemable from; null: as soon as active'),
  availableUntil: isoDateTime.nullable().optional().describe('Redeemable until (exclusive); null: no end'),
  allowedTiers: z.array(tierKey).min(1).max(20).nullable().optional().describe('Tier keys of the program whose members may redeem it; null: every tier'),
  couponPoolId: idSchema.nullable().optional().describe('cpl_...: the coupon pool the code of each redemption is drawn from; null: no code'),
  voidWhenExpired: z
    .boolean()
    .optional()
    .describe("Give the points back when a redemption's code expires unused: the program's due work voids it as an admin would (default false)"),
  status: z.enum(REWARD_STATUSES).optional().describe('draft (default), active, paused or archived; only an active reward is redeemable'),
};

const windowInOrder = (b: { availableFrom?: string | null; availableUntil?: string | null }, ctx: z.RefinementCtx) => {
  if (b.availableFrom && b.availableUntil && Date.parse(b.availableFrom) >= Date.parse(b.availableUntil)) {
    ctx.addIssue({ code: 'custom', path: ['availableUntil'], message: 'must be after availableFrom' });
  }
};

export const createRewardBody = z.strictObject(rewardFields).superRefine(windowInOrder);
export type CreateRewardInput = z.infer<typeof createRewardBody>;

export const updateRewardBody = z
  .strictObject({
    ...rewardFields,
    name: rewardFields.name.optional(),
    pointsCost: rewardFields.pointsCost.optional(),
    benefit: rewardBenefitSchema.optional(),
    version: z.number().int().min(1).optional().describe('The version you read: the change applies only if the reward is still at it (409 otherwise)'),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'version'), { message: 'give at least one field to change' });
export type UpdateRewardInput = z.infer<typeof updateRewardBody>;

export const rewardSchema = z
  .object({
    id: z.string().describe('rwd_...'),
    name: z.string(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    pointsCost: z.number().int(),
    benefit: rewardBenefitSchema,
    minimumSpend: moneySchema.nullable(),
    validityDays: z.number().int().nullable(),
    stock: z.number().int().nullable().describe('Redemptions possible in all; null: unlimited'),
    remaining: z.number().int().nullable().describe('Redemptions left (stock less live redemptions); null: unlimited'),
    perMemberLimit: z.number().int().nullable(),
    availableFrom: isoDateTime.nullable(),
    availableUntil: isoDateTime.nullable(),
    allowedTiers: z.array(z.string()).nullable(),
    couponPoolId: z.string().nullable(),
    voidWhenExpired: z.boolean().describe("Whether a redemption whose code expired unused is voided (its points given back) by the program's due work"),
    status: z.enum(REWARD_STATUSES),
    version: z.number().int().describe('Pass it back on PATCH to change only what you read'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Reward' });
export type Reward = z.infer<typeof rewardSchema>;

export const listRewardsQuery = z.strictObject({ ...pageQueryShape, status: z.enum(REWARD_STATUSES).optional() });
export type ListRewardsQuery = z.infer<typeof listRewardsQuery>;

export const redeemRewardBody = z.strictObject({ memberId: idSchema.describe('mbr_...: the member who spends the points') });
export type RedeemRewardInput = z.infer<typeof redeemRewardBody>;

export const redemptionSchema = z
  .object({
    id: z.string().describe('rdm_...'),
    rewardId: z.string(),
    rewardName: z.string().describe('The reward’s name when it was redeemed'),
    memberId: z.string(),
    pointsSpent: z.number().int(),
    status: z.enum(REDEMPTION_STATUSES).describe('issued: the member holds it; used: used at checkout on an order; voided: taken back, points returned'),
    ledgerEntryId: z.string().describe('ple_...: the `redemption` entry that took the points'),
    voidEntryId: z.string().nullable().describe('ple_...: the `redemption_void` entry that gave them back'),
    couponId: z.string().nullable().describe('cpn_...: the coupon drawn from the reward’s pool; null: the reward issues no code'),
    couponCode: z.string().nullable().describe('The code the member shows or types at checkout'),
    createdAt: isoDateTime,
    voidedAt: isoDateTime.nullable(),
    voidAt: isoDateTime
      .nullable()
      .describe(
        "When the program voids it if still unused, its points given back: its code's expiry, for a reward with voidWhenExpired; null: never, or no longer issued",
      ),
    usedAt: isoDateTime.nullable().describe('When it was used at checkout; null: not used'),
    externalOrderId: z.string().nullable().describe('The order (your id) it was used on; null: not used'),
  })
  .meta({ id: 'Redemption' });
export type Redemption = z.infer<typeof redemptionSchema>;

export const listRedemptionsQuery = z.strictObject({ ...pageQueryShape, status: z.enum(REDEMPTION_STATUSES).optional() });

// ---------------------------------------------------------------------------------------------
// At checkout
// ---------------------------------------------------------------------------------------------

const minorUnits = z.number().int().min(0).max(1e12);

export const cartSchema = z
  .strictObject({
    currency: currencySchema,
    lines: z
      .array(
        z.strictObject({
          sku: z.string().trim().min(1).max(100).describe('The product, matched exactly against a free product’s `sku`'),
          category: z.string().trim().min(1).max(100).optional().describe('The product’s category'),
          quantity: z.number().int().min(1).max(100_000).describe('Units of this line, 1-100000'),
          unitPrice: minorUnits.describe('Price of one unit before discounts, in minor units (cents)'),
        }),
      )
      .min(1)
      .max(500)
      .describe('1-500 lines of the cart'),
    shipping: minorUnits.optional().describe('Shipping charged, in minor units; absent: none'),
  })
  .meta({ id: 'CheckoutCart', description: 'The cart as the checkout has it, amounts in minor units of `currency`' });

export const validateRedemptionBody = z
  .strictObject({
    code: z.string().trim().min(1).max(64).optional().describe('The code the redemption issued, as the member types it (case does not matter)'),
    redemptionId: idSchema.optional().describe('rdm_...: the redemption, for a reward that issues no code'),
    memberId: idSchema.describe('mbr_...: the member at the checkout'),
    cart: cartSchema,
  })
  .refine((b) => (b.code === undefined) !== (b.redemptionId === undefined), { message: 'give either code or redemptionId', path: ['code'] });
export type ValidateRedemptionInput = z.infer<typeof validateRedemptionBody>;

export const NOT_APPLYING = [
  'NOT_FOUND',
  'WRONG_MEMBER',
  'VOIDED',
  'ALREADY_USED',
  'EXPIRED',
  'CURRENCY_MISMATCH',
  'MINIMUM_SPEND',
  'NO_MATCHING_LINE',
] as const;

export const redemptionCheckSchema = z
  .union([
    z.object({
      applies: z.literal(true),
      discount: z.object({ amount: z.number().int(), currency: z.string() }).describe('What to take off the order, in minor units of the cart’s currency'),
      redemptionId: z.string(),
      rewardId: z.string(),
      benefit: rewardBenefitSchema,
    }),
    z.object({
      applies: z.literal(false),
      reason: z.enum(NOT_APPLYING).describe('Why not, a stable code'),
      message: z.string(),
    }),
  ])
  .meta({ id: 'RedemptionCheck', description: 'Whether the redemption applies to the cart and, if so, the discount' });
export type RedemptionCheck = z.infer<typeof redemptionCheckSchema>;

export const useRedemptionBody = z.strictObject({
  externalOrderId: externalOrderIdSchema.describe('The order (your id) the redemption is used on; it need not be recorded yet'),
});

// ---------------------------------------------------------------------------------------------
// A member's own view (member portal session)
// ---------------------------------------------------------------------------------------------

export const memberRewardSchema = rewardSchema
  .pick({
    id: true,
    name: true,
    description: true,
    imageUrl: true,
    pointsCost: true,
    benefit: true,
    minimumSpend: true,
    validityDays: true,
    availableUntil: true,
  })
  .extend({ affordable: z.boolean().describe("Whether the member's balance covers `pointsCost` now") })
  .meta({ id: 'MemberReward', description: 'A reward the signed-in member may redeem now (active, in its window, their tier, stock and limit left)' });
export type MemberReward = z.infer<typeof memberRewardSchema>;
