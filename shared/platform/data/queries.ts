import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type DeleteCommandInput,
  type PutCommandInput,
  type QueryCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { config } from '../config';
import { AppError, conflict, outcomeUnknown, tooLargeToStore, validationFailed } from '../errors';
import { documentClient, storeDeadline, storeScope, tableName, writeClient } from './client';
import { commitHooksOf, type SentTransactItem } from './commit-hooks';
import { backoffMs, KeyedSerializer, mayRetry } from './contention';
import { decodeCursor, encodeCursor, refuseCursor } from './cursor';
import { isItemTooLarge, isTransientDependencyError, provesNotApplied } from './errors';
import type { PrimaryKey } from './keys';

/** Thin typed wrappers over the document client; every call targets the single table. */

export type Item = Record<string, any>;

/** Concurrent transactions kept colliding on the same items; safe to retry on fresh state. */
export class TransactionClash extends AppError {
  constructor() {
    super('CONFLICT', 'A concurrent change touched the same data; retry');
  }
}

/**
 * Raised by a step's condition when what we read has changed meanwhile (optimistic concurrency):
 * the caller re-reads and tries again.
 */
export class StaleRead extends AppError {
  constructor(what = 'data') {
    super('CONFLICT', `The ${what} changed meanwhile; retry`);
  }
}

const serializer = new KeyedSerializer();

/**
 * Runs `work` after the earlier work of the same key in this process is done, in arrival order
 * (e.g. the changes of one member): they no longer race each other, only writers in other
 * processes. `waited` tells whether earlier work ran meanwhile (what the caller read before is then
 * likely stale). Waiting ends at the request's deadline, before `work` ran.
 */
export function inKeyOrder<T>(key: string, work: (waited: boolean) => Promise<T>): Promise<T> {
  return serializer.run(key, work, storeDeadline());
}

/** Milliseconds the current request has left (undefined outside a request). */
const msLeft = (): number | undefined => {
  const deadlineAt = storeScope()?.deadlineAt;
  return deadlineAt === undefined ? undefined : deadlineAt - Date.now();
};

/**
 * Runs a read-compute-conditional-write unit until its conditions hold, with full-jitter backoff
 * (`config.dynamodb.contention`). Only StaleRead and TransactionClash are retried; every other error
 * is final, and so is the last loss (attempts used up, or too little of the request's deadline left
 * to start another attempt). The backoff ends at the request's deadline.
 */
export async function withOptimisticRetry<T>(unit: () => Promise<T>, attempts: number = config.dynamodb.contention.maxAttempts): Promise<T> {
  const policy = config.dynamodb.contention;
  const deadline = storeDeadline();
  for (let attempt = 1; ; attempt++) {
    try {
      return await unit();
    } catch (err) {
      if (!(err instanceof StaleRead || err instanceof TransactionClash) || !mayRetry(attempt, attempts, msLeft(), policy.reserveMs)) throw err;
      await sleep(backoffMs(attempt, policy), undefined, { signal: deadline });
    }
  }
}

export async function getItem<T extends object = Item>(key: PrimaryKey, consistent = true): Promise<T | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return out.Item as T | undefined;
}

/**
 * Runs one write of the current request, counting it as unsettled while it runs and for the rest of
 * the request when its outcome stays unknown (the request's last-resort answer is then
 * `OUTCOME_UNKNOWN`, see shared/http/area.ts); a write settled either way is uncounted.
 */
async function unsettled<T>(write: () => Promise<T>): Promise<T> {
  const scope = storeScope();
  if (scope) scope.unsettledWrites++;
  try {
    const out = await write();
    if (scope) scope.unsettledWrites--;
    return out;
  } catch (err) {
    if (scope && !(err instanceof AppError && err.code === 'OUTCOME_UNKNOWN')) scope.unsettledWrites--;
    throw err;
  }
}

/** The error for a request aborted (deadline or caller) before an attempt was sent. */
const abortedError = (reason: unknown): Error => (reason instanceof Error ? reason : Object.assign(new Error('Request aborted'), { name: 'AbortError' }));

/** The item a failed condition was checked against (`ReturnValuesOnConditionCheckFailure: ALL_OLD`). */
export function storedItemOf(err: unknown): Item | undefined {
  const raw = (err as { Item?: Record<string, any> }).Item;
  return raw ? unmarshall(raw) : undefined;
}

