import * as repo from './repository';
import { validationFailed } from '../platform/errors';
import { loadMember } from '../members/ledger';
import type { MemberRecord } from '../members/entities';
import { resolveMember } from '../orders/service';
import { toMinor } from '../platform/money';
import { earnSnapshot, pointsFor } from '../program/arithmetic';
import { rulesOf } from '../program/service';
import { programNow } from '../program/clock';
import { campaignsNotBefore } from '../program/order-time';
import { grantsOf, type CampaignFacts } from './evaluation';
import { evaluateCampaignsFor } from './engine';
import type { Campaign, CampaignSimulation, SimulateCampaignsInput } from './schemas';
import { timeZoneOf } from './definitions';

/** The member the simulation is for: `memberId`, or the order's own reference (an id, an e-mail, an externalId); none: a new member. */
async function memberOf(workspaceId: string, input: SimulateCampaignsInput): Promise<MemberRecord | undefined> {
  const { order } = input;
  const byOrder = order.memberId !== undefined || order.member !== undefined ? await resolveMember(workspaceId, order) : undefined;
  if (input.memberId === undefined) return byOrder;
  if (byOrder && byOrder.id !== input.memberId) throw validationFailed([{ in: 'body', field: 'memberId', message: 'names another member than the order' }]);
  return byOrder ?? loadMember(workspaceId, input.memberId);
}

/**
 * What an order would earn: its base points under the current earn rules and every order campaign
 * of the workspace with what it grants or why not, by the evaluation a real order gets
 * (`engine.ts`): the member's grants so far, budgets and pool stock count, nothing is written.
 */
export async function simulateCampaigns(workspaceId: string, input: SimulateCampaignsInput, now = new Date()): Promise<CampaignSimulation> {
  const { order } = input;
  const [rules, campaigns, member, timeZone, programAt] = await Promise.all([
    rulesOf(workspaceId),
    repo.allCampaigns<Campaign>(workspaceId),
    memberOf(workspaceId, input),
    timeZoneOf(workspaceId, order.storeId),
    programNow(workspaceId, now),
  ]);
  const minor = toMinor(order.total, order.currency);
  if (minor === undefined) throw validationFailed([{ in: 'body', field: 'order.total', message: `has more decimals than ${order.currency} allows` }]);
  const basePoints = pointsFor(minor, order.currency, earnSnapshot(rules, order.currency));
  const facts: CampaignFacts = {
    trigger: 'order',
    // Without a time, the order is placed now in program time (a sandbox's clock), as a real one would be.
    at: order.occurredAt ? Date.parse(order.occurredAt) : programAt.getTime(),
    // Recorded now: an order older than the backdating limit earns no campaign (a future one is a what-if, and answered).
    notBefore: campaignsNotBefore(programAt.getTime(), rules.orders.backdatingLimitDays),
    timeZone,
    member: { tier: member?.tier || rules.tiers.levels[0]!.key, tags: member?.tags ?? [] },
    order: {
      total: order.total,
      currency: order.currency,
      storeId: order.storeId ?? null,
      items: order.items,
      isFirst: member ? member.orderCount === 0 : (order.isFirst ?? true),
    },
  };
  const verdicts = await evaluateCampaignsFor(workspaceId, member?.id ?? null, campaigns, facts, basePoints, undefined, now);
  const grants = grantsOf(verdicts);
  return {
    basePoints,
    grants,
    totalPoints: basePoints + grants.reduce((s, g) => s + g.points, 0),
    memberId: member?.id ?? null,
    occurredAt: new Date(facts.at).toISOString(),
    campaigns: verdicts.map(({ stackable, ...v }) => ({ ...v, stackable, granted: v.outcome === 'granted' })),
  };
}
