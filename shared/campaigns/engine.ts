/**
 * The one campaign evaluation a trigger gets, a real grant's and a simulation's alike: the campaigns
 * that may grant are read for what counts against them (the member's grants so far, their budgets
 * as the campaign list holds them, each coupon pool's stock and the member's count in it), nothing
 * written, then evaluated (`traceCampaigns`). A grant then counts what it gives under conditions
 * (`grants.ts`), so a read that went stale meanwhile re-plans rather than over-grants.
 */
import * as repo from './repository';
import { poolAvailability, type PoolAvailability } from '../coupons';
import { eligibleCampaigns, traceCampaigns, type CampaignFacts, type Verdict } from './evaluation';
import type { Campaign } from './schemas';
import { ruleOf } from './definitions';

/** Every campaign the trigger reaches, with what it grants or why not (`memberId` null: a member with no history). */
export async function evaluateCampaignsFor(
  workspaceId: string,
  memberId: string | null,
  campaigns: readonly Campaign[],
  facts: CampaignFacts,
  basePoints: number,
  inactiveDays?: number,
  now = new Date(),
): Promise<Verdict[]> {
  const rules = campaigns.map(ruleOf);
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  const eligible = eligibleCampaigns(rules, facts, inactiveDays);
  const limited = eligible.filter((c) => c.limits.perMember !== null).map((c) => c.campaignId);
  const pools = [...new Set(eligible.flatMap((c) => (c.effect.type === 'coupon' ? [c.effect.poolId] : [])))];
  const [counts, poolStates] = await Promise.all([
    memberId === null ? new Map<string, number>() : repo.memberGrants(workspaceId, memberId, limited),
    // Coupons live on real time (their pool's dates), whatever the program clock says.
    Promise.all(pools.map(async (p) => [p, await poolAvailability(workspaceId, p, memberId, now)] as const)).then(
      (states) => new Map<string, PoolAvailability>(states),
    ),
  ]);
  return traceCampaigns(
    rules,
    facts,
    basePoints,
    (id) => {
      const c = byId.get(id)!;
      return {
        memberGrants: counts.get(id) ?? 0,
        totalPoints: c.pointsGranted,
        pool: c.effect.type === 'coupon' ? poolStates.get(c.effect.poolId) : undefined,
      };
    },
    inactiveDays,
  );
}
