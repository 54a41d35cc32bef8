/**
 * Campaigns of a workspace: what an admin defines (stored, versioned, audited) and what a
 * simulation answers. The evaluation itself is `campaign-rules.ts`, the same for a simulation and
 * for a real grant, so the two never disagree.
 */
import * as repo from './repository';
import { getPool } from '../coupons/repository';
import { getStore } from '../stores/repository';
import { dueWorkspaceStep } from '../program/repository';
import { tagKnown } from '../tags/repository';
import { StaleRead, transactWrite, withOptimisticRetry, type Page, type TransactStep } from '../platform/data/table';
import { AppError, conflict, notFound, validationFailed, type ErrorDetail } from '../platform/errors';
import { refuseOversized } from '../platform/data/stored-size';
import { ID_PATTERN, newId } from '../platform/ids';
import { config } from '../platform/config';
import { audited, type AuditContext } from '../audit/service';
import { TtlCache } from '../platform/cache';
import { changePoints, loadMember, NO_DELTA, type PlannedGrant } from '../members/ledger';
import { campaignCoupon } from '../coupons/service';
import type { MemberRecord } from '../members/entities';
import { toMinor } from '../platform/money';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { earnSnapshot, pointsFor } from '../program/arithmetic';
import { evaluateCampaigns, type CampaignFacts, type CampaignRule, type Grant } from './evaluation';
import {
  createCampaignBody,
  type Campaign,
  type CampaignSimulation,
  type CreateCampaignInput,
  type SimulateCampaignsInput,
  type UpdateCampaignInput,
} from './schemas';
import type { ProgramRules } from '../program/schemas';
import { rulesOf } from '../program/service';
import { programNow } from '../program/clock';
import { logger } from '../platform/observability/logger';

const isCampaignId = (id: string) => ID_PATTERN('cmp').test(id);

/**
 * Orders read the campaigns of their workspace on every intake: each process keeps them as long as
 * the program rules (`config.caches.programRulesMs`, 5 s), and a change made in this process applies
 * at once. A grant is counted under its campaign's own conditions (still active, budget left), so a
 * cached copy never grants what the stored campaign no longer allows.
 */
const cache = new TtlCache<Campaign[]>(config.caches.programRulesMs, config.caches.maxEntries);
const cachedCampaigns = (workspaceId: string) => cache.load(workspaceId, () => repo.allCampaigns<Campaign>(workspaceId));

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
    audited(workspaceId, audit, 'campaign.created', { type: 'campaign', id: campaign.id }, now),
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
      audited(workspaceId, audit, 'campaign.updated', { type: 'campaign', id: campaignId }, now),
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

/** At most this many campaign rewards per trigger: each is a ledger entry and 1-2 counters in the order's transaction. */
export const MAX_GRANTS_PER_TRIGGER = 10;

/** What an order tells the campaigns (the member's side comes from the member record). */
export interface OrderFacts {
  externalOrderId: string;
  orderId: string;
  total: number;
  currency: string;
  storeId: string | null;
  items: readonly { sku?: string; category?: string; brand?: string }[];
  occurredAt: string;
}

/** A counting step that failed shows the cached campaigns stale: the retry reads them again. */
const refreshingOnFailure = (workspaceId: string, step: TransactStep): TransactStep => ({
  ...step,
  onConditionFailed: () => {
    cache.invalidate(workspaceId);
    return new StaleRead('campaign');
  },
});

/** What a grant's ledger entry names besides its campaign: the order, for an order's grants. */
interface GrantOrigin {
  orderId: string | null;
  externalOrderId: string | null;
}

const NO_ORDER: GrantOrigin = { orderId: null, externalOrderId: null };

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
 * The rewards of `campaigns` for one trigger: evaluated as a simulation would be, with the
 * member's grants so far read only for the campaigns that would grant and count per member. A
 * member who is not enrolled gets none. A retry of the change evaluates again (fresh counts).
 */
async function grantsFor(
  workspaceId: string,
  member: MemberRecord,
  campaigns: readonly Campaign[],
  facts: CampaignFacts,
  basePoints: number,
  origin: GrantOrigin,
  inactiveDays?: number,
): Promise<PlannedGrant[]> {
  if (!campaigns.length || member.status !== 'active') return [];
  const evaluated = campaigns.map(ruleOf);
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  const candidates = evaluateCampaigns(evaluated, facts, basePoints, () => ({ memberGrants: 0, totalPoints: 0 }), inactiveDays);
  const limited = candidates.map((g) => g.campaignId).filter((id) => byId.get(id)?.limits.perMember !== null);
  const counts = await repo.memberGrants(workspaceId, member.id, limited);
  const grants = evaluateCampaigns(
    evaluated,
    facts,
    basePoints,
    (id) => ({ memberGrants: counts.get(id) ?? 0, totalPoints: byId.get(id)?.pointsGranted ?? 0 }),
    inactiveDays,
  );
  const planned = await Promise.all(
    grants.slice(0, MAX_GRANTS_PER_TRIGGER).map((g) => plannedGrant(workspaceId, member.id, origin, g, byId.get(g.campaignId)!)),
  );
  return planned.filter((g): g is PlannedGrant => g !== null);
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
    at: Date.parse(order.occurredAt),
    timeZone: await timeZoneOf(workspaceId, order.storeId ?? undefined),
    member: { tier: member.tier || rules.tiers.levels[0]!.key, tags: member.tags ?? [] },
    order: { total: order.total, currency: order.currency, storeId: order.storeId, items: order.items, isFirst: member.orderCount === 0 },
  };
  return grantsFor(workspaceId, member, campaigns, facts, basePoints, { orderId: order.orderId, externalOrderId: order.externalOrderId });
}

