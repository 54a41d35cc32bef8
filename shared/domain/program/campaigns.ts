/**
 * Campaigns of a workspace: what an admin defines (stored, versioned, audited) and what a
 * simulation answers. The evaluation itself is `campaign-rules.ts`, the same for a simulation and
 * for a real grant, so the two never disagree.
 */
import * as repo from '../../data/repositories/campaigns';
import { getPool } from '../../data/repositories/coupons';
import { getStore } from '../../data/repositories/stores';
import { tagKnown } from '../../data/repositories/tags';
import { transactWrite, withOptimisticRetry, type Page } from '../../data/table';
import { conflict, notFound, validationFailed, type ErrorDetail } from '../../errors';
import { ID_PATTERN, newId } from '../../ids';
import { audited, type AuditContext } from '../audit/service';
import { loadMember } from '../members/ledger';
import { toMinor } from '../money';
import { sealSteps, type WriteOptions } from '../write-options';
import { earnSnapshot, pointsFor } from './arithmetic';
import { evaluateCampaigns, type CampaignFacts, type CampaignRule } from './campaign-rules';
import {
  createCampaignBody,
  type Campaign,
  type CampaignSimulation,
  type CreateCampaignInput,
  type SimulateCampaignsInput,
  type UpdateCampaignInput,
} from './campaign-schemas';
import { rulesOf } from './service';

const isCampaignId = (id: string) => ID_PATTERN('cmp').test(id);

/** What an admin defines of a campaign (everything but its id, counters and timestamps). */
type Definition = Omit<Campaign, 'id' | 'grants' | 'pointsGranted' | 'version' | 'createdAt' | 'updatedAt'>;

const definitionOf = (c: CreateCampaignInput | Campaign): Definition => ({
  name: c.name,
  status: c.status,
  startsAt: c.startsAt,
  endsAt: c.endsAt,
  trigger: c.trigger,
  conditions: c.conditions,
  effect: c.effect,
  limits: c.limits,
  priority: c.priority,
  stackable: c.stackable,
});

/** Each referenced value the workspace does not have, as a detail naming where it is. */
async function unknownReferences(workspaceId: string, d: Definition): Promise<ErrorDetail[]> {
  const details: ErrorDetail[] = [];
  const at = (field: string, message: string) => details.push({ in: 'body', field, message });
  if (d.effect.type === 'coupon') {
    const poolId = d.effect.poolId;
    if (!(ID_PATTERN('cpl').test(poolId) && (await getPool(workspaceId, poolId)))) at('effect.poolId', `no coupon pool ${poolId} in this workspace`);
  }
  const tiers = new Set((await rulesOf(workspaceId)).tiers.levels.map((l) => l.key));
  for (const [i, c] of d.conditions.entries()) {
    const values = (Array.isArray(c.value) ? c.value : [c.value]).map(String);
    for (const v of values) {
      if (c.field === 'order.storeId' && !(ID_PATTERN('sto').test(v) && (await getStore(workspaceId, v))))
        at(`conditions.${i}.value`, `no store ${v} in this workspace`);
      if (c.field === 'member.tier' && !tiers.has(v)) at(`conditions.${i}.value`, `no tier ${v} in the program (tiers: ${[...tiers].join(', ')})`);
      if (c.field === 'member.tags' && !(await tagKnown(workspaceId, v))) at(`conditions.${i}.value`, `no member has ever carried the tag ${v}`);
    }
  }
  return details;
}

async function checkReferences(workspaceId: string, d: Definition): Promise<void> {
  const details = await unknownReferences(workspaceId, d);
  if (details.length) throw validationFailed(details);
}

export async function createCampaign(
  workspaceId: string,
  input: CreateCampaignInput,
  audit: AuditContext,
  opts: WriteOptions<Campaign> = {},
  now = new Date(),
): Promise<Campaign> {
  const definition = definitionOf(input);
  await checkReferences(workspaceId, definition);
  const at = now.toISOString();
  const campaign: Campaign = { id: newId('cmp', now.getTime()), ...definition, grants: 0, pointsGranted: 0, version: 1, createdAt: at, updatedAt: at };
  await transactWrite([
    repo.putCampaignStep(workspaceId, campaign),
    audited(workspaceId, audit, 'campaign.created', { type: 'campaign', id: campaign.id }, now),
    ...sealSteps(opts, campaign),
  ]);
  return campaign;
}

