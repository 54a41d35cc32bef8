import { type RedemptionRecord, redemptionEntity, type RedemptionStatus, rewardEntity, type RewardRecord, type RewardStatus } from './entities';
import { indexPartition, keyOf } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { indexPage, type IndexFilter, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

/** Storage of rewards, their per-member counters and their redemptions. */

const rewardKey = (workspaceId: string, rewardId: string) => keyOf('reward', { workspaceId, rewardId });
const countKey = (workspaceId: string, rewardId: string, memberId: string) => keyOf('rewardMemberCount', { workspaceId, rewardId, memberId });

// ---------------------------------------------------------------------------------------------
// Rewards
// ---------------------------------------------------------------------------------------------

export function putRewardStep(r: RewardRecord): TransactStep {
  return { op: { Put: { Item: rewardEntity.toItem(r), ConditionExpression: 'attribute_not_exists(pk)' } } };
}

export async function getReward(workspaceId: string, rewardId: string): Promise<RewardRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(rewardKey(workspaceId, rewardId));
  return item ? rewardEntity.fromItem(item) : undefined;
}

/** How an edit moves the counted stock: by a difference (redemptions go on meanwhile), or to a value (counting starts or stops). */
export type StockMove = { add: number } | { set: number | null } | null;

/**
 * An edit of a reward we read, conditional on its version: it sets the definition (`fields`, the
 * version and time stamp among them) and moves `remaining` by what the stock moved, never below
 * zero (redemptions take from it meanwhile without changing the version).
 */
export function updateRewardStep(
  r: Pick<RewardRecord, 'workspaceId' | 'id'>,
  fields: Record<string, unknown>,
  expectedVersion: number,
  stock: StockMove,
): TransactStep {
  const names = Object.keys(fields).filter((n) => fields[n] !== undefined && n !== 'remaining');
  const sets = names.map((_, i) => `#f${i} = :f${i}`);
  const values: Record<string, unknown> = { ':expected': expectedVersion, ...Object.fromEntries(names.map((n, i) => [`:f${i}`, fields[n]])) };
  let add = '';
  let condition = 'version = :expected';
  if (stock && 'set' in stock) {
    sets.push('remaining = :remaining');
    values[':remaining'] = stock.set;
  } else if (stock && stock.add !== 0) {
    add = ' ADD remaining :diff';
    values[':diff'] = stock.add;
    if (stock.add < 0) {
      condition += ' AND remaining >= :need';
      values[':need'] = -stock.add;
    }
  }
  return {
    op: {
      Update: {
        Key: rewardKey(r.workspaceId, r.id),
        UpdateExpression: `SET ${sets.join(', ')}${add}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: () => new StaleRead('reward'),
  };
}

/** Newest first through gsi1, narrowed to one status. */
export async function listRewards(workspaceId: string, limit: number, cursor: string | undefined, status?: RewardStatus): Promise<Page<RewardRecord>> {
  const partition = indexPartition('reward', 'gsi1', { workspaceId });
  const filter: IndexFilter | undefined = status
    ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':status': status } }
    : undefined;
  const page = await indexPage<Record<string, unknown>>('gsi1', partition, { limit, cursor, filter });
  return { ...page, items: page.items.map(rewardEntity.fromItem) };
}

/**
 * A redemption's hold on the reward: still active and, with counted stock, one unit taken on the
 * condition that one is left, so stock never goes below zero however many redemptions race. A
 * failed condition makes the redemption read the reward again and say why (paused, out of stock).
 */
export function holdRewardStep(r: RewardRecord): TransactStep {
  const active = { '#status': 'status' };
  const onConditionFailed = () => new StaleRead('reward');
  if (r.remaining === null) {
    return {
      op: {
        ConditionCheck: {
          Key: rewardKey(r.workspaceId, r.id),
          ConditionExpression: '#status = :active AND attribute_type(remaining, :null)',
          ExpressionAttributeNames: active,
          ExpressionAttributeValues: { ':active': 'active', ':null': 'NULL' },
        },
      },
      onConditionFailed,
    };
  }
  return {
    op: {
      Update: {
        Key: rewardKey(r.workspaceId, r.id),
        UpdateExpression: 'SET remaining = remaining - :one',
        ConditionExpression: '#status = :active AND remaining >= :one',
        ExpressionAttributeNames: active,
        ExpressionAttributeValues: { ':active': 'active', ':one': 1 },
      },
    },
    onConditionFailed,
  };
}

/** A voided redemption's unit back into counted stock (while the reward still counts stock). */
export function giveBackStockStep(workspaceId: string, rewardId: string): TransactStep {
  return {
    op: {
      Update: {
        Key: rewardKey(workspaceId, rewardId),
        UpdateExpression: 'ADD remaining :one',
        ConditionExpression: 'attribute_exists(pk) AND attribute_type(remaining, :number)',
        ExpressionAttributeValues: { ':one': 1, ':number': 'N' },
      },
    },
    onConditionFailed: () => new StaleRead('reward'),
  };
}

/** Counts the member's live redemptions of the reward, refusing the one beyond the limit (atomically). */
export function countMemberStep(workspaceId: string, rewardId: string, memberId: string, limit: number | null, refused: () => Error): TransactStep {
  return {
    op: {
      Update: {
        Key: countKey(workspaceId, rewardId, memberId),
        UpdateExpression: 'SET entity = :entity ADD held :one',
        ...(limit === null ? {} : { ConditionExpression: 'attribute_not_exists(held) OR held < :limit' }),
        ExpressionAttributeValues: { ':one': 1, ':entity': 'rewardMemberCount', ...(limit === null ? {} : { ':limit': limit }) },
      },
    },
    onConditionFailed: refused,
  };
}

/** A voided redemption no longer counts against the member's limit. */
export function uncountMemberStep(workspaceId: string, rewardId: string, memberId: string): TransactStep {
  return {
    op: { Update: { Key: countKey(workspaceId, rewardId, memberId), UpdateExpression: 'ADD held :minus', ExpressionAttributeValues: { ':minus': -1 } } },
  };
}

/** The member's live redemptions of the reward (what its per-member limit counts). */
export async function memberHeld(workspaceId: string, rewardId: string, memberId: string): Promise<number> {
  return (await getItem<{ held?: number }>(countKey(workspaceId, rewardId, memberId)))?.held ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Redemptions
// ---------------------------------------------------------------------------------------------

const redemptionKey = (workspaceId: string, redemptionId: string) => keyOf('redemption', { workspaceId, redemptionId });

export function putRedemptionStep(r: RedemptionRecord): TransactStep {
  return { op: { Put: { Item: redemptionEntity.toItem(r), ConditionExpression: 'attribute_not_exists(pk)' } } };
}

export async function getRedemption(workspaceId: string, redemptionId: string): Promise<RedemptionRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(redemptionKey(workspaceId, redemptionId));
  return item ? redemptionEntity.fromItem(item) : undefined;
}

/**
 * Moves an issued redemption on (voided or used) with what the move records: of concurrent moves
 * exactly one commits; the others re-read and find where it went.
 */
function leaveIssuedStep(r: RedemptionRecord, status: 'voided' | 'used', recorded: Record<string, string>): TransactStep {
  const names = Object.keys(recorded);
  return {
    op: {
      Update: {
        Key: redemptionKey(r.workspaceId, r.id),
        // Off the index of due voids (if it was on it): the due work has nothing left to do with it.
        UpdateExpression: `SET #status = :to, ${names.map((n) => `${n} = :${n}`).join(', ')} REMOVE gsi3pk, gsi3sk`,
        ConditionExpression: '#status = :issued',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': status, ':issued': 'issued', ...Object.fromEntries(names.map((n) => [`:${n}`, recorded[n]])) },
      },
    },
    onConditionFailed: () => new StaleRead('redemption'),
  };
}

