import { memberEntity, type MemberRecord } from '../members';
import { indexKeysOf, indexPartition, keyOf } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { batchGetItems, indexPage, queryRaw, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

export interface AmbassadorRecord {
  memberId: string;
  code: string;
  issuedAt: string;
  referredSignups: number;
}

export interface ReferralRecord {
  memberId: string;
  referrerId: string;
  code: string;
  captureId: string;
  createdAt: string;
}

const toAmbassador = (i: Record<string, unknown>): AmbassadorRecord => ({
  memberId: i.memberId as string,
  code: i.code as string,
  issuedAt: i.issuedAt as string,
  referredSignups: (i.referredSignups as number | undefined) ?? 0,
});

export async function getAmbassador(workspaceId: string, memberId: string): Promise<AmbassadorRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(keyOf('ambassador', { workspaceId, memberId }));
  return item ? toAmbassador(item) : undefined;
}

export async function ambassadorsOf(workspaceId: string, memberIds: string[]): Promise<Map<string, AmbassadorRecord>> {
  const items = await batchGetItems(memberIds.map((memberId) => keyOf('ambassador', { workspaceId, memberId })));
  return new Map(items.map((i) => [i.memberId as string, toAmbassador(i)]));
}

export async function referralCodeOwner(workspaceId: string, code: string): Promise<string | undefined> {
  return (await getItem<{ memberId: string }>(keyOf('referralCode', { workspaceId, code })))?.memberId;
}

const statsKey = (workspaceId: string) => keyOf('ambassadorStats', { workspaceId });

const statsStep = (workspaceId: string, counter: 'codesIssued' | 'referredSignups'): TransactStep => ({
  op: {
    Update: {
      Key: statsKey(workspaceId),
      UpdateExpression: 'SET entity = :e ADD #c :one',
      ExpressionAttributeNames: { '#c': counter },
      ExpressionAttributeValues: { ':e': 'ambassadorStats', ':one': 1 },
    },
  },
});

/**
 * A member's code: the member's ambassador item (one per member: a concurrent issue re-reads and
 * answers the winner's code) and the code's lookup (unique per workspace: a collision retries with a
 * new code), plus the workspace counter.
 */
export function issueCodeSteps(workspaceId: string, a: AmbassadorRecord): TransactStep[] {
  return [
    {
      op: {
        Put: {
          Item: { ...keyOf('ambassador', { workspaceId, memberId: a.memberId }), entity: 'ambassador', workspaceId, ...a },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new StaleRead('member'),
    },
    {
      op: {
        Put: {
          Item: { ...keyOf('referralCode', { workspaceId, code: a.code }), entity: 'referralCode', memberId: a.memberId, code: a.code, createdAt: a.issuedAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new StaleRead('referral code'),
    },
    statsStep(workspaceId, 'codesIssued'),
  ];
}

/** Links a new member to the ambassador whose code it signed up with (part of the sign-up transaction). */
export function referralSteps(workspaceId: string, r: ReferralRecord): TransactStep[] {
  return [
    {
      op: {
        Put: {
          Item: {
            ...keyOf('referral', { workspaceId, memberId: r.memberId }),
            ...indexKeysOf('referral', { workspaceId, memberId: r.memberId }),
            entity: 'referral',
            workspaceId,
            ...r,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new StaleRead('member'),
    },
    {
      op: {
        Update: {
          Key: keyOf('ambassador', { workspaceId, memberId: r.referrerId }),
          UpdateExpression: 'ADD referredSignups :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      onConditionFailed: () => new StaleRead('referral code'),
    },
    statsStep(workspaceId, 'referredSignups'),
  ];
}

export async function getStats(workspaceId: string): Promise<{ codesIssued: number; referredSignups: number }> {
  const item = await getItem<{ codesIssued?: number; referredSignups?: number }>(statsKey(workspaceId));
  return { codesIssued: item?.codesIssued ?? 0, referredSignups: item?.referredSignups ?? 0 };
}

/** Ids of referred members (gsi1), oldest first, at most `cap`; `complete` is false when there are more. */
export async function referredMemberIds(workspaceId: string, cap: number): Promise<{ ids: string[]; complete: boolean }> {
  const partition = indexPartition('referral', 'gsi1', { workspaceId });
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryRaw({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: 'memberId',
      Limit: Math.min(1000, cap + 1 - ids.length),
      ExclusiveStartKey: start,
    });
    for (const i of page.Items ?? []) ids.push(i.memberId as string);
    start = page.LastEvaluatedKey;
  } while (start && ids.length <= cap);
  return { ids: ids.slice(0, cap), complete: ids.length <= cap && !start };
}

/**
 * Active members that meet a candidate rule, newest first: the member index with a filter, so a page
 * costs at most a bounded number of reads (a sparse result gives a short page and a cursor).
 */
export async function candidatePage(
  workspaceId: string,
  rules: { minLifetimePoints: number; minOrderCount: number },
  limit: number,
  cursor?: string,
): Promise<Page<MemberRecord>> {
  const partition = indexPartition('member', 'gsi1', { workspaceId });
  const page = await indexPage<Record<string, unknown>>('gsi1', partition, {
    limit,
    cursor,
    filter: {
      FilterExpression: '#status = :active AND (lifetime >= :lp OR orderCount >= :oc)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':active': 'active', ':lp': rules.minLifetimePoints, ':oc': rules.minOrderCount },
    },
  });
  return { ...page, items: page.items.map(memberEntity.fromItem) };
}
