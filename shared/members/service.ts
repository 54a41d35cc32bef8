import { expiring, NO_LOTS } from './member-lots';
import { figuresStep } from '../overview';
import * as repo from './repository';
import type { OutboxEvent } from '../platform/events/registry';
import { withOptimisticRetry } from '../platform/data/concurrency';
import type { Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
import { transactWrite } from './repository';
import { event, publish } from '../platform/events/outbox';
import { newId } from '../platform/ids';
import { nextTier, tierFor, rulesOf, tierReviewAt, programNow } from '../program';
import { getMemberTier } from './tier-repository';
import { metricNow, tierStateOf } from './tier-state';
import type { MemberTriggers, OwedGrants } from './triggers';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { changePoints, loadMember, loadWritableMember, NO_DELTA, toLedgerEntry, tableLedgerStore } from './ledger';
import type { CreateMemberInput, Member, UpdateMemberInput } from './schemas';
import { searchTextOf, toMember, type PointsResult } from './types';
import { correctionPlan } from './corrections';
import type { MemberRecord } from './entities';
import { refuseCursor } from '../platform/data/cursor';
import { audited, type AuditContext } from '../audit';
import { refuseOversized } from '../platform/data/stored-size';
import { assertWithinPointsCeiling } from '../platform/contract/permissions';
import type { Role } from '../platform/contract/roles';

type Profile = Pick<MemberRecord, 'email' | 'externalId' | 'firstName' | 'lastName' | 'phone' | 'birthDate' | 'customAttributes'>;

/** Applies a create or patch body to a profile: absent keeps, null clears; attributes merge key by key. */
export function applyProfile(base: Profile, input: CreateMemberInput | UpdateMemberInput): Profile {
  const pick = <K extends keyof Profile>(k: K): Profile[K] => {
    const v = (input as Record<string, unknown>)[k];
    return (v === undefined ? base[k] : v) as Profile[K];
  };
  const attributes = { ...base.customAttributes };
  for (const [k, v] of Object.entries(input.customAttributes ?? {})) {
    if (v === null) delete attributes[k];
    else attributes[k] = v;
  }
  return {
    email: pick('email'),
    externalId: pick('externalId'),
    firstName: pick('firstName'),
    lastName: pick('lastName'),
    phone: pick('phone'),
    birthDate: pick('birthDate'),
    customAttributes: attributes,
  };
}

export async function newMemberRecord(workspaceId: string, input: CreateMemberInput, now: Date): Promise<MemberRecord> {
  const rules = await rulesOf(workspaceId);
  const profile = applyProfile({ email: null, externalId: null, firstName: null, lastName: null, phone: null, birthDate: null, customAttributes: {} }, input);
  const at = now.toISOString();
  const record: MemberRecord = {
    id: newId('mbr'),
    workspaceId,
    ...profile,
    status: 'active',
    tier: tierFor(0, rules.tiers.levels).key,
    balance: 0,
    pending: 0,
    lifetime: 0,
    orderCount: 0,
    tags: [],
    rev: 0,
    version: 1,
    searchText: searchTextOf(profile),
    createdAt: at,
    updatedAt: at,
  };
  refuseOversized(record, 'member', { fields: profile.customAttributes, at: 'customAttributes.' });
  return record;
}

/**
 * The writes and the `member.created` event of a new member, for callers that enrol a member inside
 * a transaction of their own (a capture): the steps include the unique e-mail/externalId lookups and
 * the record of the welcome campaigns' rewards (`owed.settle` grants them once the transaction committed).
 */
export async function memberCreation(
  workspaceId: string,
  input: CreateMemberInput,
  triggers: MemberTriggers,
  now = new Date(),
): Promise<{ record: MemberRecord; member: Member; steps: TransactStep[]; events: OutboxEvent[]; owed: OwedGrants }> {
  const record = await newMemberRecord(workspaceId, input, now);
  const owed = await triggers(workspaceId, record.id, { type: 'member_created', key: 'member_created' });
  return {
    record,
    member: toMember(record),
    steps: [...repo.createMemberSteps(record), ...figuresStep(workspaceId, { members: 1 }, { [record.tier]: 1 }), ...owed.steps],
    events: [event('member.created', { resource_id: record.id, member_ref: record.id, tier: record.tier }, now)],
    owed,
  };
}

export async function createMember(
  workspaceId: string,
  input: CreateMemberInput,
  triggers: MemberTriggers,
  opts: WriteOptions<Member> = {},
  now = new Date(),
): Promise<Member> {
  const { member, steps, events, owed } = await memberCreation(workspaceId, input, triggers, now);
  await transactWrite([...steps, ...publish(workspaceId, events), ...sealSteps(opts, member)]);
  await owed.settle();
  return member;
}

export async function getMember(workspaceId: string, memberId: string): Promise<Member> {
  return toMember(await loadMember(workspaceId, memberId));
}

const sameProfile = (a: Profile & { status?: string }, b: Profile & { status?: string }) =>
  JSON.stringify([a.email, a.externalId, a.firstName, a.lastName, a.phone, a.birthDate, a.status, sortKeys(a.customAttributes)]) ===
  JSON.stringify([b.email, b.externalId, b.firstName, b.lastName, b.phone, b.birthDate, b.status, sortKeys(b.customAttributes)]);

const sortKeys = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/**
 * Changes the profile of a member we read, conditional on its profile version (re-read and
 * re-applied on a concurrent change). Returns whether anything changed.
 */
export async function updateMemberRecord(
  workspaceId: string,
  memberId: string,
  input: UpdateMemberInput,
  now = new Date(),
): Promise<{ member: MemberRecord; changed: boolean }> {
  return withOptimisticRetry(async () => {
    const current = await loadWritableMember(workspaceId, memberId);
    const profile = applyProfile(current, input);
    const status = input.status ?? current.status;
    if (sameProfile({ ...current }, { ...profile, status })) return { member: current, changed: false };
    const next: MemberRecord = {
      ...current,
      ...profile,
      status,
      searchText: searchTextOf(profile),
      updatedAt: now.toISOString(),
      version: current.version + 1,
    };
    refuseOversized(next, 'member', { fields: profile.customAttributes, at: 'customAttributes.' });
    await transactWrite(repo.updateProfileSteps(current, next));
    return { member: next, changed: true };
  });
}

export async function updateMember(workspaceId: string, memberId: string, input: UpdateMemberInput): Promise<Member> {
  return toMember((await updateMemberRecord(workspaceId, memberId, input)).member);
}

export interface MemberQuery {
  limit: number;
  cursor?: string;
  email?: string;
  externalId?: string;
  tier?: string;
  status?: string;
  tag?: string;
  q?: string;
}

export async function listMembers(workspaceId: string, query: MemberQuery): Promise<Page<Member>> {
  // Exact identifiers are unique: one lookup, no listing.
  if (query.email !== undefined || query.externalId !== undefined) {
    refuseCursor(query.cursor);
    const ids = await Promise.all([
      query.email !== undefined ? repo.memberIdByEmail(workspaceId, query.email) : undefined,
      query.externalId !== undefined ? repo.memberIdByExternalId(workspaceId, query.externalId) : undefined,
    ]);
    const wanted = ids.filter((x): x is string => x !== undefined);
    const bothGiven = query.email !== undefined && query.externalId !== undefined;
    const id = bothGiven ? (wanted.length === 2 && wanted[0] === wanted[1] ? wanted[0] : undefined) : wanted[0];
    const member = id ? await repo.getMember(workspaceId, id) : undefined;
    const matches =
      member &&
      (!query.tier || member.tier === query.tier) &&
      (!query.status || member.status === query.status) &&
      (!query.tag || member.tags.includes(query.tag)) &&
      (!query.q || member.searchText.includes(query.q.toLowerCase()));
    return { items: matches ? [toMember(member)] : [] };
  }
  const page = await repo.listMembers(workspaceId, query, query.limit, query.cursor);
  return { ...page, items: page.items.map(toMember) };
}

export async function pointsOf(workspaceId: string, memberId: string, limit: number, cursor?: string) {
  const [member, page, rules] = await Promise.all([
    loadMember(workspaceId, memberId),
    repo.ledgerPage(workspaceId, memberId, limit, cursor),
    rulesOf(workspaceId),
  ]);
  return {
    data: {
      balance: member.balance,
      pending: member.pending,
      lifetime: member.lifetime,
      expiring: expiring(member.lots ?? NO_LOTS, rules.points),
      entries: page.items.map(toLedgerEntry),
    },
    nextCursor: page.nextCursor ?? null,
  };
}

export type { PointsResult } from './types';

/**
 * A manual earn, deduct or correction with its reason; a deduction never takes the balance below zero.
 * Whoever makes it (a user in the console, an API key over REST or MCP), its audit entry commits in
 * the change's own transaction, and the ledger's `apiKeyId` is read from the same actor.
 */
export async function changePointsManually(
  workspaceId: string,
  memberId: string,
  input: { type: 'earn' | 'deduct' | 'correction'; amount: number; reason: string; countTowardTier?: boolean },
  /** `role`: the console user's, whose points ceiling the change stays within. */
  actor: { audit: AuditContext; role?: Role },
  opts: WriteOptions<PointsResult> = {},
): Promise<PointsResult> {
  if (actor.role) assertWithinPointsCeiling(actor.role, input.amount, { in: 'body', field: 'amount' });
  const earn = input.type === 'earn';
  // A goodwill earn (the schema allows `false` on an earn only) lifts neither lifetime nor the tier.
  const outsideTier = input.countTowardTier === false;
  const { audit } = actor;
  const apiKeyId = audit.actor.type === 'apiKey' ? audit.actor.id : null;
  return changePoints({
    store: tableLedgerStore,
    workspaceId,
    memberId,
    plan: (member) => ({
      plan: {
        ...(input.type === 'correction'
          ? correctionPlan(member, input.amount, input.reason, apiKeyId)
          : {
              delta: { ...NO_DELTA, balance: earn ? input.amount : -input.amount, lifetime: earn && !outsideTier ? input.amount : 0 },
              entry: {
                type: input.type,
                reason: input.reason,
                source: { type: 'manual' as const, orderId: null, externalOrderId: null, apiKeyId },
                ...(outsideTier ? { outsideTier: true as const } : {}),
              },
            }),
        // A spend stays within the balance; a correction, like a refund, may take it below zero.
        requireNonNegative: input.type === 'deduct',
        requireActive: earn,
        steps: [audited(workspaceId, audit, 'member.points_adjusted', { type: 'member', id: memberId }, new Date())],
        result: ({ member, entry }) => ({
          entry: entry!,
          points: { balance: member.balance, pending: member.pending, lifetime: member.lifetime },
          tier: member.tier,
        }),
      },
    }),
    write: opts,
  });
}

/** What the console shows of one member: the profile with its tags and points, and the tier progress. */
export async function memberProfile(workspaceId: string, memberId: string) {
  const [record, tier] = await Promise.all([loadMember(workspaceId, memberId), tierStatus(workspaceId, memberId)]);
  return { member: toMember(record), tier, erasedAt: record.erasedAt ?? null };
}

/**
 * A member's tier explained: the metric in the window now, what the next tier needs, and until when
 * the current tier is kept without further activity.
 */
export async function tierStatus(workspaceId: string, memberId: string, when?: Date) {
  const [member, rules, record, at] = await Promise.all([
    loadMember(workspaceId, memberId),
    rulesOf(workspaceId),
    getMemberTier(workspaceId, memberId),
    when ?? programNow(workspaceId),
  ]);
  const levels = rules.tiers.levels;
  const value = metricNow(member, record, rules, at);
  // The stored tier is what the member has; a key the ladder no longer knows falls back to the computed one.
  const current = levels.find((l) => l.key === member.tier) ?? tierFor(value, levels);
  const next = nextTier(Math.max(value, current.threshold), levels);
  const span = next ? next.threshold - current.threshold : 0;
  const { state, days } = tierStateOf({ ...member, tier: current.key }, record);
  const until = tierReviewAt(state, days, value, rules.tiers, at.getTime(), rules.timeZone);
  return {
    current,
    next,
    metric: rules.tiers.metric,
    window: rules.tiers.window,
    value,
    remaining: next ? Math.max(0, next.threshold - value) : null,
    progress: next ? Math.min(1, Math.max(0, (value - current.threshold) / span)) : 1,
    retainedUntil: until === null ? null : new Date(until).toISOString(),
  };
}