/** The item as the document client writes it and a read returns it (undefined attributes dropped, numbers normalised). */
const asStored = (item: Item): Item => unmarshall(marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }));

export interface ItemWriteOptions {
  /** Defaults to the process's write client (one SDK attempt per call). */
  client?: DynamoDBDocumentClient;
}

interface SingleWrite {
  /** One attempt; `confirming`: a re-send after an attempt whose outcome is unknown. Resolves with the item's attributes, if asked. */
  send(client: DynamoDBDocumentClient, confirming: boolean): Promise<Item | undefined>;
  /** Whether the write may be sent again when an attempt's outcome is unknown (it then has the same effect). */
  resendable: boolean;
  /** After a re-send's condition failed: whether the item the store holds (undefined: none) shows the write applied. */
  appliedIn(stored: Item | undefined): boolean;
}

/**
 * One single-item write, making sure a failure means "not applied" (DynamoDB has no request token
 * for these). An attempt failing in a way that does not prove it was not applied (a time-out, a
 * broken connection, a 5xx) may still have been applied, or be applied later. Such a write is sent
 * again only if a re-send is harmless and recognisable: the re-send asks for the stored item when
 * its condition fails (`ALL_OLD`), and a condition failing because the lost attempt was applied
 * shows that attempt's effect in it (`appliedIn`): the write succeeded, once. Anything else that
 * cannot be settled is `OUTCOME_UNKNOWN`, and an in-doubt write that is not resendable is at once.
 * Failures proving nothing was sent (refused connection, throttling) are retried, and finally
 * rethrown as they are (503 SERVICE_UNAVAILABLE); so is a condition failing on a first attempt.
 */
async function settledWrite(w: SingleWrite, opts: ItemWriteOptions): Promise<Item | undefined> {
  return unsettled(async () => {
    const client = opts.client ?? writeClient();
    const attempts = config.dynamodb.maxAttempts;
    const deadline = storeDeadline();
    let inDoubt = false;
    for (let attempt = 1; ; attempt++) {
      if (deadline?.aborted) {
        if (inDoubt) throw outcomeUnknown(deadline.reason);
        throw abortedError(deadline.reason);
      }
      try {
        return await w.send(client, inDoubt);
      } catch (err) {
        if (inDoubt && isConditionFailed(err)) {
          const stored = storedItemOf(err);
          if (w.appliedIn(stored)) return stored;
          throw outcomeUnknown(err);
        }
        if (isItemTooLarge(err)) throw tooLargeToStore();
        if (isConditionFailed(err) || !isTransientDependencyError(err)) throw inDoubt ? outcomeUnknown(err) : err;
        if (!provesNotApplied(err)) {
          inDoubt = true;
          if (!w.resendable) throw outcomeUnknown(err);
        }
        if (attempt >= attempts) throw inDoubt ? outcomeUnknown(err) : err;
        try {
          await sleep(Math.random() * 50 * 2 ** attempt, undefined, { signal: deadline });
        } catch {
          /* the abort is handled at the top of the loop */
        }
      }
    }
  });
}

const confirmingInput = (confirming: boolean) => (confirming ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {});

/**
 * A whole-item write. When an attempt's outcome is unknown it is sent again: an unconditional put
 * just writes the same item again; a conditional one that now fails finds its own item stored if the
 * lost attempt was applied (success), anything else is `OUTCOME_UNKNOWN` (see `settledWrite`).
 */
export async function putItem(input: Omit<PutCommandInput, 'TableName'>, opts: ItemWriteOptions = {}): Promise<void> {
  const mine = asStored(input.Item ?? {});
  const write: SingleWrite = {
    resendable: true,
    send: async (client, confirming) => {
      await client.send(new PutCommand({ ...input, TableName: tableName(), ...confirmingInput(confirming) }));
      return undefined;
    },
    appliedIn: (stored) => stored !== undefined && isDeepStrictEqual(stored, mine),
  };
  await settledWrite(write, opts);
}

export interface UpdateOptions<T> extends ItemWriteOptions {
  /**
   * For an update that may be sent again when an attempt's outcome is unknown: its expression gives
   * the same item however often it runs, or its condition fails once it was applied. If the
   * re-send's condition fails, says whether the stored item (undefined: none) shows the update
   * applied. Without it, an update whose outcome is unknown is `OUTCOME_UNKNOWN` at once.
   */
  appliedIn?: (stored: T | undefined) => boolean;
}

