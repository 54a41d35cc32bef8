import type { MemberTierRecord } from './entities';
import { indexKeysOf, indexPartition, keyOf } from '../platform/data/keys';
import { getItem } from '../platform/data/items';
import { indexPage, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';

const key = (workspaceId: string, memberId: string) => keyOf('memberTier', { workspaceId, memberId });

export async function getMemberTier(workspaceId: string, memberId: string): Promise<MemberTierRecord | undefined> {
  const item = await getItem<MemberTierRecord>(key(workspaceId, memberId));
  return item ? { memberId: item.memberId, reachedAt: item.reachedAt, retainedUntil: item.retainedUntil, days: item.days, reviewAt: item.reviewAt } : undefined;
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
