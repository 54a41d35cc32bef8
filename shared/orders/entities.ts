/**
 * Orders as the table stores them. A plain declaration below the domain, so the data layer can
 * name it without importing it; the orders area maps it to what the API answers.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';
import { earnSnapshotSchema } from '../program';

export const ORDER_STATUSES = ['pending', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** One campaign's points granted on an order, and the part its refunds or cancellation took back. */
const orderBonusSchema = () =>
  z.object({
    campaignId: z.string(),
    points: z.number(),
    reversed: z.number(),
    /** Taken back to pending after its reward reached the balance (`campaign.reward_granted` sent): given back, it is not announced again. */
    announced: z.literal(true).optional(),
  });
export type OrderBonusRecord = z.infer<ReturnType<typeof orderBonusSchema>>;

/** An order as stored, under its external id; listed per workspace (gsi1) and per member (gsi2). */
export const orderRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    externalOrderId: z.string(),
    memberId: z.string(),
    storeId: z.string().nullable(),
    currency: z.string(),
    totalMinor: z.number(),
    /** The amount the order earns on (its basis less excluded lines); absent when it is the total. */
    earningMinor: z.number().optional(),
    /** The most points the order may hold, set when earning caps applied at its recording; absent: uncapped. */
    earnCap: z.number().optional(),
    refundedMinor: z.number(),
    status: z.enum(ORDER_STATUSES),
    items: z.array(z.record(z.string(), z.unknown())),
    /** The earn rule in force when the order was recorded: later rule changes never rewrite it. */
    earn: earnSnapshotSchema(),
    earned: z.number(),
    reversed: z.number(),
    occurredAt: z.string(),
    /** The program time it was first recorded at (a sandbox's clock); absent on orders recorded before it existed: createdAt. */
    recordedAt: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
    /**
     * Whether the order's campaign rewards were evaluated: when it was first completed (at intake or
     * by a reconciliation), never again. Absent on orders recorded before it existed: a completed one
     * counts as evaluated.
     */
    campaignsEvaluated: z.boolean().optional(),
    /** The campaign points granted on the order and how much of each its refunds took back (absent: none). */
    bonuses: z.array(orderBonusSchema()).optional(),
    /** The coupons campaigns granted on the order: voided if unused when it is fully refunded or cancelled. */
    coupons: z.array(z.string()).optional(),
  });
export type OrderRecord = z.infer<ReturnType<typeof orderRecordSchema>>;

export const orderEntity = /* @__PURE__ */ defineEntity({
  name: 'order',
  keys: (o: OrderRecord) => ({ workspaceId: o.workspaceId, externalOrderId: o.externalOrderId, memberId: o.memberId, occurredAt: o.occurredAt, orderId: o.id }),
});

/** What a member earned from orders in the current program day and month (named by their local dates), against the earning caps. */
export interface EarnCapsRecord {
  day: string;
  month: string;
  dayBase: number;
  dayCampaign: number;
  monthBase: number;
  monthCampaign: number;
  version: number;
}
