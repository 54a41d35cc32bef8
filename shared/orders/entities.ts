/**
 * Orders as the table stores them. A plain declaration below the domain, so the data layer can
 * name it without importing it; the orders area maps it to what the API answers.
 */
import type { EarnSnapshot } from '../program/entities';

export const ORDER_STATUSES = ['pending', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface OrderRecord {
  id: string;
  workspaceId: string;
  externalOrderId: string;
  memberId: string;
  storeId: string | null;
  currency: string;
  totalMinor: number;
  /** The amount the order earns on (its basis less excluded lines); absent when it is the total. */
  earningMinor?: number;
  /** The most points the order may hold, set when earning caps applied at its recording; absent: uncapped. */
  earnCap?: number;
  refundedMinor: number;
  status: OrderStatus;
  items: Record<string, unknown>[];
  /** The earn rule in force when the order was recorded: later rule changes never rewrite it. */
  earn: EarnSnapshot;
  earned: number;
  reversed: number;
  occurredAt: string;
  /** The program time it was first recorded at (a sandbox's clock); absent on orders recorded before it existed: createdAt. */
  recordedAt?: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  /**
   * Whether the order's campaign rewards were evaluated: when it was first completed (at intake or
   * by a reconciliation), never again. Absent on orders recorded before it existed: a completed one
   * counts as evaluated.
   */
  campaignsEvaluated?: boolean;
  /** The campaign points granted on the order and how much of each its refunds took back (absent: none). */
  bonuses?: OrderBonusRecord[];
  /** The coupons campaigns granted on the order: voided if unused when it is fully refunded or cancelled. */
  coupons?: string[];
}

/** One campaign's points granted on an order, and the part its refunds or cancellation took back. */
export interface OrderBonusRecord {
  campaignId: string;
  points: number;
  reversed: number;
}

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
