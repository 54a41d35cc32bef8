import { memberEntity, type MemberRecord, type MemberTierRecord } from './entities';
import { indexKeysOf, indexPartition, keyOf } from '../platform/data/keys';
import { getItem, getItemsTogether } from '../platform/data/items';
import { indexPage, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';

const key = (workspaceId: string, memberId: string) => keyOf('memberTier', { workspaceId, memberId });

const tierOf = (item: MemberTierRecord | undefined): MemberTierRecord | undefined =>
  item ? { memberId: item.memberId, reachedAt: item.reachedAt, retainedUntil: item.retainedUntil, days: item.days, reviewAt: item.reviewAt } : undefined;

export async function getMemberTier(workspaceId: string, memberId: string): Promise<MemberTierRecord | undefined> {
  return tierOf(await getItem<MemberTierRecord>(key(workspaceId, memberId)));
}

/**
 * A member and its tier record as of one moment, in one request: a points change plans on both.
 * The tier record is written only in the member's own transactions, so one read apart from the
 * member must not be older than it (the change's condition on the member's revision would then
 * pass on a stale tier); read together they agree.
 */
export async function getMemberWithTier(workspaceId: string, memberId: string): Promise<{ member?: MemberRecord; tier?: MemberTierRecord }> {
  const [member, tier] = await getItemsTogether<Record<string, unknown>>([keyOf('member', { workspaceId, memberId }), key(workspaceId, memberId)]);
  return { member: member ? memberEntity.fromItem(member) : undefined, tier: tierOf(tier as MemberTierRecord | undefined) };
}

/**
 * Replaces a member's tier state. Unconditional: it is written only in the transaction of a change
 * of the member item, whose condition on the member's revision orders the writers. The review
 * index keys are present only while a review is due, so the index holds only those members.
 */
export function memberTierStep(workspaceId: string, record: MemberTierRecord): TransactStep {
  const due = record.reviewAt ? indexKeysOf('memberTier', { workspaceId, memberId: record.memberId, reviewAt: record.reviewAt }) : {};
  return { op: { Put: { Item: { ...key(workspaceId, record.memberId), ...due, entity: 'memberTier', ...record } } } };
}

/** A tier state whose member was erased leaves the review index with it. */
export function deleteMemberTierStep(workspaceId: string, memberId: string): TransactStep {
  return { op: { Delete: { Key: key(workspaceId, memberId) } } };
}

/** Members whose tier review is due at `now` (ISO) or earlier, earliest first. */
export async function dueTierReviews(
  workspaceId: string,
  now: string,
  opts: { limit: number; cursor?: string },
): Promise<Page<{ memberId: string; reviewAt: string }>> {
  const page = await indexPage<MemberTierRecord>('gsi2', indexPartition('memberTier', 'gsi2', { workspaceId }), {
    limit: opts.limit,
    cursor: opts.cursor,
    forward: true,
    // The sort key is `{reviewAt}#{memberId}`: '$' sorts after '#', so every review due at `now` is in.
    range: { to: `${now}$` },
  });
  return { items: page.items.map((i) => ({ memberId: i.memberId, reviewAt: i.reviewAt! })), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