/** Voids an issued redemption (see `leaveIssuedStep`). */
export const voidRedemptionStep = (r: RedemptionRecord, voidEntryId: string, at: string): TransactStep =>
  leaveIssuedStep(r, 'voided', { voidedAt: at, voidEntryId });

/** A member's redemptions, newest first through gsi2. */
export async function listMemberRedemptions(
  workspaceId: string,
  memberId: string,
  limit: number,
  cursor: string | undefined,
  status?: RedemptionStatus,
): Promise<Page<RedemptionRecord>> {
  const partition = indexPartition('redemption', 'gsi2', { workspaceId, memberId });
  const filter: IndexFilter | undefined = status
    ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':status': status } }
    : undefined;
  const page = await indexPage<Record<string, unknown>>('gsi2', partition, { limit, cursor, filter });
  return { ...page, items: page.items.map(redemptionEntity.fromItem) };
}

/** Marks an issued redemption used on an order (see `leaveIssuedStep`). */
export const useRedemptionStep = (r: RedemptionRecord, externalOrderId: string, at: string): TransactStep =>
  leaveIssuedStep(r, 'used', { usedAt: at, externalOrderId });

/**
 * The member's redemption that drew this coupon: the member's redemptions walked through gsi2 with
 * a filter, a page at a time (a member holds a handful; a code's own lookup item is not worth a
 * second write on every redemption yet).
 */
export async function redemptionOfCoupon(workspaceId: string, memberId: string, couponId: string): Promise<RedemptionRecord | undefined> {
  const partition = indexPartition('redemption', 'gsi2', { workspaceId, memberId });
  const filter: IndexFilter = { FilterExpression: 'couponId = :coupon', ExpressionAttributeValues: { ':coupon': couponId } };
  let cursor: string | undefined;
  do {
    const page = await indexPage<Record<string, unknown>>('gsi2', partition, { limit: 100, cursor, filter });
    if (page.items[0]) return redemptionEntity.fromItem(page.items[0]);
    cursor = page.nextCursor;
  } while (cursor);
  return undefined;
}

/**
 * Issued redemptions whose void fell due before `before` (ISO), oldest first, a page at a time
 * through the sparse index of due voids (only redemptions that will be voided are in it).
 */
export async function dueVoids(workspaceId: string, before: string, limit: number): Promise<RedemptionRecord[]> {
  const partition = indexPartition('redemption', 'gsi3', { workspaceId });
  const page = await indexPage<Record<string, unknown>>('gsi3', partition, { limit, forward: true, range: { to: before } });
  return page.items.map(redemptionEntity.fromItem);
}

/** Takes a redemption off the index of due voids (its code was redeemed outside checkout: nothing to void). */
export function undueStep(r: RedemptionRecord): TransactStep {
  return {
    op: {
      Update: {
        Key: redemptionKey(r.workspaceId, r.id),
        UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  };
}