/**
 * Resolves with the item's attributes as `ReturnValues` asks (default ALL_NEW); after a re-send
 * recognised as applied, with the item as stored.
 */
export async function updateItem<T extends object = Item>(input: Omit<UpdateCommandInput, 'TableName'>, opts: UpdateOptions<T> = {}): Promise<T | undefined> {
  const { appliedIn } = opts;
  const write: SingleWrite = {
    resendable: appliedIn !== undefined,
    send: async (client, confirming) => {
      const out = await client.send(new UpdateCommand({ ReturnValues: 'ALL_NEW', ...input, TableName: tableName(), ...confirmingInput(confirming) }));
      return out.Attributes;
    },
    appliedIn: (stored) => appliedIn?.(stored as T | undefined) ?? false,
  };
  return (await settledWrite(write, opts)) as T | undefined;
}

/**
 * Deletes an item. When an attempt's outcome is unknown it is sent again; a conditional one that
 * then fails because the item is gone counts as applied (the item is gone, as asked).
 */
export async function deleteItem(input: Omit<DeleteCommandInput, 'TableName'>, opts: ItemWriteOptions = {}): Promise<void> {
  const write: SingleWrite = {
    resendable: true,
    send: async (client, confirming) => {
      await client.send(new DeleteCommand({ ...input, TableName: tableName(), ...confirmingInput(confirming) }));
      return undefined;
    },
    appliedIn: (stored) => stored === undefined,
  };
  await settledWrite(write, opts);
}

export const isConditionFailed = (err: unknown): boolean => err instanceof Error && err.name === 'ConditionalCheckFailedException';

export interface Filter {
  attr: string;
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
    names[`#f${i}`] = f.attr;
    if (f.op === 'absent') return `attribute_not_exists(#f${i})`;
    values[`:f${i}`] = f.value;
    return f.op === '=' ? `#f${i} = :f${i}` : `contains(#f${i}, :f${i})`;
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

/** Newest-first page of the items of one partition whose sort key starts with `prefix`. */
export async function prefixPage<T extends object = Item>(
  pk: string,
  prefix: string,
  opts: { limit: number; cursor?: string; filters?: Filter[]; consistent?: boolean },
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
    ScanIndexForward: false,
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

/** Items one TransactWriteItems may hold. */
export const MAX_TRANSACTION_ITEMS = 100;

/** A transaction step without TableName: every step targets the single table. */
export type TransactOp = { [K in keyof SentTransactItem]?: Omit<NonNullable<SentTransactItem[K]>, 'TableName'> };

export interface TransactStep {
  op: TransactOp;
  /**
   * The error to raise when this step's condition fails (default: 409 CONFLICT). `current` is the
   * item as the failed condition saw it, when the step asked for it
   * (`ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`; undefined when the item does not exist).
   */
  onConditionFailed?: (current?: Item) => Error;
  /** Called once the transaction holding this step has committed. */
  onCommitted?: () => void;
}

const withTable = (op: TransactOp): SentTransactItem => {
  const [kind, body] = Object.entries(op)[0] as [string, Record<string, unknown>];
  return { [kind]: { ...body, TableName: tableName() } } as SentTransactItem;
};

export interface TransactOptions {
  /** Defaults to the process's transaction client (one SDK attempt per call). */
  client?: DynamoDBDocumentClient;
  /** Aborts the SDK call and the backoff between clash retries (the call then rejects). */
  abortSignal?: AbortSignal;
  /** Attempts of one commit whose outcome is in doubt (default `config.dynamodb.transactionConfirmAttempts`). */
  confirmAttempts?: number;
}

/** The request was aborted (deadline or caller) before this attempt was sent. */
const abortedBeforeSending = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/**
 * Commits one TransactWriteItems, making sure a failure means "not applied". Every attempt carries
 * the same `ClientRequestToken`: DynamoDB treats identical calls with one token as one call for 10
 * minutes (a repeat of a committed call succeeds without applying anything again). So when an
 * attempt fails in a way that does not prove it was not applied (a time-out, a broken connection, a
 * 5xx, an abort in flight), the commit is repeated with the token to learn the outcome. Resolves
 * when committed (exactly once); rejects with the store's own error when nothing was applied, and
 * with `OUTCOME_UNKNOWN` when the store could not say within the attempts or the deadline.
 * Cancellations (failed conditions, clashes) are final answers of the store and rethrown as is.
 */
function commitOnce(client: DynamoDBDocumentClient, items: SentTransactItem[], opts: TransactOptions): Promise<void> {
  // While this runs, the request's last-resort answer (see shared/http/area.ts) is OUTCOME_UNKNOWN.
  return unsettled(() => confirmedCommit(client, items, opts));
}

async function confirmedCommit(client: DynamoDBDocumentClient, items: SentTransactItem[], opts: TransactOptions): Promise<void> {
  const token = randomUUID();
  const attempts = opts.confirmAttempts ?? config.dynamodb.transactionConfirmAttempts;
  const signals = [opts.abortSignal, storeDeadline()].filter((s): s is AbortSignal => s !== undefined);
  let inDoubt = false;
  for (let attempt = 1; ; attempt++) {
    if (signals.some(abortedBeforeSending)) {
      const reason = signals.find((s) => s.aborted)!.reason;
      if (inDoubt) throw outcomeUnknown(reason);
      throw abortedError(reason);
    }
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: token }), { abortSignal: opts.abortSignal });
      // A store that answers before it commits has hooks (never DynamoDB): inside a request they
      // run once, before it answers; outside one, now.
      const hooks = commitHooksOf(client);
      if (!hooks) return;
      const scope = storeScope();
      if (scope) scope.beforeAnswer = () => hooks.confirm(client, items);
      else await hooks.confirm(client, items, opts.abortSignal);
      return;
    } catch (err) {
      // A cancellation is the store's definite answer for this token (nothing applied).
      if (err instanceof TransactionCanceledException) throw err;
      if (err instanceof Error && err.name === 'IdempotentParameterMismatchException') throw outcomeUnknown(err);
      if (!isTransientDependencyError(err)) {
        if (inDoubt) throw outcomeUnknown(err);
        throw err;
      }
      if (!provesNotApplied(err)) inDoubt = true;
      if (attempt >= attempts) {
        if (inDoubt) throw outcomeUnknown(err);
        throw err;
      }
      try {
        await sleep(Math.random() * 50 * 2 ** attempt, undefined, { signal: signals.length ? AbortSignal.any(signals) : undefined });
      } catch {
        /* the abort is handled at the top of the loop */
      }
    }
  }
}

