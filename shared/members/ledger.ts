import type { PointsDelta } from './types';
import * as repo from './repository';
import { activityMove, dayMoves, localDay, pointsDaySteps, tierMove } from '../overview';
import { inKeyOrder, withOptimisticRetry } from '../platform/data/concurrency';
import type { TransactStep } from '../platform/data/transactions';
import { transactWrite } from './repository';
import type { OutboxEvent } from '../platform/events/registry';
import { event, publish } from '../platform/events/outbox';
import { ID_PATTERN, newId } from '../platform/ids';
import { AppError, memberErased, notFound } from '../platform/errors';
import * as tiersRepo from './tier-repository';
import { type ProgramRules, rulesOf, programNow } from '../program';
import type { LedgerEntry } from './schemas';
import type { LedgerEntryRecord, LedgerType, MemberLotsRecord, MemberRecord, MemberTierRecord } from './entities';
import { nextDueAt } from './member-lots';
import { lotsAfter, routePending, settleLapsed } from './points-lots';
import { moveBonuses, type BonusMoves, type PlannedReversal } from './bonus-lots';
import { evaluateMemberTier, type MemberTierOutcome } from './tier-state';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { emitMetric } from '../platform/observability/metrics';

export const NO_DELTA: PointsDelta = { balance: 0, pending: 0, lifetime: 0, orderCount: 0 };

export interface ChangePlan<R> {
  delta: PointsDelta;
  /** How the ledger describes a non-zero balance change (`id`: when the plan must name the entry elsewhere). */
  entry: { id?: string; type: LedgerType; reason: string | null; source: LedgerEntry['source']; outsideTier?: true };
  /** Deductions must not take the balance below zero (refund reversals may: see docs/decisions/). */
  requireNonNegative?: boolean;
  /** Awards need an active member; reversals apply whatever the status. */
  requireActive?: boolean;
  /** Further steps of the same transaction (the order, the refund). */
  steps?: TransactStep[];
  /** Events of the change; they join the points events in the transaction's one outbox item. */
  events?: OutboxEvent[];
  /** Campaign rewards of the same change: each its own ledger entry after the plan's, in the same transaction. */
  grants?: PlannedGrant[];
  /** Campaign shares of an order its reversal takes back (`bonus-lots.ts`): entries after the grants'. */
  reversals?: PlannedReversal[];
  /** The member's lots after the change, when the plan keeps them itself (an expiry); else the ledger does. */
  lots?: MemberLotsRecord;
  /** The lots before the ledger books the plan's entries on them (an activation: without its pending points). */
  lotsBefore?: MemberLotsRecord;
  /** Imported history: the plan's own entry sends no `loyalty.points_earned` (nothing was earned today). */
  quiet?: boolean;
  /** The event of the plan's own ledger entry (resource_id: the entry). */
  entryEvent?: 'points.activated' | 'points.expired';
  /** A campaign entry whose reward was announced before (a share given back that waited): no second `campaign.reward_granted`. */
  announced?: boolean;
  /**
   * A change with nothing to write but the tier (the daily review): when the evaluation leaves the
   * tier and its next review as they are, nothing is written and `unchanged` answers.
   */
  onlyIfTierMoves?: { unchanged: (member: MemberRecord) => R };
  result: (outcome: ChangeOutcome) => R;
}

/**
 * One campaign reward: its points (added to balance and lifetime; on an order, pending while the
 * order's points are), its entry, and the campaign's counting steps. A reward that is not points (a coupon) writes no ledger entry: `reward` names
 * what it issued, and its own items and events join the change.
 */
export interface PlannedGrant {
  campaignId: string;
  points: number;
  reason: string;
  source: LedgerEntry['source'];
  steps: TransactStep[];
  reward?: { id: string; events: OutboxEvent[] };
  /** Given back to an order that completed again: `campaign.reward_granted` was sent when first granted. */
  announced?: boolean;
}

/** The grants that are points: each one ledger entry. */
const pointGrants = (p: { grants?: PlannedGrant[] }) => (p.grants ?? []).filter((g) => !g.reward);

export interface ChangeOutcome {
  member: MemberRecord;
  entry: LedgerEntry | null;
  tierUpgraded: boolean;
  tierChange: 'upgraded' | 'downgraded' | null;
}

/** A plan, or an answer that needs no write (e.g. an order that was already recorded). */
export type Planned<R> = { plan: ChangePlan<R> } | { done: R };

