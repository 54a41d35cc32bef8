/**
 * Campaigns of a workspace as an admin defines them (stored, versioned, audited), and the cached
 * list the grants read. The evaluation itself is `evaluation.ts`, the same for a simulation
 * (`simulation.ts`) and for a real grant (`grants.ts`), so the two never disagree.
 */
import * as repo from './repository';
import { getPool } from '../coupons';
import { getStoreRecord as getStore } from '../stores';
import { dueWorkspaceStep, rulesOf, programNow } from '../program';
import { tagKnown } from '../tags';
import { withOptimisticRetry } from '../platform/data/concurrency';
import type { Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
import { transactWrite } from './repository';
import { conflict, notFound, validationFailed, type ErrorDetail } from '../platform/errors';
import { refuseOversized } from '../platform/data/stored-size';
import { ID_PATTERN, newId } from '../platform/ids';
import { config } from '../platform/config';
import { audited, definitionDiff, diffOf, type AuditContext } from '../audit';
import { TtlCache } from '../platform/cache';
import { normalised, type CampaignRule } from './evaluation';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { createCampaignBody, type Campaign, type CreateCampaignInput, type UpdateCampaignInput } from './schemas';

const isCampaignId = (id: string) => ID_PATTERN('cmp').test(id);

/**
 * Orders read the campaigns of their workspace on every intake: each process keeps them as long as
 * the program rules (`config.caches.programRulesMs`, 5 s), and a change made in this process applies
 * at once. A grant is counted under its campaign's own conditions (still active, budget left), so a
 * cached copy never grants what the stored campaign no longer allows.
 */
const cache = new TtlCache<Campaign[]>(config.caches.programRulesMs, config.caches.maxEntries);
const cachedCampaigns = (workspaceId: string) => cache.load(workspaceId, () => repo.allCampaigns<Campaign>(workspaceId));

/** Drops the process's cached list of a workspace's campaigns (a grant found it stale): the next read loads it again. */
export const dropCachedCampaigns = (workspaceId: string) => cache.invalidate(workspaceId);

/** What an admin defines of a campaign (everything but its id, counters and timestamps). */
type Definition = Omit<Campaign, 'id' | 'grants' | 'pointsGranted' | 'version' | 'createdAt' | 'updatedAt'>;

const definitionOf = (c: CreateCampaignInput | Campaign): Definition => ({
  name: c.name,
  status: c.status,
  startsAt: c.startsAt,
  endsAt: c.endsAt,
  trigger: c.trigger,
  // Day names stored in lower case, as date.weekday holds them.
  conditions: (c.conditions as Definition['conditions']).map(normalised),
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

/**
 * A campaign of any trigger but orders puts its workspace on the due-work run's list: the run finds
 * birthdays and inactivity spells, and grants what a member's creation or tagging still owes.
 */
const dueListed = (workspaceId: string, d: Definition): TransactStep[] => (d.trigger.type === 'order' ? [] : [dueWorkspaceStep(workspaceId)]);

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
  // Program time (a sandbox's clock): the triggers grant what occurs after a campaign was set up.
  const at = (await programNow(workspaceId, now)).toISOString();
  const campaign: Campaign = { id: newId('cmp', now.getTime()), ...definition, grants: 0, pointsGranted: 0, version: 1, createdAt: at, updatedAt: at };
  refuseOversized(campaign, 'campaign');
  await transactWrite([
    repo.putCampaignStep(workspaceId, campaign),
    ...dueListed(workspaceId, definition),
    audited(workspaceId, audit, 'campaign.created', { type: 'campaign', id: campaign.id }, now, diffOf({}, definition)),
    ...sealSteps(opts, campaign),
  ]);
  // After the commit: a read between an earlier drop and the commit would cache the old list again.
  cache.invalidate(workspaceId);
  return campaign;
}

async function loadCampaign(workspaceId: string, campaignId: string): Promise<Campaign> {
  const found = isCampaignId(campaignId) ? await repo.getCampaign<Campaign>(workspaceId, campaignId) : undefined;
  if (!found) throw notFound('Campaign');
  return found;
}

/**
 * Campaigns with what their tally shards hold added to their own counts (a campaign without a
 * budget counts in shards; one with a budget on its item, and keeps what the shards held before).
 */
export async function withTallies<T extends { id: string; grants: number; pointsGranted: number }>(
  workspaceId: string,
  campaigns: T[],
  campaignId?: string,
): Promise<T[]> {
  if (!campaigns.length) return campaigns;
  const shards = await repo.tallyShards(workspaceId, campaignId);
  return campaigns.map((c) => {
    const own = shards.filter((s) => s.campaignId === c.id);
    return { ...c, grants: c.grants + own.reduce((n, s) => n + s.grants, 0), pointsGranted: c.pointsGranted + own.reduce((n, s) => n + s.pointsGranted, 0) };
  });
}

/** One campaign of the workspace (NOT_FOUND otherwise), with its counts. */
export async function getCampaign(workspaceId: string, campaignId: string): Promise<Campaign> {
  const [counted] = await withTallies(workspaceId, [await loadCampaign(workspaceId, campaignId)], campaignId);
  return counted!;
}

/** The names of these campaigns by id (a deleted one is left out): for reports that count by campaign. */
export async function campaignNames(workspaceId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const wanted = new Set(ids);
  const campaigns = await repo.allCampaigns<Campaign>(workspaceId);
  return new Map(campaigns.filter((c) => wanted.has(c.id)).map((c): [string, string] => [c.id, c.name]));
}

export async function listCampaigns(workspaceId: string, q: { limit: number; cursor?: string; status?: string }): Promise<Page<Campaign>> {
  const page = await repo.listCampaigns<Campaign>(workspaceId, q.limit, q.cursor, q.status);
  return { ...page, items: await withTallies(workspaceId, page.items) };
}

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
    const changed = { ...definition, version: current.version + 1, updatedAt: (await programNow(workspaceId, now)).toISOString() };
    refuseOversized({ ...current, ...changed }, 'campaign');
    // A budget set on a campaign that had none counts from its own item: what the shards hold moves there.
    const budgetSet = current.limits.totalPoints === null && definition.limits.totalPoints !== null;
    const fold = budgetSet ? repo.foldTallies(workspaceId, campaignId, await repo.tallyShards(workspaceId, campaignId), changed.version) : repo.NO_FOLD;
    await transactWrite([
      repo.updateCampaignStep(workspaceId, campaignId, changed, current.version, fold.add),
      ...fold.steps,
      ...dueListed(workspaceId, definition),
      audited(workspaceId, audit, 'campaign.updated', { type: 'campaign', id: campaignId }, now, definitionDiff(current, definition)),
    ]);
    cache.invalidate(workspaceId);
    // The counts as stored now: grants went on while the change was made.
    return getCampaign(workspaceId, campaignId);
  });
}