async function loadCampaign(workspaceId: string, campaignId: string): Promise<Campaign> {
  const found = isCampaignId(campaignId) ? await repo.getCampaign<Campaign>(workspaceId, campaignId) : undefined;
  if (!found) throw notFound('Campaign');
  return found;
}

export const getCampaign = loadCampaign;

export const listCampaigns = (workspaceId: string, q: { limit: number; cursor?: string; status?: string }): Promise<Page<Campaign>> =>
  repo.listCampaigns<Campaign>(workspaceId, q.limit, q.cursor, q.status);

/** The changed definition, checked whole (dates in order, a trigger's days) as a new one would be. */
function merged(current: Campaign, input: UpdateCampaignInput): Definition {
  const { version: _version, ...changes } = input;
  const next = { ...definitionOf(current), ...changes };
  const parsed = createCampaignBody.safeParse(next);
  if (!parsed.success) {
    throw validationFailed(parsed.error.issues.map((i) => ({ in: 'body' as const, field: i.path.join('.'), message: i.message })));
  }
  return definitionOf(parsed.data);
}

function refuseStaleVersion(current: Campaign, version: number | undefined): void {
  if (version !== undefined && version !== current.version) {
    throw conflict(`The campaign is at version ${current.version}, not ${version}; read it again and retry`);
  }
}

/**
 * Changes what is given, under optimistic concurrency (`version`, if given, must still match). An
 * ended campaign is over: it can no longer change its status.
 */
export async function updateCampaign(workspaceId: string, campaignId: string, input: UpdateCampaignInput, audit: AuditContext, now = new Date()) {
  return withOptimisticRetry(async () => {
    const current = await loadCampaign(workspaceId, campaignId);
    refuseStaleVersion(current, input.version);
    if (current.status === 'ended' && input.status !== undefined && input.status !== 'ended') {
      throw conflict('The campaign has ended; create a new one instead of restarting it');
    }
    const definition = merged(current, input);
    await checkReferences(workspaceId, definition);
    const next: Campaign = { ...current, ...definition, version: current.version + 1, updatedAt: now.toISOString() };
    await transactWrite([
      repo.replaceCampaignStep(workspaceId, next, current.version),
      audited(workspaceId, audit, 'campaign.updated', { type: 'campaign', id: campaignId }, now),
    ]);
    return next;
  });
}

/** Removes the campaign; the ledger entries it granted keep its id. */
export async function deleteCampaign(workspaceId: string, campaignId: string, audit: AuditContext, now = new Date()): Promise<void> {
  await withOptimisticRetry(async () => {
    const current = await loadCampaign(workspaceId, campaignId);
    await transactWrite([
      repo.deleteCampaignStep(workspaceId, campaignId, current.version),
      audited(workspaceId, audit, 'campaign.deleted', { type: 'campaign', id: campaignId }, now),
    ]);
  });
}

const millis = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** The stored campaign as the evaluation reads it. */
export const ruleOf = (c: Campaign): CampaignRule => ({
  campaignId: c.id,
  name: c.name,
  status: c.status,
  startsAt: millis(c.startsAt),
  endsAt: millis(c.endsAt),
  trigger: c.trigger,
  conditions: c.conditions as CampaignRule['conditions'],
  effect: c.effect,
  limits: c.limits,
  priority: c.priority,
  stackable: c.stackable,
});

/** The store's time zone decides the weekday of its orders; without one, UTC. */
async function timeZoneOf(workspaceId: string, storeId: string | undefined): Promise<string> {
  if (!storeId) return 'UTC';
  const store = ID_PATTERN('sto').test(storeId) ? await getStore(workspaceId, storeId) : undefined;
  if (!store) throw validationFailed([{ in: 'body', field: 'order.storeId', message: `no store ${storeId} in this workspace` }]);
  return store.timezone ?? 'UTC';
}

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
    at: order.occurredAt ? Date.parse(order.occurredAt) : now.getTime(),
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