/**
 * All-or-nothing write. A failed condition maps to the step's own domain error; a clash with a
 * concurrent transaction is retried a few times with jitter, as AWS recommends. A store that times
 * out is asked again with the same request token (see `commitOnce`), so the caller learns whether
 * the write was applied: success, a store error meaning "not applied", or `OUTCOME_UNKNOWN`.
 */
export async function transactWrite(steps: TransactStep[], attempts = 4, opts: TransactOptions = {}): Promise<void> {
  const client = opts.client ?? writeClient();
  for (let attempt = 1; ; attempt++) {
    try {
      await commitOnce(
        client,
        steps.map((s) => withTable(s.op)),
        opts,
      );
      for (const s of steps) s.onCommitted?.();
      return;
    } catch (err) {
      if (isItemTooLarge(err)) throw tooLargeToStore();
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
      if (failed.length) throw conditionError(steps, reasons, failed);
      const clashed = reasons.some((r) => r.Code === 'TransactionConflict');
      if (!clashed) throw err;
      if (attempt >= attempts) throw new TransactionClash();
      await sleep(backoffMs(attempt, config.dynamodb.contention), undefined, { signal: opts.abortSignal });
    }
  }
}

type CancellationReason = NonNullable<TransactionCanceledException['CancellationReasons']>[number];

/**
 * The error of a transaction whose conditions failed: the first failed step's. Validation failures
 * found by several conditions (e.g. two references that name nothing) are reported together, one
 * detail each, as the validator reports its own.
 */
function conditionError(steps: TransactStep[], reasons: CancellationReason[], failed: number[]): Error {
  const errors = failed.map((i) => {
    const item = reasons[i]?.Item;
    return (
      steps[i]?.onConditionFailed?.(item ? unmarshall(item as Parameters<typeof unmarshall>[0]) : undefined) ??
      conflict('The change conflicts with current state')
    );
  });
  const first = errors[0]!;
  if (!(first instanceof AppError) || first.code !== 'VALIDATION_FAILED') return first;
  const details = errors.flatMap((e) => (e instanceof AppError && e.code === 'VALIDATION_FAILED' ? (e.details ?? []) : []));
  return validationFailed(details);
}
