import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type CodeLookup, codeLookupEntity, couponEntity, type CouponRecord, type CouponStatus, poolEntity, type PoolRecord } from './entities';
import { AppError, conflict, notFound } from '../platform/errors';
import { documentClient, tableName } from '../platform/data/client';
import { indexPartition, keyOf, seqKey, type PrimaryKey } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { indexPage, type IndexFilter, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
import { erasedOr } from '../members';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

/** Storage of coupon pools, their code lists, per-member counters, coupons and code lookups. */

// ---------------------------------------------------------------------------------------------
// Pools
// ---------------------------------------------------------------------------------------------

const poolKey = (workspaceId: string, poolId: string) => keyOf('couponPool', { workspaceId, poolId });

export function putPoolStep(p: PoolRecord): TransactStep {
  return {
    op: {
      Put: {
        Item: poolEntity.toItem(p),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

export async function getPool(workspaceId: string, poolId: string): Promise<PoolRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(poolKey(workspaceId, poolId));
  return item ? poolEntity.fromItem(item) : undefined;
}

/** Newest first through gsi1. */
export async function listPools(workspaceId: string, limit: number, cursor?: string): Promise<Page<PoolRecord>> {
  const partition = indexPartition('couponPool', 'gsi1', { workspaceId });
  const page = await indexPage<Record<string, unknown>>('gsi1', partition, { limit, cursor });
  return { ...page, items: page.items.map(poolEntity.fromItem) };
}

/**
 * Takes one coupon from the stock: `remaining` goes down and `issued` up by one, on the condition
 * that stock is left, so it never goes below zero however many issues race. A list pool also
 * reserves the slot it read (`issued = seq`): of concurrent issues exactly one gets each slot, the
 * others re-read and take the next one.
 */
export function takeStockStep(p: PoolRecord, listSlot?: number): TransactStep {
  const list = listSlot !== undefined;
  return {
    op: {
      Update: {
        Key: poolKey(p.workspaceId, p.id),
        UpdateExpression: 'SET remaining = remaining - :one, issued = issued + :one',
        ConditionExpression: list ? 'remaining >= :one AND issued = :seq' : 'remaining >= :one',
        ExpressionAttributeValues: { ':one': 1, ...(list ? { ':seq': listSlot } : {}) },
      },
    },
    onConditionFailed: () => (list ? new StaleRead('coupon pool') : new AppError('POOL_EXHAUSTED', 'The coupon pool has no stock left')),
  };
}

export function countRedemptionStep(workspaceId: string, poolId: string): TransactStep {
  return {
    op: {
      Update: {
        Key: poolKey(workspaceId, poolId),
        UpdateExpression: 'ADD redeemed :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  };
}

/** Counts the member's coupons of a pool, refusing the one beyond the limit (atomically). */
export function memberLimitStep(workspaceId: string, poolId: string, memberId: string, limit: number): TransactStep {
  return {
    op: {
      Update: {
        Key: keyOf('couponMemberCount', { workspaceId, poolId, memberId }),
        UpdateExpression: 'SET entity = :entity ADD issuedCount :one',
        ConditionExpression: 'attribute_not_exists(issuedCount) OR issuedCount < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':entity': 'couponMemberCount' },
      },
    },
    onConditionFailed: () =>
      new AppError('COUPON_LIMIT_REACHED', `The member already holds ${limit} coupon${limit === 1 ? '' : 's'} of this pool, its per-member limit`),
  };
}

/** How many coupons of the pool the member was issued (what its per-member limit counts). */
export async function memberCouponCount(workspaceId: string, poolId: string, memberId: string): Promise<number> {
  return (await getItem<{ issuedCount?: number }>(keyOf('couponMemberCount', { workspaceId, poolId, memberId })))?.issuedCount ?? 0;
}

/**
 * The member must exist and still be enrolled when the coupon is issued (no write to the member,
 * and no read before: the check is part of the transaction). A missing member is 404.
 */
export function memberActiveStep(workspaceId: string, memberId: string): TransactStep {
  return {
    op: {
      ConditionCheck: {
        Key: keyOf('member', { workspaceId, memberId }),
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'active' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: erasedOr((member) => (member ? conflict('The member is unenrolled; coupons can no longer be issued to it') : notFound('Member'))),
  };
}

// ---------------------------------------------------------------------------------------------
// Codes: the uploaded list (slots) and the per-workspace lookup
// ---------------------------------------------------------------------------------------------

const lookupKey = (workspaceId: string, codeKey: string) => keyOf('couponCode', { workspaceId, code: codeKey });
const chunkKey = (workspaceId: string, poolId: string, chunk: number) => keyOf('couponPoolCodes', { workspaceId, poolId, chunk: seqKey(chunk) });

/**
 * Uploaded codes per list item. A chunk and the reservations of its codes are one transaction of
 * 100 items (DynamoDB's limit): the list costs one item per 99 codes, not one per code.
 */
export const CODES_PER_CHUNK = 99;

/**
 * One chunk of an uploaded list: each code reserved in the workspace's codes (conditional: a code
 * belongs to one pool and one coupon) and the chunk item holding the codes in upload order.
 */
export function reserveListChunkSteps(workspaceId: string, poolId: string, chunk: number, codes: { code: string; codeKey: string }[]): TransactStep[] {
  return [
    ...codes.map(
      (c): TransactStep => ({
        op: {
          Put: {
            Item: { ...lookupKey(workspaceId, c.codeKey), entity: 'couponCode', poolId },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => conflict(`The code ${c.code} is already used in this workspace`),
      }),
    ),
    { op: { Put: { Item: { ...chunkKey(workspaceId, poolId, chunk), entity: 'couponPoolCodes', codes: codes.map((c) => c.code) } } } },
  ];
}

/** Deletes what `reserveListChunkSteps` wrote (a pool creation that failed part-way). */
export async function releaseListChunks(workspaceId: string, poolId: string, chunks: { chunk: number; codeKeys: string[] }[]): Promise<void> {
  const keys: PrimaryKey[] = chunks.flatMap((c) => [chunkKey(workspaceId, poolId, c.chunk), ...c.codeKeys.map((k) => lookupKey(workspaceId, k))]);
  for (let i = 0; i < keys.length; i += 25) {
    let requests: Record<string, unknown>[] = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0 && attempt < 8; attempt++) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (out.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
      if (requests.length) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}

/** The uploaded code a list pool's `seq`-th issue hands out. */
export async function getListCode(workspaceId: string, poolId: string, seq: number): Promise<string | undefined> {
  const item = await getItem<{ codes: string[] }>(chunkKey(workspaceId, poolId, Math.floor(seq / CODES_PER_CHUNK)));
  return item?.codes[seq % CODES_PER_CHUNK];
}

/** A fresh generated code: the lookup must not exist yet (a collision makes the issue re-plan with a new code). */
export function newCodeStep(workspaceId: string, codeKey: string, lookup: Required<CodeLookup>): TransactStep {
  return {
    op: { Put: { Item: codeLookupEntity.toItem(lookup, { workspaceId, code: codeKey }), ConditionExpression: 'attribute_not_exists(pk)' } },
    onConditionFailed: () => new StaleRead('coupon code'),
  };
}

/** An uploaded code reserved by its pool is bound to the coupon that hands it out. */
export function bindListCodeStep(workspaceId: string, codeKey: string, lookup: Required<CodeLookup>): TransactStep {
  return {
    op: {
      Update: {
        Key: lookupKey(workspaceId, codeKey),
        UpdateExpression: 'SET couponId = :c, memberId = :m',
        ConditionExpression: 'poolId = :p AND attribute_not_exists(couponId)',
        ExpressionAttributeValues: { ':c': lookup.couponId, ':m': lookup.memberId, ':p': lookup.poolId },
      },
    },
    onConditionFailed: () => new StaleRead('coupon code'),
  };
}

export async function getCodeLookup(workspaceId: string, codeKey: string): Promise<CodeLookup | undefined> {
  const item = await getItem<Record<string, unknown>>(lookupKey(workspaceId, codeKey));
  return item ? codeLookupEntity.fromItem(item) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Coupons
// ---------------------------------------------------------------------------------------------

const couponKey = (workspaceId: string, couponId: string) => keyOf('coupon', { workspaceId, couponId });

export function putCouponStep(c: CouponRecord): TransactStep {
  return {
    op: {
      Put: {
        Item: couponEntity.toItem(c),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

export async function getCoupon(workspaceId: string, couponId: string): Promise<CouponRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(couponKey(workspaceId, couponId));
  return item ? couponEntity.fromItem(item) : undefined;
}

/** The redeem lost to a concurrent one, or the coupon expired meanwhile: the caller re-reads to say which. */
export class RedeemRefused extends AppError {
  constructor() {
    super('COUPON_ALREADY_REDEEMED', 'The coupon can no longer be redeemed');
  }
}

/**
 * Marks an issued, unexpired coupon redeemed. The condition `status = issued` is what makes a
 * coupon redeemable at most once: of concurrent redeems exactly one transaction can commit.
 */
export function redeemStep(c: CouponRecord, at: string, redemption: CouponRecord['redemption']): TransactStep {
  return {
    op: {
      Update: {
        Key: couponKey(c.workspaceId, c.id),
        UpdateExpression: 'SET #status = :redeemed, redeemedAt = :at, redemption = :r',
        ConditionExpression: '#status = :issued AND expiresKey > :at',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':redeemed': 'redeemed', ':issued': 'issued', ':at': at, ':r': redemption },
      },
    },
    onConditionFailed: () => new RedeemRefused(),
  };
}

/** Voids an unused coupon; one redeemed meanwhile fails the condition, and the caller reads it again. */
export function voidStep(c: CouponRecord, at: string): TransactStep {
  return {
    op: {
      Update: {
        Key: couponKey(c.workspaceId, c.id),
        UpdateExpression: 'SET #status = :voided, voidedAt = :at',
        ConditionExpression: '#status = :issued',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':voided': 'voided', ':issued': 'issued', ':at': at },
      },
    },
    onConditionFailed: () => new StaleRead('coupon'),
  };
}

export interface CouponFilters {
  poolId?: string;
  memberId?: string;
  status?: CouponStatus;
}

/**
 * Newest first. By member through gsi2 (a pool filter narrows it), else by pool through gsi3, else
 * the workspace's coupons through gsi1. `expired` is derived: issued and past its expiry key.
 */
export async function listCoupons(workspaceId: string, f: CouponFilters, limit: number, cursor: string | undefined, now: string): Promise<Page<CouponRecord>> {
  const gsi = f.memberId ? 'gsi2' : f.poolId ? 'gsi3' : 'gsi1';
  const partition = indexPartition('coupon', gsi, { workspaceId, memberId: f.memberId ?? '', poolId: f.poolId ?? '' });
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const filters: string[] = [];
  if (f.memberId && f.poolId) {
    names['#pool'] = 'poolId';
    values[':pool'] = f.poolId;
    filters.push('#pool = :pool');
  }
  if (f.status) {
    names['#status'] = 'status';
    if (f.status === 'redeemed' || f.status === 'voided') {
      values[':stored'] = f.status;
      filters.push('#status = :stored');
    } else {
      values[':issued'] = 'issued';
      values[':now'] = now;
      filters.push(f.status === 'issued' ? '#status = :issued AND expiresKey > :now' : '#status = :issued AND expiresKey <= :now');
    }
  }
  const filter: IndexFilter = filters.length
    ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names, ExpressionAttributeValues: values }
    : { ExpressionAttributeValues: values };
  const page = await indexPage<Record<string, unknown>>(gsi, partition, { limit, cursor, filter });
  return { ...page, items: page.items.map(couponEntity.fromItem) };
}
