import * as z from 'zod';

/** Spec 4.6: every event belongs to one stage of the customer journey. */
export const STAGES = ['acquisition', 'engagement', 'loyalty', 'retention', 'commerce', 'advocacy'] as const;
export type Stage = (typeof STAGES)[number];

/**
 * The thin `data` block of every event (spec 6.2): ids, tier, amount band. Strict, so personal data
 * (e-mail, name, phone, address) cannot be added by accident: the builder refuses unknown keys.
 */
export const eventDataSchema = z.strictObject({
  resource_id: z.string(),
  /** The member concerned; absent only for events about something no member owns (e.g. a record without a member reference). */
  member_ref: z.string().regex(/^mbr_/).optional(),
  tier: z.string().optional(),
  amount_band: z.string().optional(),
  /** Custom-object events: the object type key. */
  object_type: z.string().optional(),
  /** member.tagged: the tag key (a workspace's own label, never personal data). */
  tag: z.string().optional(),
  /** Coupon events: the pool the coupon comes from. */
  pool_id: z.string().optional(),
  /** Reward events: the reward redeemed or voided. */
  reward_id: z.string().optional(),
  /** campaign.reward_granted: the campaign that granted the reward. */
  campaign_id: z.string().optional(),
  /** order.refunded: the order's own points the refund took back, and its campaign points. */
  base_points_reversed: z.number().int().optional(),
  bonus_points_reversed: z.number().int().optional(),
  /** order.refunded in full: the order's campaign coupons voided, and those already redeemed. */
  coupons_voided: z.array(z.string()).optional(),
  coupons_used: z.array(z.string()).optional(),
});
export type EventData = z.infer<typeof eventDataSchema>;

export interface EventDefinition {
  label: string;
  stage: Stage;
  example: EventData;
  /** The code path that emits it (the catalog lists only events that fire; a test proves each one). */
  emittedBy: string;
}

/** Every event the platform emits. Add the definition together with its emitter. */
export const EVENTS = {
  'member.created': {
    label: 'Member enrolled',
    stage: 'acquisition',
    example: { resource_id: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', tier: 'bronze' },
    emittedBy: 'shared/members/service.ts (createMember, batch upsert)',
  },
  'loyalty.points_earned': {
    label: 'Points earned',
    stage: 'loyalty',
    example: { resource_id: 'ple_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', tier: 'silver' },
    emittedBy: 'shared/members/ledger.ts (any positive balance change)',
  },
  'loyalty.tier_upgraded': {
    label: 'Tier upgraded',
    stage: 'loyalty',
    example: { resource_id: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', tier: 'gold' },
    emittedBy: 'shared/members/ledger.ts (tier recomputed higher)',
  },
  'loyalty.tier_downgraded': {
    label: 'Tier downgraded',
    stage: 'loyalty',
    example: { resource_id: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', tier: 'silver' },
    emittedBy: 'shared/members/ledger.ts (tier recomputed lower once its retention ended: a reversal, or the daily tier review)',
  },
  'points.activated': {
    label: 'Pending points activated',
    stage: 'loyalty',
    example: { resource_id: 'ple_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', tier: 'silver' },
    emittedBy: 'shared/campaigns/due-work.ts (an order’s pending points became spendable; resource_id: the ledger entry)',
  },
  'points.expiring_soon': {
    label: 'Points expiring soon',
    stage: 'retention',
    example: { resource_id: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', tier: 'silver' },
    emittedBy: 'shared/campaigns/due-work.ts (a warnDays moment before an expiry came; resource_id: the member)',
  },
  'points.expired': {
    label: 'Points expired',
    stage: 'retention',
    example: { resource_id: 'ple_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', tier: 'silver' },
    emittedBy: 'shared/campaigns/due-work.ts (lots reached their expiry; resource_id: the expire ledger entry)',
  },
  'campaign.reward_granted': {
    label: 'Campaign reward granted',
    stage: 'loyalty',
    example: { resource_id: 'ple_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', campaign_id: 'cmp_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/members/ledger.ts (a campaign grant of any trigger; resource_id: its ledger entry, or the coupon (cpn_) of a coupon reward)',
  },
  'order.created': {
    label: 'Order recorded',
    stage: 'commerce',
    example: { resource_id: 'ord_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', amount_band: '50-100 EUR' },
    emittedBy: 'shared/orders/service.ts (createOrder, reconciliation create)',
  },
  'order.refunded': {
    label: 'Order refunded',
    stage: 'commerce',
    example: {
      resource_id: 'ord_01j9z3k4m5n6p7q8r9s0t1v2w3',
      member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3',
      amount_band: '10-25 EUR',
      base_points_reversed: 12,
      bonus_points_reversed: 12,
    },
    emittedBy: 'shared/orders/service.ts (refundOrder: with the points taken back; a reconciliation that refunds: without)',
  },
  'object.record_created': {
    label: 'Custom-object record created',
    stage: 'engagement',
    example: { resource_id: 'rec_01j9z3k4m5n6p7q8r9s0t1v2w3', object_type: 'repair_job', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/objects/records.ts (createRecord)',
  },
  'object.record_updated': {
    label: 'Custom-object record updated',
    stage: 'engagement',
    example: { resource_id: 'rec_01j9z3k4m5n6p7q8r9s0t1v2w3', object_type: 'repair_job', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/objects/records.ts (updateRecord)',
  },
  'object.record_deleted': {
    label: 'Custom-object record deleted',
    stage: 'engagement',
    example: { resource_id: 'rec_01j9z3k4m5n6p7q8r9s0t1v2w3', object_type: 'repair_job' },
    emittedBy: 'shared/objects/records.ts (deleteRecord)',
  },
  'member.tagged': {
    label: 'Member tagged',
    stage: 'engagement',
    example: { resource_id: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', tag: 'vip' },
    emittedBy: 'shared/tags/service.ts (tagMember)',
  },
  'capture.created': {
    label: 'Lead captured',
    stage: 'acquisition',
    example: { resource_id: 'cap_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/captures/service.ts (createCapture)',
  },
  'coupon.issued': {
    label: 'Coupon issued',
    stage: 'engagement',
    example: { resource_id: 'cpn_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', pool_id: 'cpl_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/coupons/service.ts (issueCoupon)',
  },
  'coupon.redeemed': {
    label: 'Coupon redeemed',
    stage: 'engagement',
    example: { resource_id: 'cpn_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', pool_id: 'cpl_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/coupons/service.ts (redeemCoupon)',
  },
  'reward.redeemed': {
    label: 'Reward redeemed',
    stage: 'loyalty',
    example: { resource_id: 'rdm_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', reward_id: 'rwd_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/rewards/redemptions.ts (redeemReward; resource_id: the redemption)',
  },
  'reward.voided': {
    label: 'Reward redemption voided',
    stage: 'loyalty',
    example: { resource_id: 'rdm_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', reward_id: 'rwd_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/rewards/redemptions.ts (voidRedemption, once per redemption; resource_id: the redemption)',
  },
  'ambassador.code_issued': {
    label: 'Referral code issued',
    stage: 'advocacy',
    example: { resource_id: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/ambassador/service.ts (issueReferralCode)',
  },
  // Data-subject erasure
  'member.erased': {
    label: 'Member personal data erased',
    stage: 'retention',
    example: { resource_id: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3' },
    emittedBy: 'shared/privacy/erasure.ts (eraseMember, once per member)',
  },
} as const satisfies Record<string, EventDefinition>;

export type EventType = keyof typeof EVENTS;

/** One event as the outbox stores it and the fan-out delivers it (`data` checked by `eventDataSchema`). */
export interface OutboxEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}