export const isMemberId = (id: string) => ID_PATTERN('mbr').test(id);

/**
 * What the ledger needs of the store: the member, the program's rules, the two steps of a points
 * change and one transaction. The balance step is conditional on the member's revision and fails
 * with `MemberChanged` (carrying the member as it now is) when another change came first.
 */
export interface LedgerStore {
  getMember(workspaceId: string, memberId: string): Promise<MemberRecord | undefined>;
  rulesOf(workspaceId: string): Promise<ProgramRules>;
  /** The workspace's program time (a sandbox's clock may run ahead of real time). */
  clock(workspaceId: string): Promise<Date>;
  getMemberTier(workspaceId: string, memberId: string): Promise<MemberTierRecord | undefined>;
  /** The member and its tier record as of one moment, in one request (a store that cannot leaves it out: they are then read apart). */
  getMemberWithTier?(workspaceId: string, memberId: string): Promise<{ member?: MemberRecord; tier?: MemberTierRecord }>;
  memberTierStep(workspaceId: string, record: MemberTierRecord): TransactStep;
  balanceStep(current: MemberRecord, next: repo.BalanceState, now: string, requireActive: boolean): TransactStep;
  ledgerEntryStep(workspaceId: string, entry: LedgerEntryRecord): TransactStep;
  transactWrite(steps: TransactStep[]): Promise<void>;
}

/** The ledger on the table (DynamoDB). */
export const tableLedgerStore: LedgerStore = {
  getMember: repo.getMember,
  rulesOf,
  clock: (workspaceId) => programNow(workspaceId),
  getMemberTier: tiersRepo.getMemberTier,
  getMemberWithTier: tiersRepo.getMemberWithTier,
  memberTierStep: tiersRepo.memberTierStep,
  balanceStep: repo.balanceStep,
  ledgerEntryStep: repo.ledgerEntryStep,
  transactWrite: (steps) => transactWrite(steps),
};

/** The member, read through a ledger store: the ledger's own, or a caller's (coupons' redemption). 404 if unknown. */
export async function memberThrough(store: Pick<LedgerStore, 'getMember'>, workspaceId: string, memberId: string): Promise<MemberRecord> {
  const member = isMemberId(memberId) ? await store.getMember(workspaceId, memberId) : undefined;
  if (!member) throw notFound('Member');
  return member;
}

/** The member from the table (404 if unknown). */
export const loadMember = (workspaceId: string, memberId: string): Promise<MemberRecord> => memberThrough(tableLedgerStore, workspaceId, memberId);

/**
 * The member a write is about to change: an erased member is refused before any planning
 * (MEMBER_ERASED). The same refusal is a condition of every write's transaction on the member
 * item, so a write racing the erasure is refused too.
 */
export async function loadWritableMember(workspaceId: string, memberId: string): Promise<MemberRecord> {
  return writable(await loadMember(workspaceId, memberId));
}

export function writable(member: MemberRecord): MemberRecord {
  if (member.erasedAt) throw memberErased();
  return member;
}

/**
 * The one way a member's points change. Reads the member, lets `plan` decide, then writes the new
 * balance, the ledger entry, the recomputed tier, the events and the plan's own steps in ONE
 * transaction conditional on the member's revision. A concurrent change makes the condition fail;
 * the whole unit then re-plans on the member the failed condition returned (optimistic
 * concurrency), so balanceAfter is exact and no update is ever applied on a stale read.
 *
 * The changes of one member made by this process run one after another (in arrival order), so
 * they never race each other; only changes made by other processes can make the condition fail.
 * docs/performance.md ("Hot members") has the figures and the limit.
 */
export interface PointsChange<R> {
  workspaceId: string;
  memberId: string;
  plan: (member: MemberRecord, rules: ProgramRules) => Promise<Planned<R>> | Planned<R>;
  /** Seals the idempotent answer into the change's transaction. */
  write?: WriteOptions<R>;
  /** The member as the caller just read it: saves the first read; retries always read afresh. */
  preloaded?: MemberRecord;
  /** Its tier record read together with it (`getMemberWithTier`; `record` undefined: none yet): saves the first attempt's tier read. */
  preloadedTier?: { record: MemberTierRecord | undefined };
  /** The time of the change; default: the workspace's program clock. */
  now?: () => Date;
  /** Where the member, the rules and the clock are read and the change is written: the table's (`tableLedgerStore`) or a caller's own. */
  store: LedgerStore;
}