/** Removes the campaign; the ledger entries it granted keep its id. */
export async function deleteCampaign(workspaceId: string, campaignId: string, audit: AuditContext, now = new Date()): Promise<void> {
  await withOptimisticRetry(async () => {
    const current = await loadCampaign(workspaceId, campaignId);
    await transactWrite([
      repo.deleteCampaignStep(workspaceId, campaignId, current.version),
      ...repo.dropTallySteps(await repo.tallyShards(workspaceId, campaignId)),
      audited(workspaceId, audit, 'campaign.deleted', { type: 'campaign', id: campaignId }, now),
    ]);
    cache.invalidate(workspaceId);
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
  conditions: c.conditions.map(normalised) as CampaignRule['conditions'],
  effect: c.effect,
  limits: c.limits,
  priority: c.priority,
  stackable: c.stackable,
});

/** The store's time zone decides the weekday of its orders; without one, UTC. */
export async function timeZoneOf(workspaceId: string, storeId: string | undefined): Promise<string> {
  if (!storeId) return 'UTC';
  const store = ID_PATTERN('sto').test(storeId) ? await getStore(workspaceId, storeId) : undefined;
  if (!store) throw validationFailed([{ in: 'body', field: 'order.storeId', message: `no store ${storeId} in this workspace` }]);
  return store.timezone ?? 'UTC';
}

/** Whether the workspace has a campaign of one of these triggers, in any status (the cached list). */
export async function hasCampaignOf(workspaceId: string, types: readonly CampaignRule['trigger']['type'][]): Promise<boolean> {
  return (await cachedCampaigns(workspaceId)).some((c) => types.includes(c.trigger.type));
}

/** The active campaigns of a trigger, from the cached list (no read while the list is cached). */
export async function liveCampaigns(workspaceId: string, type: CampaignRule['trigger']['type'], days?: number): Promise<Campaign[]> {
  return (await cachedCampaigns(workspaceId)).filter(
    (c) => c.trigger.type === type && c.status === 'active' && (days === undefined || c.trigger.days === days),
  );
}
