import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
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
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../config';
import { AppError, conflict, outcomeUnknown, validationFailed } from '../domain/errors';
import { documentClient, storeDeadline, storeScope, tableName, transactionClient } from './client';
import { backoffMs, KeyedSerializer, mayRetry } from './contention';
import { decodeCursor, encodeCursor } from './cursor';
import { isTransientDependencyError, provesNotApplied } from './errors';
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

export async function putItem(input: Omit<PutCommandInput, 'TableName'>): Promise<void> {
  await documentClient().send(new PutCommand({ ...input, TableName: tableName() }));
}

export async function updateItem<T extends object = Item>(input: Omit<UpdateCommandInput, 'TableName'>): Promise<T | undefined> {
  const out = await documentClient().send(new UpdateCommand({ ReturnValues: 'ALL_NEW', ...input, TableName: tableName() }));
  return out.Attributes as T | undefined;
}

export async function deleteItem(input: Omit<DeleteCommandInput, 'TableName'>): Promise<void> {
  await documentClient().send(new DeleteCommand({ ...input, TableName: tableName() }));
}

export const isConditionFailed = (err: unknown): boolean =>
  err instanceof Error && err.name === 'ConditionalCheckFailedException';

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

/** One page of a GSI partition (newest first unless `forward`), narrowed by an optional filter. */
export async function indexPage<T extends object = Item>(
  index: 'gsi1' | 'gsi2' | 'gsi3',
  partition: string,
  opts: { limit: number; cursor?: string; filter?: IndexFilter; forward?: boolean },
): Promise<Page<T>> {
  const filter = opts.filter ?? { ExpressionAttributeValues: {} };
  return queryPage<T>({
    partition: { attr: `${index}pk`, value: partition },
    cursor: opts.cursor,
    limit: opts.limit,
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk`,
    ...filter,
    ExpressionAttributeValues: { ...filter.ExpressionAttributeValues, ':pk': partition },
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

/** A raw Query on the table (for callers that walk an index themselves). */
export async function queryRaw(input: Omit<QueryCommandInput, 'TableName'>) {
  return documentClient().send(new QueryCommand({ ...input, TableName: tableName() }));
}

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page, absent on the last page. */
  nextCursor?: string;
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
  let startKey = cursor ? decodeCursor(cursor, rest, partition) : undefined;
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
  return { items, ...(startKey ? { nextCursor: encodeCursor(startKey, rest) } : {}) };
}

/** Items one TransactWriteItems may hold. */
export const MAX_TRANSACTION_ITEMS = 100;

type RawTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
/** A transaction step without TableName: every step targets the single table. */
export type TransactOp = { [K in keyof RawTransactItem]?: Omit<NonNullable<RawTransactItem[K]>, 'TableName'> };

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

const withTable = (op: TransactOp): RawTransactItem => {
  const [kind, body] = Object.entries(op)[0] as [string, Record<string, unknown>];
  return { [kind]: { ...body, TableName: tableName() } } as RawTransactItem;
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
async function commitOnce(client: DynamoDBDocumentClient, items: RawTransactItem[], opts: TransactOptions): Promise<void> {
  // While this runs, the request's last-resort answer (see shared/http/area.ts) is OUTCOME_UNKNOWN.
  const scope = storeScope();
  if (scope) scope.unsettledCommits++;
  try {
    await confirmedCommit(client, items, opts);
  } catch (err) {
    // Settled as "not applied"; an unknown outcome stays unsettled for the rest of the request.
    if (scope && !(err instanceof AppError && err.code === 'OUTCOME_UNKNOWN')) scope.unsettledCommits--;
    throw err;
  }
  if (scope) scope.unsettledCommits--;
}

async function confirmedCommit(client: DynamoDBDocumentClient, items: RawTransactItem[], opts: TransactOptions): Promise<void> {
  const token = randomUUID();
  const attempts = opts.confirmAttempts ?? config.dynamodb.transactionConfirmAttempts;
  const signals = [opts.abortSignal, storeDeadline()].filter((s): s is AbortSignal => s !== undefined);
  let inDoubt = false;
  for (let attempt = 1; ; attempt++) {
    if (signals.some(abortedBeforeSending)) {
      const reason = signals.find((s) => s.aborted)!.reason;
      if (inDoubt) throw outcomeUnknown(reason);
      throw reason instanceof Error ? reason : Object.assign(new Error('Request aborted'), { name: 'AbortError' });
    }
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: token }), { abortSignal: opts.abortSignal });
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
  const client = opts.client ?? transactionClient();
  for (let attempt = 1; ; attempt++) {
    try {
      await commitOnce(client, steps.map((s) => withTable(s.op)), opts);
      for (const s of steps) s.onCommitted?.();
      return;
    } catch (err) {
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
    return steps[i]?.onConditionFailed?.(item ? unmarshall(item as Parameters<typeof unmarshall>[0]) : undefined) ?? conflict('The change conflicts with current state');
  });
  const first = errors[0]!;
  if (!(first instanceof AppError) || first.code !== 'VALIDATION_FAILED') return first;
  const details = errors.flatMap((e) => (e instanceof AppError && e.code === 'VALIDATION_FAILED' ? (e.details ?? []) : []));
  return validationFailed(details);
}
