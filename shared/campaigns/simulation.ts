import * as repo from './repository';
import { validationFailed } from '../platform/errors';
import { loadMember, type MemberRecord } from '../members';
import { resolveMember, tableOrdersStore, orderAmounts, earnAmountRules, earningAmount, matchingAmount, type OrderLine } from '../orders';
import { earnSnapshot, pointsFor, rulesOf, programNow, campaignsNotBefore } from '../program';
import { grantsOf, type CampaignFacts } from './evaluation';
import { evaluateCampaignsFor } from './engine';
import type { Campaign, CampaignSimulation, SimulateCampaignsInput } from './schemas';
import { timeZoneOf } from './definitions';

/** The member the simulation is for: `memberId`, or the order's own reference (an id, an e-mail, an externalId); none: a new member. */
async function memberOf(workspaceId: string, input: SimulateCampaignsInput): Promise<MemberRecord | undefined> {
  const { order } = input;
  const byOrder = order.memberId !== undefined || order.member !== undefined ? await resolveMember(workspaceId, order, tableOrdersStore) : undefined;
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
  // The order's amounts earn as a real order's would: its basis, exclusions and line-level bonuses.
  const earn = earnSnapshot(rules, order.currency);
  const earnRules = earnAmountRules(earn);
  // An item simulated without its quantity counts one unit.
  const items = order.items?.map((i) => ({ ...i, quantity: i.quantity ?? 1 }));
  const amounts = orderAmounts({ ...order, items }, earnRules, 'order.');
  const basePoints = pointsFor(earningAmount(amounts, earnRules), order.currency, earn);
  const linePoints = (matches: (line: OrderLine) => boolean) => {
    const amount = matchingAmount(amounts, earnRules, matches);
    return amount === undefined ? undefined : pointsFor(amount, order.currency, earn);
  };
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
      linePoints,
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
