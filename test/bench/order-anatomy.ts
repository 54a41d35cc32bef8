import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient, writeClient } from '../../shared/platform/data/client';
import { countStoreCalls, type StoreCallTotals } from '../../shared/platform/data/store-calls';
import { TABLE_SCHEMA } from '../../shared/platform/data/table-schema';
import { inProcess } from '../support/in-process';
import type { RunningPlatform } from '../support/platform';
import { configureFor } from './store-calls';

/**
 * What one order costs the store, taken from an order itself: the order is made in this process
 * (the orders handler with its whole chain, as `store-calls.ts` does) with the request counter
 * attached and the transaction it sends captured; each item it wrote is then read back as stored.
 * From that come the requests per order, the items and their sizes and write units, and a raw
 * transaction that puts items of the same count, sizes and indexes: the like-for-like floor of an
 * order on the same store in the same run.
 */

type Item = Record<string, unknown>;

/** DynamoDB's item size: attribute names and values in UTF-8, numbers about one byte per two digits (its documented rules). */
export function itemBytes(item: Item): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);
}

function valueBytes(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(Math.abs(value)).replace(/[.-]|^0+|e.*$/g, '').length / 2) + 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce<number>((s, v) => s + valueBytes(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce<number>((s, v) => s + 1 + valueBytes(v), 0);
  if (typeof value === 'object') return 3 + Object.entries(value as Item).reduce((s, [k, v]) => s + 1 + Buffer.byteLength(k) + valueBytes(v), 0);
  return 0;
}

const KB = 1024;
/** Indexes an item is written to: each GSI whose partition key it carries (every GSI projects all attributes). */
const indexesOf = (item: Item) => TABLE_SCHEMA.gsis.filter((g) => item[g.partitionKey] !== undefined).map((g) => g.indexName);

/** One item of an order's transaction as stored after it. */
export interface WrittenItem {
  /** The item's `entity` (its key layout), else its sort key's first part. */
  what: string;
  /** Put, Update or Delete as the transaction sent it. */
  step: string;
  bytes: number;
  /** GSIs the item is in. */
  indexes: string[];
  /** Transactional write units (2 per KB started) plus one per KB for each index entry. */
  writeUnits: number;
}

export interface OrderAnatomy {
  /** Requests of one order, by operation, and the totals the counter took (capacity as DynamoDB Local reports it). */
  requests: StoreCallTotals;
  /** The items of its transaction, as stored. */
  transaction: WrittenItem[];
  /** The transaction's write units by size (what DynamoDB would bill) and its bytes. */
  transactionWriteUnits: number;
  transactionBytes: number;
  /** The items themselves (for the raw baseline). */
  stored: Item[];
}

/** The TransactItems of every transaction the process's write client sends while `work` runs. */
async function capturingTransactions<T>(client: DynamoDBDocumentClient, work: () => Promise<T>): Promise<{ result: T; sent: Item[][] }> {
  const sent: Item[][] = [];
  const name = `benchCapture${Math.random().toString(36).slice(2)}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (String(context.commandName).startsWith('TransactWrite')) sent.push(((args.input as Item).TransactItems ?? []) as Item[]);
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await work(), sent };
  } finally {
    client.middlewareStack.remove(name);
  }
}

const keyOfStep = (step: Item) => {
  const [kind, body] = Object.entries(step)[0] as [string, Item];
  const source = (body.Key ?? body.Item) as Item;
  // Marshalled or not, depending on where in the stack the capture ran.
  const plain = (v: unknown) => (v && typeof v === 'object' && 'S' in v ? (v as { S: string }).S : v);
  return { kind, key: { pk: plain(source.pk), sk: plain(source.sk) } };
};

/**
 * One order of `body` with `key`, measured: it runs `warm` times uncounted first (a warm container:
 * the caches and the key's lastUsedAt), then once counted and captured. `body(i)` gives each its own
 * externalOrderId and member.
 */
export async function orderAnatomy(platform: RunningPlatform, key: string, body: (i: number) => unknown, warm = 3): Promise<OrderAnatomy> {
  await configureFor(platform, { quiet: true });
  const counter = countStoreCalls();
  const run = Math.random().toString(36).slice(2, 8);
  const order = async (i: number) => {
    const res = await inProcess('POST', '/api/v2/orders', { token: key, body: body(i), headers: { 'idempotency-key': `anatomy-${run}-${i}` } });
    if (res.status !== 201) throw new Error(`anatomy order: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  };
  for (let i = 0; i < warm; i++) await order(i);
  // Taken twice, the smaller count kept: a per-container cache (5 s) that expires during one is read there once.
  let least: { totals: StoreCallTotals; sent: Item[][] } | undefined;
  for (let n = 0; n < 2; n++) {
    const { result, sent } = await capturingTransactions(writeClient(), () => counter.during(() => order(warm + n)));
    if (!least || result.totals.calls < least.totals.calls) least = { totals: result.totals, sent };
  }
  const steps = least!.sent.at(-1) ?? [];
  const transaction: WrittenItem[] = [];
  const stored: Item[] = [];
  for (const step of steps) {
    const { kind, key: k } = keyOfStep(step);
    const item = (await documentClient().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: k, ConsistentRead: true }))).Item;
    if (!item) continue;
    const bytes = itemBytes(item);
    const indexes = indexesOf(item);
    const units = Math.ceil(bytes / KB);
    transaction.push({
      what: String(item.entity ?? String(item.sk).split('#')[0]),
      step: kind,
      bytes,
      indexes,
      writeUnits: 2 * units + indexes.length * units,
    });
    stored.push(item);
  }
  return {
    requests: least!.totals,
    transaction,
    transactionWriteUnits: transaction.reduce((s, t) => s + t.writeUnits, 0),
    transactionBytes: transaction.reduce((s, t) => s + t.bytes, 0),
    stored,
  };
}

/**
 * A raw transaction putting items of the same count, sizes and indexes as `stored` (each a copy of
 * an order's item under a new partition key of the same length, conditional on being new, as an
 * order's puts are): `send(i)` for the i-th of a run.
 */
export function sameItemsTransaction(doc: DynamoDBDocumentClient, tableName: string, stored: readonly Item[], run: string) {
  return async (i: number) => {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: stored.map((item, n) => {
          const pk = String(item.pk);
          const fresh = `B#${run}#${i}#${n}#`;
          return {
            Put: {
              TableName: tableName,
              Item: { ...item, pk: fresh.length >= pk.length ? fresh : fresh + 'x'.repeat(pk.length - fresh.length) },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          };
        }),
      }),
    );
    return true;
  };
}

/** The anatomy as the benchmark prints it (the items without their contents). */
export const anatomyRow = (a: OrderAnatomy) => ({
  requests: a.requests.operations,
  calls: a.requests.calls,
  itemsRead: a.requests.itemsRead,
  itemsWritten: a.requests.itemsWritten,
  capacityUnitsReported: a.requests.capacityUnits,
  transactionItems: a.transaction.length,
  transactionBytes: a.transactionBytes,
  transactionWriteUnits: a.transactionWriteUnits,
  items: a.transaction.map((t) => `${t.what} (${t.step}, ${t.bytes} B${t.indexes.length ? `, ${t.indexes.join('+')}` : ''}): ${t.writeUnits} WU`),
});
