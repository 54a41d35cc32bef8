import { ledgerEntryEntity, type LedgerEntryRecord, memberEntity, type MemberLotsRecord, type MemberRecord } from './entities';
import { AppError, memberErased } from '../platform/errors';
import { indexKeysOf, indexPartition, keyOf, skPrefix } from '../platform/data/keys';
import { correlationId } from '../platform/observability/correlation';
import { StaleRead } from '../platform/data/concurrency';
import { getItem, type Item } from '../platform/data/items';
import { filterExpression, indexPage, prefixPage, queryRaw, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

/**
 * Erasure is terminal: every write of the member item (profile, points, tags) and every check a
 * write of the member's other data makes on it holds only while the member carries no `erasedAt`.
 * A write that fails it is refused with MEMBER_ERASED, whatever else its condition checked.
 */
export const NOT_ERASED = 'attribute_not_exists(erasedAt)';

/** The error of a failed condition on the member item: MEMBER_ERASED when the member was erased. */
export const erasedOr =
  (otherwise: (member: Item | undefined) => Error) =>
  (member?: Item): Error =>
    member?.erasedAt ? memberErased() : otherwise(member);

/**
 * Every write of a member records the request that made it (`lastRequestId`), or removes the one
 * of an earlier change when no request made this one: the table stream carries it to the wallet
 * push, which has no outbox item to read it from.
 */
const requestIdSet = (): { set: string; remove: string; values: Record<string, string> } => {
  const id = correlationId();
  return id ? { set: ', lastRequestId = :rid', remove: '', values: { ':rid': id } } : { set: '', remove: ' REMOVE lastRequestId', values: {} };
};

const memberItem = (m: MemberRecord) => memberEntity.toItem(m, { lastRequestId: correlationId() });

/** The e-mail or externalId of a new member belongs to a member already (maybe one created just now). */
export class IdentityTaken extends AppError {
  constructor(what: string) {
    super('CONFLICT', `A member with this ${what} already exists`);
  }
}

const lookupPut = (entity: 'memberEmail' | 'memberExternalId', workspaceId: string, value: string, memberId: string, what: string): TransactStep => ({
  op: {
    Put: {
      Item: {
        ...(entity === 'memberEmail' ? keyOf(entity, { workspaceId, email: value }) : keyOf(entity, { workspaceId, externalId: value })),
        entity,
        memberId,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  onConditionFailed: () => new IdentityTaken(what),
});

const lookupDelete = (entity: 'memberEmail' | 'memberExternalId', workspaceId: string, value: string, memberId: string): TransactStep => ({
  op: {
    Delete: {
      Key: entity === 'memberEmail' ? keyOf(entity, { workspaceId, email: value }) : keyOf(entity, { workspaceId, externalId: value }),
      ConditionExpression: 'memberId = :m',
      ExpressionAttributeValues: { ':m': memberId },
    },
  },
  onConditionFailed: () => new StaleRead('member'),
});

/** The member and its unique e-mail / externalId lookups (and its birthday's index entry), all or nothing. */
export function createMemberSteps(m: MemberRecord): TransactStep[] {
  return [
    { op: { Put: { Item: memberItem(m), ConditionExpression: 'attribute_not_exists(pk)' } } },
    ...(m.email ? [lookupPut('memberEmail', m.workspaceId, m.email, m.id, 'e-mail')] : []),
    ...(m.externalId ? [lookupPut('memberExternalId', m.workspaceId, m.externalId, m.id, 'externalId')] : []),
    ...birthdaySteps(null, m),
  ];
}

/**
 * A member removed as if never created (an import undone): the member item, conditional on the
 * profile version and points revision the caller read it at, its lookups and its birthday item.
 */
export function removeMemberSteps(m: MemberRecord): TransactStep[] {
  return [
    {
      op: {
        Delete: {
          Key: keyOf('member', { workspaceId: m.workspaceId, memberId: m.id }),
          ConditionExpression: `version = :v AND rev = :rev AND ${NOT_ERASED}`,
          ExpressionAttributeValues: { ':v': m.version, ':rev': m.rev },
        },
      },
      onConditionFailed: () => new StaleRead('member'),
    },
    ...(m.email ? [lookupDelete('memberEmail', m.workspaceId, m.email, m.id)] : []),
    ...(m.externalId ? [lookupDelete('memberExternalId', m.workspaceId, m.externalId, m.id)] : []),
    ...birthdaySteps(m.birthDate, { ...m, birthDate: null }),
  ];
}

/**
 * The birthday index (a `memberBirthday` item per member with a birth date, by month and day): set
 * when the birth date is set, moved when it changes, removed when it is cleared (an erasure too).
 */
function birthdaySteps(before: string | null, m: MemberRecord): TransactStep[] {
  if (before === m.birthDate) return [];
  const key = keyOf('memberBirthday', { workspaceId: m.workspaceId, memberId: m.id });
  if (!m.birthDate) return [{ op: { Delete: { Key: key } } }];
  const index = indexKeysOf('memberBirthday', { workspaceId: m.workspaceId, memberId: m.id, monthDay: m.birthDate.slice(5, 10) });
  return [{ op: { Put: { Item: { ...key, ...index, entity: 'memberBirthday', memberId: m.id } } } }];
}

/**
 * What a member written before the birthday and activity indexes existed lacks: its birthday item and
 * its activity key, conditional on the member as read (a change meanwhile fails it: read again).
 */
export function indexEntriesSteps(m: MemberRecord): TransactStep[] {
  const Key = keyOf('member', { workspaceId: m.workspaceId, memberId: m.id });
  const last = m.lots?.lastActivityAt ?? null;
  if (last === null && !m.birthDate) return [];
  const values = { ':v': m.version, ':rev': m.rev };
  const ConditionExpression = `version = :v AND rev = :rev AND ${NOT_ERASED}`;
  const onConditionFailed = () => new StaleRead('member');
  if (last === null)
    return [{ op: { ConditionCheck: { Key, ConditionExpression, ExpressionAttributeValues: values } }, onConditionFailed }, ...birthdaySteps(null, m)];
  const activity = indexKeysOf('memberActivity', { workspaceId: m.workspaceId, memberId: m.id, lastActivityAt: new Date(last).toISOString() });
  return [
    {
      op: {
        Update: {
          Key,
          UpdateExpression: 'SET gsi3pk = :actpk, gsi3sk = :actsk',
          ConditionExpression,
          ExpressionAttributeValues: { ...values, ':actpk': activity.gsi3pk, ':actsk': activity.gsi3sk },
        },
      },
      onConditionFailed,
    },
    ...birthdaySteps(null, m),
  ];
}

/** The members whose birth date falls on `monthDay` (MM-DD), a page at a time. */
export async function birthdayMembers(workspaceId: string, monthDay: string, cursor?: string): Promise<Page<string>> {
  const partition = indexPartition('memberBirthday', 'gsi1', { workspaceId });
  const page = await indexPage<{ memberId: string }>('gsi1', partition, {
    limit: 100,
    cursor,
    forward: true,
    range: { from: `${monthDay}#`, to: `${monthDay}#~` },
  });
  return { ...page, items: page.items.map((i) => i.memberId) };
}

/** The members whose last earn or spend is in (`after`, `through`] (ISO instants), a page at a time. */
export async function lastActiveBetween(
  workspaceId: string,
  after: string,
  through: string,
  cursor?: string,
): Promise<Page<{ memberId: string; lastActivityAt: number }>> {
  const partition = indexPartition('memberActivity', 'gsi3', { workspaceId });
  // '~' sorts after every id character: `after` itself is left out, `through` kept.
  const page = await indexPage<{ id: string; lots: MemberLotsRecord }>('gsi3', partition, {
    limit: 100,
    cursor,
    forward: true,
    range: { from: `${after}#~`, to: `${through}#~` },
  });
  return { ...page, items: page.items.map((i) => ({ memberId: i.id, lastActivityAt: i.lots.lastActivityAt! })) };
}

/** An erased member leaves the due and activity indexes too: its points take no more changes, so nothing of them falls due. */
const removeClause = (requestIdRemove: string, erased: boolean): string => {
  const names = [...(requestIdRemove ? ['lastRequestId'] : []), ...(erased ? ['gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'] : [])];
  return names.length ? ` REMOVE ${names.join(', ')}` : '';
};

/** Replaces the profile part of a member we read (conditional on its profile version). */
export function updateProfileSteps(current: MemberRecord, next: MemberRecord): TransactStep[] {
  const swap = (entity: 'memberEmail' | 'memberExternalId', before: string | null, after: string | null, what: string): TransactStep[] =>
    before === after
      ? []
      : [
          ...(after ? [lookupPut(entity, current.workspaceId, after, current.id, what)] : []),
          ...(before ? [lookupDelete(entity, current.workspaceId, before, current.id)] : []),
        ];
  const rid = requestIdSet();
  return [
    {
      op: {
        Update: {
          Key: keyOf('member', { workspaceId: current.workspaceId, memberId: current.id }),
          UpdateExpression:
            'SET email = :email, externalId = :ext, firstName = :fn, lastName = :ln, phone = :phone, birthDate = :bd, ' +
            `#status = :status, customAttributes = :ca, searchText = :st, updatedAt = :now, version = :next${next.erasedAt ? ', erasedAt = :erased' : ''}${rid.set}${removeClause(rid.remove, !!next.erasedAt)}`,
          ConditionExpression: `version = :v AND ${NOT_ERASED}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':email': next.email,
            ':ext': next.externalId,
            ':fn': next.firstName,
            ':ln': next.lastName,
            ':phone': next.phone,
            ':bd': next.birthDate,
            ':status': next.status,
            ':ca': next.customAttributes,
            ':st': next.searchText,
            ':now': next.updatedAt,
            ':v': current.version,
            ':next': current.version + 1,
            ...(next.erasedAt ? { ':erased': next.erasedAt } : {}),
            ...rid.values,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: erasedOr(() => new StaleRead('member')),
    },
    ...swap('memberEmail', current.email, next.email, 'e-mail'),
    ...swap('memberExternalId', current.externalId, next.externalId, 'externalId'),
    ...birthdaySteps(current.birthDate, next),
  ];
}

/**
 * The member's points state changed since we read it (or the member was unenrolled, for an award).
 * Carries the member as the failed condition saw it, so the retry needs no read of its own.
 */
export class MemberChanged extends StaleRead {
  constructor(readonly current: MemberRecord | undefined) {
    super('member');
  }
}

export interface BalanceState {
  balance: number;
  pending: number;
  lifetime: number;
  orderCount: number;
  tier: string;
  /** The member's revision after the change: one more per ledger entry it writes (default: one more). */
  rev?: number;
  /** The member's lots and pending points after the change (absent: unchanged). */
  lots?: MemberLotsRecord;
  /** When something next falls due for the member (ISO; null: nothing): its key in the due index. */
  dueAt?: string | null;
  /** The member's first activity of this local day (absent: not active, or already that day). */
  activeDay?: string;
}

/**
 * The due index of a workspace: members with something that falls due (activation, warning,
 * expiry), by that time. Set and removed with the member's points (`balanceStep`), so the due-work
 * run reads only the members whose time has come.
 */
function dueIndexUpdate(workspaceId: string, memberId: string, next: BalanceState): { set: string; remove: string[]; values: Record<string, unknown> } {
  if (next.lots === undefined) return { set: '', remove: [], values: {} };
  const activity = activityIndexUpdate(workspaceId, memberId, next.lots);
  if (!next.dueAt) return { set: `, lots = :lots${activity.set}`, remove: ['gsi2pk', 'gsi2sk'], values: { ':lots': next.lots, ...activity.values } };
  const keys = indexKeysOf('memberDue', { workspaceId, memberId, dueAt: next.dueAt });
  return {
    set: `, lots = :lots, gsi2pk = :duepk, gsi2sk = :duesk${activity.set}`,
    remove: [],
    values: { ':lots': next.lots, ':duepk': keys.gsi2pk, ':duesk': keys.gsi2sk, ...activity.values },
  };
}

/** The activity index (gsi3) follows the member's last earn or spend, the start of its inactivity. */
function activityIndexUpdate(workspaceId: string, memberId: string, lots: MemberLotsRecord): { set: string; values: Record<string, unknown> } {
  if (lots.lastActivityAt === null) return { set: '', values: {} };
  const keys = indexKeysOf('memberActivity', { workspaceId, memberId, lastActivityAt: new Date(lots.lastActivityAt).toISOString() });
  return { set: ', gsi3pk = :actpk, gsi3sk = :actsk', values: { ':actpk': keys.gsi3pk, ':actsk': keys.gsi3sk } };
}

/** Members whose next due time is at or before `now` (ISO), earliest first. */
export async function dueMembers(workspaceId: string, now: string, limit: number): Promise<{ memberId: string; dueAt: string }[]> {
  const partition = indexPartition('memberDue', 'gsi2', { workspaceId });
  // '~' sorts after every id character: the range ends just after the members due at `now`.
  const page = await indexPage<{ id: string; gsi2sk: string }>('gsi2', partition, { limit, forward: true, range: { to: `${now}#~` } });
  return page.items.map((i) => ({ memberId: i.id, dueAt: i.gsi2sk.slice(0, i.gsi2sk.indexOf('#')) }));
}

/**
 * Sets the points state of a member we read at revision `current.rev`. The condition on `rev` makes
 * concurrent changes serialise (the loser tries again on the member the failed condition returns);
 * `requireActive` also refuses an award to a member who was unenrolled meanwhile.
 */
export function balanceStep(current: MemberRecord, next: BalanceState, now: string, requireActive: boolean): TransactStep {
  const rid = requestIdSet();
  const due = dueIndexUpdate(current.workspaceId, current.id, next);
  const removed = [...(rid.remove ? ['lastRequestId'] : []), ...due.remove];
  return {
    op: {
      Update: {
        Key: keyOf('member', { workspaceId: current.workspaceId, memberId: current.id }),
        UpdateExpression: `SET balance = :b, pending = :p, lifetime = :l, orderCount = :oc, tier = :t, rev = :next, updatedAt = :now${next.activeDay ? ', activeDay = :ad' : ''}${rid.set}${due.set}${removed.length ? ` REMOVE ${removed.join(', ')}` : ''}`,
        ConditionExpression: requireActive ? `rev = :rev AND #status = :active AND ${NOT_ERASED}` : `rev = :rev AND ${NOT_ERASED}`,
        ...(requireActive ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: {
          ':b': next.balance,
          ':p': next.pending,
          ':l': next.lifetime,
          ':oc': next.orderCount,
          ':t': next.tier,
          ':rev': current.rev,
          ':next': next.rev ?? current.rev + 1,
          ':now': now,
          ...(next.activeDay ? { ':ad': next.activeDay } : {}),
          ...rid.values,
          ...due.values,
          ...(requireActive ? { ':active': 'active' } : {}),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: erasedOr((item) => new MemberChanged(item ? memberEntity.fromItem(item) : undefined)),
  };
}

export function ledgerEntryStep(workspaceId: string, entry: LedgerEntryRecord): TransactStep {
  return {
    op: {
      Put: {
        Item: ledgerEntryEntity.toItem(entry, { workspaceId }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    onConditionFailed: () => new StaleRead('member'),
  };
}

/**
 * The member must exist when the transaction commits (no read before, no write to the member):
 * existence checks folded into the transaction of the write that depends on them.
 */
export function memberExistsStep(workspaceId: string, memberId: string, onMissing: () => Error): TransactStep {
  return {
    op: { ConditionCheck: { Key: keyOf('member', { workspaceId, memberId }), ConditionExpression: 'attribute_exists(pk)' } },
    onConditionFailed: onMissing,
  };
}

/** A write of the member's other data (a coupon's redemption, a pass) holds only while the member is not erased. */
export function memberNotErasedStep(workspaceId: string, memberId: string): TransactStep {
  return {
    op: { ConditionCheck: { Key: keyOf('member', { workspaceId, memberId }), ConditionExpression: NOT_ERASED } },
    onConditionFailed: () => memberErased(),
  };
}

export async function getMember(workspaceId: string, memberId: string): Promise<MemberRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(keyOf('member', { workspaceId, memberId }));
  return item ? memberEntity.fromItem(item) : undefined;
}

export async function memberIdByEmail(workspaceId: string, email: string): Promise<string | undefined> {
  return (await getItem<{ memberId: string }>(keyOf('memberEmail', { workspaceId, email })))?.memberId;
}

export async function memberIdByExternalId(workspaceId: string, externalId: string): Promise<string | undefined> {
  return (await getItem<{ memberId: string }>(keyOf('memberExternalId', { workspaceId, externalId })))?.memberId;
}

export interface MemberFilters {
  tier?: string;
  status?: string;
  tag?: string;
  q?: string;
}

/** Newest first through gsi1; tier, status, tag and free text narrow the page. */
export async function listMembers(workspaceId: string, filters: MemberFilters, limit: number, cursor?: string): Promise<Page<MemberRecord>> {
  const partition = indexPartition('member', 'gsi1', { workspaceId });
  const filter = filterExpression([
    { attr: 'tier', op: '=', value: filters.tier },
    { attr: 'status', op: '=', value: filters.status },
    { attr: 'tags', op: 'contains', value: filters.tag },
    { attr: 'searchText', op: 'contains', value: filters.q?.toLowerCase() },
  ]);
  const page = await indexPage<Record<string, unknown>>('gsi1', partition, { limit, cursor, filter });
  return { ...page, items: page.items.map(memberEntity.fromItem) };
}

/** A page of a member's ledger: newest first, or oldest first (revision order, what a replay needs). */
export async function ledgerPage(
  workspaceId: string,
  memberId: string,
  limit: number,
  cursor?: string,
  order: 'newest' | 'oldest' = 'newest',
): Promise<Page<LedgerEntryRecord>> {
  const { pk } = keyOf('member', { workspaceId, memberId });
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('ledgerEntry'), { limit, cursor, forward: order === 'oldest' });
  return { ...page, items: page.items.map(ledgerEntryEntity.fromItem) };
}

/**
 * The workspace's member ids a page at a time (newest first), resumable from the raw key a page
 * returns: for background work that keeps its own place in the table, not an API cursor.
 */
export async function memberIdsAfter(
  workspaceId: string,
  limit: number,
  after?: Record<string, unknown>,
): Promise<{ ids: string[]; next: Record<string, unknown> | undefined }> {
  const out = await queryRaw({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': indexPartition('member', 'gsi1', { workspaceId }) },
    ProjectionExpression: 'id',
    ScanIndexForward: false,
    Limit: limit,
    ExclusiveStartKey: after,
  });
  return { ids: (out.Items ?? []).map((i) => String(i.id)), next: out.LastEvaluatedKey };
}

/** A member's whole ledger, oldest first (revision order), read to the end. */
export async function wholeLedger(workspaceId: string, memberId: string): Promise<LedgerEntryRecord[]> {
  const { pk } = keyOf('member', { workspaceId, memberId });
  const entries: LedgerEntryRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await queryRaw({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix('ledgerEntry') },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    });
    entries.push(...(out.Items ?? []).map(ledgerEntryEntity.fromItem));
    start = out.LastEvaluatedKey;
  } while (start);
  return entries;
}

/**
 * One ledger entry of a member by its id: the member's ledger read newest first (entries carry no
 * index by id; corrections are rare and usually of recent entries), a page at a time until found.
 */
export async function findLedgerEntry(workspaceId: string, memberId: string, entryId: string): Promise<LedgerEntryRecord | undefined> {
  const { pk } = keyOf('member', { workspaceId, memberId });
  let cursor: string | undefined;
  do {
    const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('ledgerEntry'), {
      limit: 100,
      cursor,
      filters: [{ attr: 'id', op: '=', value: entryId }],
      consistent: true,
    });
    if (page.items[0]) return ledgerEntryEntity.fromItem(page.items[0]);
    cursor = page.nextCursor;
  } while (cursor);
  return undefined;
}

/** Marks an entry reversed by `by`, once: a second reversal (or a race of two) fails its condition. */
export function markReversedStep(workspaceId: string, entry: LedgerEntryRecord, by: string, onReversed: () => Error): TransactStep {
  return {
    op: {
      Update: {
        Key: ledgerEntryEntity.keyOf(entry, { workspaceId }),
        UpdateExpression: 'SET reversedBy = :by',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reversedBy)',
        ExpressionAttributeValues: { ':by': by },
      },
    },
    onConditionFailed: onReversed,
  };
}
