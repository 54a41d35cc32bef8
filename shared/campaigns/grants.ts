/**
 * The rewards campaigns grant a member for one trigger, planned into the trigger's own change (an
 * order's, or a trigger grant's): each points reward a ledger entry, each coupon issued in the same
 * transaction, and the steps that count them against the campaign's budget and per-member limit.
 */
import * as repo from './repository';
import { StaleRead } from '../platform/data/concurrency';
import type { TransactStep } from '../platform/data/transactions';
import type { PlannedGrant, MemberRecord } from '../members';
import { type OrderFacts, withinAllowance } from '../orders';
import { campaignCoupon } from '../coupons';
import { type ProgramRules, campaignsNotBefore } from '../program';
import { grantsOf, type CampaignFacts, type Grant } from './evaluation';
import { evaluateCampaignsFor } from './engine';
import type { Campaign } from './schemas';
import { dropCachedCampaigns, liveCampaigns, timeZoneOf } from './definitions';

/** At most this many campaign rewards per trigger: each is a ledger entry and 1-2 counters in the order's transaction. */
export const MAX_GRANTS_PER_TRIGGER = 10;

/** A counting step that failed shows the cached campaigns stale: the retry reads them again. */
const refreshingOnFailure = (workspaceId: string, step: TransactStep): TransactStep => ({
  ...step,
  onConditionFailed: () => {
    dropCachedCampaigns(workspaceId);
    return new StaleRead('campaign');
  },
});

/** What a grant's ledger entry names besides its campaign: the order, for an order's grants. */
export interface GrantOrigin {
  orderId: string | null;
  externalOrderId: string | null;
}

export const NO_ORDER: GrantOrigin = { orderId: null, externalOrderId: null };

/**
 * A grant as part of the trigger's change, with the steps that count it: points become a ledger
 * entry; a coupon is issued in the same transaction (its items and `coupon.issued`), or the grant
 * is skipped (null) when its pool cannot issue to the member now.
 */
async function plannedGrant(workspaceId: string, memberId: string, origin: GrantOrigin, g: Grant, campaign: Campaign): Promise<PlannedGrant | null> {
  const counting = [
    repo.countGrantStep(workspaceId, g.campaignId, g.points, campaign.limits.totalPoints, campaign.version),
    ...(campaign.limits.perMember === null ? [] : [repo.countMemberGrantStep(workspaceId, g.campaignId, memberId, campaign.limits.perMember)]),
  ].map((step) => refreshingOnFailure(workspaceId, step));
  const grant = {
    campaignId: g.campaignId,
    points: g.points,
    reason: g.reason,
    source: { type: 'campaign' as const, ...origin, apiKeyId: null, campaignId: g.campaignId },
    steps: counting,
  };
  if (g.poolId === null) return grant;
  // Coupons live on real time (their pool's dates), whatever the program clock says.
  const issued = await campaignCoupon(workspaceId, g.poolId, memberId, new Date());
  if (!issued) return null;
  return { ...grant, points: 0, steps: [...counting, ...issued.draft.steps], reward: { id: issued.coupon.id, events: issued.draft.events } };
}

/**
 * The rewards of `campaigns` for one trigger: the evaluation a simulation answers with
 * (`engine.ts`), planned into the trigger's change. A member who is not enrolled gets none. A retry
 * of the change evaluates again (fresh counts).
 */
export async function grantsFor(
  workspaceId: string,
  member: MemberRecord,
  campaigns: readonly Campaign[],
  facts: CampaignFacts,
  basePoints: number,
  origin: GrantOrigin,
  inactiveDays?: number,
  allowance?: number,
): Promise<PlannedGrant[]> {
  if (!campaigns.length || member.status !== 'active') return [];
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  const evaluatedGrants = grantsOf(await evaluateCampaignsFor(workspaceId, member.id, campaigns, facts, basePoints, inactiveDays));
  // The member's earning caps leave this much: the rewards take it in priority order.
  const grants = allowance === undefined ? evaluatedGrants : withinAllowance(evaluatedGrants, allowance);
  const planned = await Promise.all(
    grants.slice(0, MAX_GRANTS_PER_TRIGGER).map((g) => plannedGrant(workspaceId, member.id, origin, g, byId.get(g.campaignId)!)),
  );
  return planned.filter((g): g is PlannedGrant => g !== null);
}

/**
 * The rewards of live order campaigns for an order of `basePoints`, on the member's tier, tags and
 * first order and the order's fields.
 */
export async function orderGrants(
  workspaceId: string,
  member: MemberRecord,
  order: OrderFacts,
  basePoints: number,
  rules: ProgramRules,
): Promise<PlannedGrant[]> {
  const campaigns = await liveCampaigns(workspaceId, 'order');
  if (!campaigns.length) return [];
  const facts: CampaignFacts = {
    trigger: 'order',
    // The order's own time decides its offers, unless it was sent later than the program honours.
    at: Date.parse(order.occurredAt),
    notBefore: campaignsNotBefore(Date.parse(order.recordedAt), rules.orders.backdatingLimitDays),
    timeZone: await timeZoneOf(workspaceId, order.storeId ?? undefined),
    member: { tier: member.tier || rules.tiers.levels[0]!.key, tags: member.tags ?? [] },
    order: {
      total: order.total,
      currency: order.currency,
      storeId: order.storeId,
      items: order.items,
      isFirst: member.orderCount === 0,
      ...(order.linePoints ? { linePoints: order.linePoints } : {}),
    },
  };
  const origin = { orderId: order.orderId, externalOrderId: order.externalOrderId };
  return grantsFor(workspaceId, member, campaigns, facts, basePoints, origin, undefined, order.campaignAllowance);
}