export async function changePoints<R>({ workspaceId, memberId, plan, write: opts = {}, preloaded, preloadedTier, now, store }: PointsChange<R>): Promise<R> {
  let fresh: MemberRecord | undefined;
  // Only ever beside the member it was read with: a member from a failed condition comes without it.
  let freshTier: { record: MemberTierRecord | undefined } | undefined;
  const attempt = async (): Promise<R> => {
    const read = writable(fresh ?? (await memberThrough(store, workspaceId, memberId)));
    const tierRead = fresh ? freshTier : undefined;
    fresh = undefined;
    freshTier = undefined;
    const [rules, tierRecord, clockAt] = await Promise.all([
      store.rulesOf(workspaceId),
      tierRead ? tierRead.record : store.getMemberTier(workspaceId, memberId),
      now ? null : store.clock(workspaceId),
    ]);
    // A change at the clock's now first expires what lapsed since the due work last ran (in its own
    // transaction); program work given its own moment runs the moments in turn itself.
    const { member, expired } = clockAt ? settleLapsed(read, rules, clockAt.getTime()) : { member: read, expired: null };
    const planned = await plan(member, rules);
    if ('done' in planned) return planned.done;
    const at = clockAt ?? now!();
    // An order's points may wait (pendingDays): the plan's balance change then moves to pending.
    const given = planned.plan.lots ?? planned.plan.lotsBefore;
    const routed = given ? { delta: planned.plan.delta, state: given } : routePending(member, planned.plan, rules, at.getTime());
    // Campaign shares of an order wait and are taken back with it; a grant that waits still counts now.
    const bonus = moveBonuses(routed.state, planned.plan.grants ?? [], planned.plan.reversals ?? [], rules, at.getTime());
    const waitingSteps = bonus.waiting.flatMap((g) => g.steps);
    const p = { ...planned.plan, delta: routed.delta, grants: bonus.now, steps: [...(planned.plan.steps ?? []), ...waitingSteps] };
    if (p.requireActive && member.status !== 'active') {
      throw new AppError('CONFLICT', 'The member is unenrolled; points can no longer be awarded');
    }
    if (p.requireNonNegative && member.balance + p.delta.balance < 0) {
      throw new AppError('INSUFFICIENT_POINTS', `The balance is ${member.balance}; cannot deduct ${-p.delta.balance}`);
    }
    const granted = (p.grants ?? []).reduce((sum, g) => sum + g.points, 0);
    const moved = bonus.delta;
    const next = {
      balance: member.balance + p.delta.balance + granted + moved.balance,
      pending: member.pending + p.delta.pending + moved.pending,
      lifetime: member.lifetime + p.delta.lifetime + granted + moved.lifetime,
      orderCount: member.orderCount + p.delta.orderCount,
    };
    // The tier metric moves with lifetime points: pending points count once they activate.
    const points = p.delta.lifetime + granted + moved.lifetime;
    const tier = evaluateMemberTier(member, tierRecord, { next, points, orders: p.delta.orderCount }, rules, at);
    if (p.onlyIfTierMoves && tier.change === null && tier.tier === member.tier && tier.record.reviewAt === (tierRecord?.reviewAt ?? null)) {
      return p.onlyIfTierMoves.unchanged(member);
    }
    const change = { next, tier, lotsBefore: bonus.state, lotsRead: read.lots, rules, expired, reversals: bonus.entries };
    const { steps, result } = changeSteps(workspaceId, member, p, change, at.toISOString(), opts, store);
    try {
      await store.transactWrite(steps);
    } catch (err) {
      // The member as the failed condition saw it: the next attempt plans on it without a read.
      if (err instanceof repo.MemberChanged && err.current) fresh = err.current;
      throw err;
    }
    return result;
  };
  return inKeyOrder(`member:${workspaceId}/${memberId}`, (waited) => {
    // A member read before another change of this process ran is stale: read it again.
    fresh = waited ? undefined : preloaded;
    freshTier = waited ? undefined : preloadedTier;
    return withOptimisticRetry(attempt);
  });
}

/**
 * The steps of one change (balance and lots, entries, tier state, grants, the plan's own, events,
 * seal) and its answer. The lots follow the change's entries unless the plan keeps them itself.
 */
