import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { documentClient, storeDeadline, tableName } from './client';
import { decodeCursor, encodeCursor, refuseCursor } from './cursor';
import type { Item } from './items';
import type { PrimaryKey } from './keys';

/** Reads of more than one item: pages of a partition or an index (resumable with a cursor), and batches of keys. */

export interface Filter {
  /** An attribute, or the path to one inside a map (`['target', 'id']`). */
  attr: string | readonly string[];
  op: '=' | 'contains' | 'absent';
  /** Conditions whose value is undefined are left out (`absent` takes none). */
  value?: unknown;
}

/** A FilterExpression ANDing the given conditions, with every name and value aliased. */
export function filterExpression(filters: Filter[]): IndexFilter {
  const active = filters.filter((f) => f.op === 'absent' || f.value !== undefined);
  if (active.length === 0) return { ExpressionAttributeValues: {} };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = active.map((f, i) => {
    const path = (typeof f.attr === 'string' ? [f.attr] : f.attr).map((attr, j) => {
      const name = j === 0 ? `#f${i}` : `#f${i}_${j}`;
      names[name] = attr;
      return name;
    });
    const ref = path.join('.');
    if (f.op === 'absent') return `attribute_not_exists(${ref})`;
    values[`:f${i}`] = f.value;
    return f.op === '=' ? `${ref} = :f${i}` : `contains(${ref}, :f${i})`;
  });
  return { FilterExpression: parts.join(' AND '), ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

export interface IndexFilter {
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/**
 * One page of a GSI partition (newest first unless `forward`), narrowed by an optional filter and
 * an optional sort-key range [from, to) (see `sortKeyRange`). An empty range reads nothing: the
 * page is empty, and a cursor sent with it is refused, as this query never issued one.
 */
export async function indexPage<T extends object = Item>(
  index: 'gsi1' | 'gsi2' | 'gsi3',
  partition: string,
  opts: { limit: number; cursor?: string | undefined; filter?: IndexFilter; forward?: boolean; range?: { from?: string | undefined; to?: string | undefined } },
): Promise<Page<T>> {
  const range = sortKeyRange(index, partition, opts.range ?? {});
  if (!range) {
    refuseCursor(opts.cursor);
    return { items: [] };
  }
  const filter = opts.filter ?? { ExpressionAttributeValues: {} };
  return queryPage<T>({
    partition: { attr: `${index}pk`, value: partition },
    cursor: opts.cursor,
    limit: opts.limit,
    IndexName: index,
    KeyConditionExpression: range.KeyConditionExpression,
    ...filter,
    ExpressionAttributeValues: { ...filter.ExpressionAttributeValues, ...range.values },
    ScanIndexForward: opts.forward ?? false,
  });
}

/** A page of the items of one partition whose sort key starts with `prefix`: newest first, unless `forward`. */
export async function prefixPage<T extends object = Item>(
  pk: string,
  prefix: string,
  opts: { limit: number; cursor?: string; filters?: Filter[]; consistent?: boolean; forward?: boolean },
): Promise<Page<T>> {
  const filter = filterExpression(opts.filters ?? []);
  return queryPage<T>({
    partition: { attr: 'pk', value: pk },
    cursor: opts.cursor,
    limit: opts.limit,
    ...(opts.consistent ? { ConsistentRead: true } : {}),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ...filter,
    ExpressionAttributeValues: { ...filter.ExpressionAttributeValues, ':pk': pk, ':prefix': prefix },
    ScanIndexForward: opts.forward ?? false,
  });
}

/**
 * The items of any number of keys, in the order of the keys (missing ones left out): one
 * BatchGetItem per 100 keys, sent side by side; keys left unprocessed are asked again with
 * backoff. Consistent unless asked otherwise; optionally only some attributes (each key's `pk` and
 * `sk` are always read, to put the items in order).
 */
export async function batchGetItems<T extends object = Item>(
  keys: readonly PrimaryKey[],
  opts: { consistent?: boolean; attributes?: readonly string[] } = {},
): Promise<T[]> {
  const attributes = opts.attributes?.length ? [...new Set(['pk', 'sk', ...opts.attributes])] : undefined;
  const projection = attributes
    ? {
        ProjectionExpression: attributes.map((_, i) => `#p${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(attributes.map((a, i) => [`#p${i}`, a])),
      }
    : {};
  const found = new Map<string, Item>();
  const id = (k: { pk: unknown; sk: unknown }) => `${String(k.pk)}\u0000${String(k.sk)}`;
  const chunks: PrimaryKey[][] = [];
  for (let i = 0; i < keys.length; i += 100) chunks.push(keys.slice(i, i + 100));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending: PrimaryKey[] = chunk;
      for (let round = 0; pending.length > 0; round++) {
        if (round > 8) throw new Error('BatchGetItem kept leaving keys unprocessed');
        if (round > 0) await sleep(Math.random() * Math.min(1000, 20 * 2 ** round), undefined, { signal: storeDeadline() });
        const out = await documentClient().send(
          new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: opts.consistent ?? true, ...projection } } }),
        );
        for (const item of out.Responses?.[tableName()] ?? []) found.set(id(item as PrimaryKey), item);
        pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as PrimaryKey[];
      }
    }),
  );
  return keys.flatMap((k) => (found.has(id(k)) ? [found.get(id(k)) as T] : []));
}

