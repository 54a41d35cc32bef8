/**
 * Rewards and their redemptions as the table stores them, declared once below the domain. A
 * reward's type is stored as given: the API's schema of it is checked against `RewardTypeRecord`
 * at compile time (`SameShape`).
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const REWARD_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export type RewardStatus = (typeof REWARD_STATUSES)[number];

export const REDEMPTION_STATUSES = ['issued', 'used', 'voided'] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];

/** An amount of money in minor units (cents) of its currency. */
export const moneyRecordSchema = () => z.object({ amount: z.number(), currency: z.string() });

/** What a reward gives. A new type is one more member of this union (and of the API's). */
export const rewardTypeRecordSchema = () =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('fixed_discount'), amount: z.number(), currency: z.string() }),
    z.object({ type: z.literal('percent_discount'), percent: z.number(), maxDiscount: moneyRecordSchema().nullable() }),
    z.object({ type: z.literal('free_shipping') }),
    z.object({ type: z.literal('free_product'), sku: z.string() }),
  ]);
export type RewardTypeRecord = z.infer<ReturnType<typeof rewardTypeRecordSchema>>;

/**
 * A reward as stored. `remaining` (null: unlimited stock) changes only in the conditional
 * transactions of redemptions and voids, never with the version: an edit during traffic neither
 * loses a redemption nor has to be retried because of one.
 */
export const rewardRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    pointsCost: z.number(),
    /** What it gives: its type and that type's parameters. */
    benefit: rewardTypeRecordSchema(),
    minimumSpend: moneyRecordSchema().nullable(),
    /** Days the issued code stays valid (null: as long as its pool's coupons). */
    validityDays: z.number().nullable(),
    /** Units the reward can be redeemed in all (null: unlimited). */
    stock: z.number().nullable(),
    remaining: z.number().nullable(),
    perMemberLimit: z.number().nullable(),
    availableFrom: z.string().nullable(),
    availableUntil: z.string().nullable(),
    /** Tier keys that may redeem it (null: every tier). */
    allowedTiers: z.array(z.string()).nullable(),
    couponPoolId: z.string().nullable(),
    /** Unused redemptions whose code expired are voided by the program's due work (points and stock back); absent on older rewards: false. */
    voidWhenExpired: z.boolean().optional(),
    status: z.enum(REWARD_STATUSES),
    version: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  });
export type RewardRecord = z.infer<ReturnType<typeof rewardRecordSchema>>;

export const rewardEntity = /* @__PURE__ */ defineEntity({
  name: 'reward',
  keys: (r: RewardRecord) => ({ workspaceId: r.workspaceId, rewardId: r.id }),
});

/** One member's redemption of a reward: the points it cost, its ledger entries and its coupon. */
export const redemptionRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    rewardId: z.string(),
    rewardName: z.string(),
    memberId: z.string(),
    pointsSpent: z.number(),
    status: z.enum(REDEMPTION_STATUSES),
    /** The `redemption` ledger entry that took the points, and the `redemption_void` one that gave them back. */
    ledgerEntryId: z.string(),
    voidEntryId: z.string().nullable(),
    couponId: z.string().nullable(),
    couponCode: z.string().nullable(),
    /** Whether the redemption took a unit of the reward's counted stock (a void gives it back). */
    stockTaken: z.boolean(),
    createdAt: z.string(),
    voidedAt: z.string().nullable(),
    /** When it was used at checkout, and on which order (the merchant's id); absent on redemptions older than checkout use. */
    usedAt: z.string().nullable().optional(),
    externalOrderId: z.string().nullable().optional(),
    /** The reward's benefit and minimum spend as redeemed (a later edit of the reward does not change a code already held); absent on older redemptions. */
    benefit: rewardTypeRecordSchema().optional(),
    minimumSpend: moneyRecordSchema().nullable().optional(),
    /** When the due work voids it if still unused (its code's expiry, for a reward that says so); null or absent: never. */
    voidAt: z.string().nullable().optional(),
  });
export type RedemptionRecord = z.infer<ReturnType<typeof redemptionRecordSchema>>;

export const redemptionEntity = /* @__PURE__ */ defineEntity({
  name: 'redemption',
  keys: (r: RedemptionRecord) => ({ workspaceId: r.workspaceId, redemptionId: r.id, memberId: r.memberId, voidAt: r.voidAt ?? '' }),
  // Only an issued redemption that the due work will void is in the index of due voids.
  when: { gsi3: (r: RedemptionRecord) => r.status === 'issued' && !!r.voidAt },
});