function changeSteps<R>(
  workspaceId: string,
  member: MemberRecord,
  p: ChangePlan<R>,
  change: {
    next: Omit<repo.BalanceState, 'tier' | 'rev'>;
    tier: MemberTierOutcome;
    lotsBefore: MemberLotsRecord;
    rules: ProgramRules;
    /** What lapsed and expired before the change (`settleLapsed`): its entry comes first. */
    expired: { points: number; at: number } | null;
    /** The entries of the campaign shares the change takes back: after the grants'. */
    reversals: BonusMoves<PlannedGrant>['entries'];
    /** The lots as read, before what lapsed was settled (the points aggregates count the difference). */
    lotsRead: MemberLotsRecord | undefined;
  },
  at: string,
  opts: WriteOptions<R>,
  store: LedgerStore,
): { steps: TransactStep[]; result: R } {
  const { next, tier: t, rules } = change;
  const tier = t.tier;
  const grants = p.grants ?? [];
  const lapsed = change.expired?.points ? expiryEntry(member, change.expired.points, new Date(change.expired.at).toISOString()) : null;
  const all = entriesOf(lapsed ? { ...member, rev: lapsed.rev } : member, p, change.reversals, at);
  const entries = all.slice(0, 1 + pointGrants(p).length);
  const reversalEntries = all.slice(entries.length);
  const [entry, ...grantEntries] = entries;
  const lots = p.lots ?? lotsAfter(change.lotsBefore, all, rules, Date.parse(at));
  const lotsChanged = member.lots !== undefined || lots.lots.length > 0 || lots.pending.length > 0;
  const dueAt = nextDueAt(lots, rules.points);
  const lotsState = lotsChanged ? { lots, dueAt: dueAt === null ? null : new Date(dueAt).toISOString() } : {};
  const rev = member.rev + (lapsed ? 2 : 1) + pointGrants(p).length + reversalEntries.length;
  const activeDay = firstActivityOf(member, all, p.delta.orderCount, localDay(Date.parse(at), rules.timeZone));
  const after: MemberRecord = { ...member, ...next, tier, rev, updatedAt: at, ...(lotsChanged ? { lots } : {}), ...(activeDay ? { activeDay } : {}) };
  const result = p.result({ member: after, entry: entry ? toLedgerEntry(entry) : null, tierUpgraded: t.change === 'upgraded', tierChange: t.change });
  const memberId = member.id;
  const steps: TransactStep[] = [
    store.balanceStep(member, { ...next, tier, rev: after.rev, ...lotsState, ...(activeDay ? { activeDay } : {}) }, at, p.requireActive ?? false),
    ...[lapsed, entry, ...grantEntries, ...reversalEntries].flatMap((e) =>
      e ? [{ ...store.ledgerEntryStep(workspaceId, e), onCommitted: () => countPoints(e.amount) }] : [],
    ),
    store.memberTierStep(workspaceId, t.record),
    ...grants.flatMap((g) => g.steps),
    ...(p.steps ?? []),
    ...pointsDaySteps(
      workspaceId,
      dayMoves({
        lapsed,
        entries: all,
        lots: { read: change.lotsRead, settled: member.lots, written: lotsChanged ? lots : member.lots },
        orders: Math.max(p.delta.orderCount, 0),
        also: { ...tierMove(member.tier, tier), ...(activeDay ? activityMove(member.activeDay, activeDay) : {}) },
        at: Date.parse(at),
        timeZone: rules.timeZone,
      }),
    ),
    ...publish(workspaceId, [
      ...(lapsed ? [event('points.expired', { resource_id: lapsed.id, member_ref: memberId, tier })] : []),
      ...(p.events ?? []),
      ...(entry && p.entryEvent ? [event(p.entryEvent, { resource_id: entry.id, member_ref: memberId, tier })] : []),
      ...(entry && entry.amount > 0 && !p.quiet ? [event('loyalty.points_earned', { resource_id: entry.id, member_ref: memberId, tier })] : []),
      // A campaign's share of an order that waited reaches the balance now: the reward lands.
      ...(entry?.type === 'campaign' && entry.source.campaignId && !p.announced
        ? [event('campaign.reward_granted', { resource_id: entry.id, member_ref: memberId, campaign_id: entry.source.campaignId })]
        : []),
      ...grantEntries
        .filter((_, i) => !pointGrants(p)[i]!.announced)
        .map((e) => event('campaign.reward_granted', { resource_id: e!.id, member_ref: memberId, campaign_id: e!.source.campaignId! })),
      ...grants.flatMap((g) =>
        g.reward ? [...g.reward.events, event('campaign.reward_granted', { resource_id: g.reward.id, member_ref: memberId, campaign_id: g.campaignId })] : [],
      ),
      ...(t.change === 'upgraded' ? [event('loyalty.tier_upgraded', { resource_id: memberId, member_ref: memberId, tier })] : []),
      ...(t.change === 'downgraded' ? [event('loyalty.tier_downgraded', { resource_id: memberId, member_ref: memberId, tier })] : []),
    ]),
    ...sealSteps(opts, result),
  ];
  return { steps, result };
}