/** A raw Query on the table (for callers that walk an index themselves). */
export async function queryRaw(input: Omit<QueryCommandInput, 'TableName'>) {
  return documentClient().send(new QueryCommand({ ...input, TableName: tableName() }));
}

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page, absent on the last page. */
  nextCursor?: string;
}

/**
 * The key condition of a partition narrowed to the half-open range [from, to) of its sort key
 * (either bound optional). Callers pass bounds that sort before every key made at that instant
 * (a bare timestamp or id prefix), so BETWEEN's inclusive end never takes an item at `to`.
 * `undefined` for an empty range: DynamoDB refuses BETWEEN with the bounds the wrong way round.
 */
export function sortKeyRange(
  index: string,
  partition: string,
  range: { from?: string | undefined; to?: string | undefined },
): { KeyConditionExpression: string; values: Record<string, string> } | undefined {
  const { from, to } = range;
  const values: Record<string, string> = { ':pk': partition };
  let condition = `${index}pk = :pk`;
  if (from !== undefined && to !== undefined) {
    if (from >= to) return undefined;
    condition += ` AND ${index}sk BETWEEN :from AND :to`;
    Object.assign(values, { ':from': from, ':to': to });
  } else if (from !== undefined) {
    condition += ` AND ${index}sk >= :from`;
    values[':from'] = from;
  } else if (to !== undefined) {
    condition += ` AND ${index}sk < :to`;
    values[':to'] = to;
  }
  return { KeyConditionExpression: condition, values };
}

/** One page of a Query on the table or a GSI, resumable with an opaque cursor. */
export async function queryPage<T extends object = Item>(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'> & {
    partition: { attr: string; value: string };
    cursor?: string;
    limit: number;
    /** Reads per page at most: a sparse filter returns a short page with a cursor, never a long scan. */
    maxReads?: number;
  },
): Promise<Page<T>> {
  const { partition, cursor, limit, maxReads = 10, ...rest } = input;
  const items: T[] = [];
  let startKey = cursor ? await decodeCursor(cursor, rest, partition) : undefined;
  let reads = 0;
  // A filter may drop items, so keep reading until the page is full or the partition ends.
  do {
    reads++;
    const out = await documentClient().send(
      new QueryCommand({
        ...rest,
        TableName: tableName(),
        Limit: limit - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((out.Items ?? []) as T[]));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < limit && reads < maxReads);
  return { items, ...(startKey ? { nextCursor: await encodeCursor(startKey, rest) } : {}) };
}
