import { type MemberRecord, erasedOr, NOT_ERASED } from '../members';
import { memberTagEntity, type MemberTagRecord, tagCounterEntity, type TagRecord } from './entities';
import { keyOf, skPrefix } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { queryPage, queryRaw, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

/**
 * Tags: the member's `tags` list (what the member list filters on), one `memberTag` item per
 * (member, tag) with the time it was added, and one `tagCounter` per tag. All three move in ONE
 * transaction conditional on the member's profile `version`, so concurrent tag changes serialise
 * (the loser re-reads) and every counter is exact.
 */

const memberKey = (m: MemberRecord) => keyOf('member', { workspaceId: m.workspaceId, memberId: m.id });

/** Sets the member's tag list, conditional on the profile version we read. */
function memberTagsStep(current: MemberRecord, tags: string[], now: string): TransactStep {
  return {
    op: {
      Update: {
        Key: memberKey(current),
        UpdateExpression: 'SET tags = :tags, updatedAt = :now, version = :next',
        ConditionExpression: `version = :v AND ${NOT_ERASED}`,
        ExpressionAttributeValues: { ':tags': tags, ':now': now, ':v': current.version, ':next': current.version + 1 },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: erasedOr(() => new StaleRead('member')),
  };
}

function counterStep(workspaceId: string, tag: string, delta: 1 | -1, now: string): TransactStep {
  return {
    op: {
      Update: {
        Key: keyOf('tagCounter', { workspaceId, tag }),
        UpdateExpression: 'SET entity = :e, #key = :key, updatedAt = :now, createdAt = if_not_exists(createdAt, :now) ADD memberCount :d',
        ExpressionAttributeNames: { '#key': 'key' },
        ExpressionAttributeValues: { ':e': 'tagCounter', ':key': tag, ':now': now, ':d': delta },
      },
    },
  };
}

export function addTagsSteps(current: MemberRecord, tags: string[], added: string[], now: string): TransactStep[] {
  const { workspaceId, id: memberId } = current;
  return [
    memberTagsStep(current, tags, now),
    ...added.flatMap((tag): TransactStep[] => [
      {
        op: {
          Put: {
            Item: memberTagEntity.toItem({ key: tag, taggedAt: now }, { workspaceId, memberId }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => new StaleRead('member'),
      },
      counterStep(workspaceId, tag, 1, now),
    ]),
  ];
}

export function removeTagSteps(current: MemberRecord, tags: string[], removed: string, now: string): TransactStep[] {
  const { workspaceId, id: memberId } = current;
  return [
    memberTagsStep(current, tags, now),
    {
      op: { Delete: { Key: keyOf('memberTag', { workspaceId, memberId, tag: removed }), ConditionExpression: 'attribute_exists(pk)' } },
      onConditionFailed: () => new StaleRead('member'),
    },
    counterStep(workspaceId, removed, -1, now),
  ];
}

/** A member's tag items and its share of the tags' counters, gone with the member (an import undone). */
export function memberTagsGoneSteps(member: Pick<MemberRecord, 'workspaceId' | 'id' | 'tags'>, now: string): TransactStep[] {
  const { workspaceId, id: memberId } = member;
  return member.tags.flatMap((tag): TransactStep[] => [
    { op: { Delete: { Key: keyOf('memberTag', { workspaceId, memberId, tag }) } } },
    counterStep(workspaceId, tag, -1, now),
  ]);
}

/** The member's tags with the time each was added, by key (at most MAX_TAGS_PER_MEMBER items). */
export async function memberTagsOf(workspaceId: string, memberId: string): Promise<MemberTagRecord[]> {
  const { pk } = keyOf('member', { workspaceId, memberId });
  const out: MemberTagRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryRaw({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix('memberTag') },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    });
    for (const i of page.Items ?? []) out.push(memberTagEntity.fromItem(i));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** Tags carried by at least one member, by key; one Query of the workspace's counters. */
export async function listTags(workspaceId: string, opts: { limit: number; cursor?: string; prefix?: string }): Promise<Page<TagRecord>> {
  const { pk } = keyOf('tagCounter', { workspaceId, tag: 'x' });
  const page = await queryPage<Record<string, unknown>>({
    partition: { attr: 'pk', value: pk },
    cursor: opts.cursor,
    limit: opts.limit,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'memberCount > :zero',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': `${skPrefix('tagCounter')}${opts.prefix ?? ''}`, ':zero': 0 },
    ScanIndexForward: true,
  });
  return { ...page, items: page.items.map(tagCounterEntity.fromItem) };
}

/** Whether a member ever carried the tag in this workspace (its counter exists). */
export async function tagKnown(workspaceId: string, tag: string): Promise<boolean> {
  return (await getItem(keyOf('tagCounter', { workspaceId, tag }))) !== undefined;
}