/** One occurrence of a trigger other than an order. */
export interface TriggerOccurrence {
  type: Exclude<CampaignRule['trigger']['type'], 'order'>;
  /** Names the occurrence for the member (`member_created`, `tag_added#v7`, `birthday#2027`, ...): a campaign grants it once. */
  key: string;
  /** When it happened (program time; default: the program clock now): the campaigns' dates are compared with it, and the grant is dated at it. */
  at?: number;
  /** tag_added: the tags this tagging added, which `member.tags` conditions read. */
  tags?: readonly string[];
  /** inactivity: the spell's days; only the campaigns of exactly these days take part. */
  days?: number;
  /** inactivity: the last activity the spell started at; a member active since is no longer in it. */
  since?: number;
}

/**
 * Grants the live campaigns of a trigger other than an order to a member: one change of the member
 * (ledger entries, coupons, counters, events) with a marker per campaign and occurrence, put only if
 * absent, so a retry or a parallel run grants nothing twice. The member's tier is the one it has;
 * order fields never hold. Answers how many rewards it granted.
 */
export async function grantTrigger(workspaceId: string, memberId: string, occurrence: TriggerOccurrence): Promise<number> {
  const campaigns = await liveCampaigns(workspaceId, occurrence.type, occurrence.days);
  if (!campaigns.length) return 0;
  const at = occurrence.at === undefined ? await programNow(workspaceId) : new Date(occurrence.at);
  return changePoints<number>({
    workspaceId,
    memberId,
    plan: async (member, rules) => {
      if (occurrence.since !== undefined && member.lots?.lastActivityAt !== occurrence.since) return { done: 0 };
      // Each attempt reads the list again: a counting step that failed (a budget set meanwhile) dropped the cached one.
      const live = await liveCampaigns(workspaceId, occurrence.type, occurrence.days);
      const granted = await repo.triggerGranted(
        workspaceId,
        memberId,
        live.map((c) => c.id),
        occurrence.key,
      );
      const facts: CampaignFacts = {
        trigger: occurrence.type,
        at: at.getTime(),
        timeZone: rules.timeZone,
        member: { tier: member.tier || rules.tiers.levels[0]!.key, tags: occurrence.tags ?? member.tags ?? [] },
      };
      const open = live.filter((c) => !granted.has(c.id));
      const grants = await grantsFor(workspaceId, member, open, facts, 0, NO_ORDER, occurrence.days);
      if (!grants.length) return { done: 0 };
      const marked = grants.map((g) => ({
        ...g,
        steps: [...g.steps, repo.triggerGrantStep(workspaceId, memberId, g.campaignId, occurrence.key, at.toISOString())],
      }));
      return {
        plan: {
          delta: NO_DELTA,
          entry: { type: 'campaign', reason: null, source: { type: 'campaign', ...NO_ORDER, apiKeyId: null } },
          requireActive: true,
          grants: marked,
          result: () => marked.length,
        },
      };
    },
    now: () => at,
  });
}

/** What a change owes a member for a trigger it makes occur, and how to pay it after the change commits. */
export interface OwedGrants {
  /** The record of what is owed, for the change's own transaction (none without a live campaign of the trigger). */
  steps: TransactStep[];
  /** After the change committed: grants and clears the record; a failure is logged, never answered (the change stands). */
  settle(): Promise<void>;
}

const NOTHING_OWED: OwedGrants = { steps: [], settle: async () => undefined };

/**
 * The rewards a change (a member created, a tag added) owes for the trigger it makes occur. The
 * record goes into the change's own transaction, so it stands or falls with the change: when the
 * grant after the commit fails (a store fault), the due work finds the record and grants it, and the
 * markers keep it to once either way. Without a live campaign of the trigger it costs nothing.
 */
export async function owedGrants(
  workspaceId: string,
  memberId: string,
  occurrence: { type: 'member_created' | 'tag_added'; key: string; tags?: readonly string[] },
): Promise<OwedGrants> {
  if (!(await liveCampaigns(workspaceId, occurrence.type)).length) return NOTHING_OWED;
  const at = (await programNow(workspaceId)).toISOString();
  const owed: repo.OwedTrigger = {
    memberId,
    type: occurrence.type,
    occurrence: occurrence.key,
    at,
    ...(occurrence.tags ? { tags: [...occurrence.tags] } : {}),
  };
  return {
    steps: [repo.owedTriggerStep(workspaceId, owed)],
    settle: async () => {
      try {
        await grantOwed(workspaceId, owed);
      } catch (error) {
        logger.warn('campaign grants of a trigger failed; the due work grants them', {
          workspaceId,
          memberId,
          trigger: occurrence.type,
          error: error as Error,
        });
      }
    },
  };
}

/** Grants what a trigger owes (what was granted already is skipped) and clears the record. Answers the rewards granted. */
export async function grantOwed(workspaceId: string, owed: repo.OwedTrigger): Promise<number> {
  let granted = 0;
  try {
    granted = await grantTrigger(workspaceId, owed.memberId, {
      type: owed.type,
      key: owed.occurrence,
      at: Date.parse(owed.at),
      ...(owed.tags ? { tags: owed.tags } : {}),
    });
  } catch (error) {
    // A refusal (the member was erased or unenrolled meanwhile) stays a refusal: nothing is owed any more.
    // A store fault is thrown, and the record stays for the next run.
    if (!(error instanceof AppError)) throw error;
  }
  await repo.clearOwedTrigger(workspaceId, owed.memberId, owed.occurrence);
  return granted;
}
