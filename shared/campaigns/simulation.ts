import * as repo from './repository';
import { validationFailed } from '../platform/errors';
import { loadMember } from '../members/ledger';
import { toMinor } from '../platform/money';
import { earnSnapshot, pointsFor } from '../program/arithmetic';
import { rulesOf } from '../program/service';
import { programNow } from '../program/clock';
import { evaluateCampaigns, type CampaignFacts } from './evaluation';
import type { Campaign, CampaignSimulation, SimulateCampaignsInput } from './schemas';
import { ruleOf, timeZoneOf } from './definitions';

/**
 * What an order would earn: its base points under the current earn rules and the grants of every
 * live order campaign, exactly as a real order would be evaluated. Stores nothing.
 */
export async function simulateCampaigns(workspaceId: string, input: SimulateCampaignsInput, now = new Date()): Promise<CampaignSimulation> {
  const { order } = input;
  const [rules, campaigns, member, timeZone] = await Promise.all([
    rulesOf(workspaceId),
    repo.allCampaigns<Campaign>(workspaceId),
    input.memberId === undefined ? undefined : loadMember(workspaceId, input.memberId),
    timeZoneOf(workspaceId, order.storeId),
  ]);
  const minor = toMinor(order.total, order.currency);
  if (minor === undefined) throw validationFailed([{ in: 'body', field: 'order.total', message: `has more decimals than ${order.currency} allows` }]);
  const basePoints = pointsFor(minor, order.currency, earnSnapshot(rules, order.currency));
  const facts: CampaignFacts = {
    trigger: 'order',
    // Without a time, the order is placed now in program time (a sandbox's clock), as a real one would be.
    at: order.occurredAt ? Date.parse(order.occurredAt) : (await programNow(workspaceId, now)).getTime(),
    timeZone,
    member: { tier: member?.tier ?? rules.tiers.levels[0]!.key, tags: member?.tags ?? [] },
    order: {
      total: order.total,
      currency: order.currency,
      storeId: order.storeId ?? null,
      items: order.items,
      isFirst: member ? member.orderCount === 0 : (order.isFirst ?? true),
    },
  };
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  const grants = evaluateCampaigns(campaigns.map(ruleOf), facts, basePoints, (id) => ({ memberGrants: 0, totalPoints: byId.get(id)?.pointsGranted ?? 0 }));
  return { basePoints, grants, totalPoints: basePoints + grants.reduce((s, g) => s + g.points, 0) };
}