/**
 * The local day a change makes the member active for the first time that day, or undefined: active
 * is an order or a ledger entry other than an expiry (points lapsing is not the member's doing).
 */
function firstActivityOf(member: MemberRecord, entries: readonly (LedgerEntryRecord | null)[], orders: number, day: string): string | undefined {
  const active = orders > 0 || entries.some((e) => e !== null && e.type !== 'expire');
  return active && (member.activeDay ?? '') < day ? day : undefined;
}

/** How the ledger describes an expiry, whether the due work or a later change books it. */
export const EXPIRY: ChangePlan<unknown>['entry'] = {
  type: 'expire',
  reason: 'Points expired',
  source: { type: 'program', orderId: null, externalOrderId: null, apiKeyId: null },
};

/** The expiry a change books first: the points that lapsed before it, dated at the last of their dates. */
function expiryEntry(member: MemberRecord, points: number, at: string): LedgerEntryRecord {
  return { id: newId('ple'), memberId: member.id, rev: member.rev + 1, ...EXPIRY, amount: -points, balanceAfter: member.balance, createdAt: at };
}

/**
 * The ledger entries of a change, in order: the plan's own (null when the balance does not move)
 * at the next revision, then one per campaign grant, then one per campaign share taken back from
 * the balance, each at the revision after. `balanceAfter` runs through them.
 */
function entriesOf(member: MemberRecord, p: ChangePlan<unknown>, reversals: BonusMoves<PlannedGrant>['entries'], at: string): (LedgerEntryRecord | null)[] {
  let balance = member.balance + p.delta.balance;
  const own: LedgerEntryRecord | null =
    p.delta.balance === 0
      ? null
      : {
          id: p.entry.id ?? newId('ple'),
          memberId: member.id,
          rev: member.rev + 1,
          type: p.entry.type,
          amount: p.delta.balance,
          balanceAfter: balance,
          reason: p.entry.reason,
          source: p.entry.source,
          ...(p.entry.outsideTier ? { outsideTier: true as const } : {}),
          createdAt: at,
        };
  const grants = pointGrants(p).map((g, i): LedgerEntryRecord => {
    balance += g.points;
    return {
      id: newId('ple'),
      memberId: member.id,
      rev: member.rev + 2 + i,
      type: 'campaign',
      amount: g.points,
      balanceAfter: balance,
      reason: g.reason,
      source: g.source,
      createdAt: at,
    };
  });
  const back = reversals.map((r, i): LedgerEntryRecord => {
    balance += r.amount;
    const rev = member.rev + 2 + grants.length + i;
    return {
      id: newId('ple'),
      memberId: member.id,
      rev,
      type: r.type,
      amount: r.amount,
      balanceAfter: balance,
      reason: r.reason,
      source: r.source,
      createdAt: at,
    };
  });
  return [own, ...grants, ...back];
}

/** Points credited or debited by a committed ledger entry (debits as a positive amount). */
function countPoints(amount: number): void {
  if (amount > 0) emitMetric('pointsEarned', amount);
  else if (amount < 0) emitMetric('pointsDeducted', -amount);
}

export function toLedgerEntry(r: LedgerEntryRecord): LedgerEntry {
  const reversed = r.reversedBy ? { reversedBy: r.reversedBy } : {};
  const outside = r.outsideTier ? { outsideTier: r.outsideTier } : {};
  return {
    id: r.id,
    type: r.type,
    amount: r.amount,
    balanceAfter: r.balanceAfter,
    reason: r.reason,
    source: r.source,
    ...outside,
    ...reversed,
    createdAt: r.createdAt,
  };
}
