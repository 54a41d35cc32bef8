import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableName, writeClient } from './client';
import { keyOf } from './keys';
import { isConditionFailed } from './items';

/** The client the rate windows are counted with (injectable so tests can point it elsewhere). */
export type RateStoreClient = DynamoDBDocumentClient;

/** One fixed window to count a write in. */
export interface RateWindowCount {
  /** Size and start, e.g. `1s:1767225600` or `10s:1767225600`. */
  window: string;
  /** Writes the window admits; the write that would make it `limit + 1` is refused. */
  limit: number;
  /** Epoch seconds at which the table's TTL may delete the counter. */
  expiresAt: number;
}

/** The store did not answer within the guard's time budget. */
export class RateStoreTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The rate-window store did not answer within ${timeoutMs} ms`);
    this.name = 'RateStoreTimeout';
  }
}

/**
 * Counts one write in every given window, all or nothing, in the order given (shortest window
 * first): per window ONE conditional single-item `ADD` (`attribute_not_exists(writes) OR writes <
 * limit`), no read, so concurrent writers can never both take the last slot, and no transaction, so
 * they never clash with each other either (a transaction on a hot counter is cancelled by every
 * concurrent one). When window `i` refuses, the slots already taken in windows `0..i-1` are given
 * back (`ADD -1`), so a refused write counts nowhere once the guard has answered.
 *
 * Resolves `undefined` when the write was admitted (counted in every window), or the index of the
 * window that refused it. Anything else rejects: a DynamoDB or network error, or no answer within
 * `timeoutMs` (the SDK call is aborted and `RateStoreTimeout` rejects at once); slots taken before
 * are given back then too.
 */
export async function countRateWindows(
  workspaceId: string,
  keyId: string,
  windows: RateWindowCount[],
  opts: { timeoutMs: number; client?: RateStoreClient },
): Promise<number | undefined> {
  const client = opts.client ?? writeClient();
  const keyOfWindow = (w: RateWindowCount) => keyOf('rateWindow', { workspaceId, keyId, window: w.window });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new RateStoreTimeout(opts.timeoutMs)), opts.timeoutMs);
  // Rejects on abort even if the SDK were still busy (e.g. waiting for a connection).
  const deadline = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
  const taken: RateWindowCount[] = [];
  const giveBackTaken = () => Promise.all(taken.map((w) => giveBack(client, keyOfWindow(w))));
  try {
    for (const [index, w] of windows.entries()) {
      const take = client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keyOfWindow(w),
          UpdateExpression: 'SET entity = :e, workspaceId = :ws, keyId = :k, expiresAt = :x ADD #n :one',
          ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
          ExpressionAttributeNames: { '#n': 'writes' },
          ExpressionAttributeValues: { ':e': 'rateWindow', ':ws': workspaceId, ':k': keyId, ':x': w.expiresAt, ':one': 1, ':limit': w.limit },
          ReturnValues: 'NONE',
        }),
        // The guard's budget is the only bound: the client's per-attempt time-out starts before a
        // pooled connection is free, and a burst of one key queues for those.
        { abortSignal: controller.signal, requestTimeout: opts.timeoutMs },
      );
      try {
        await Promise.race([take, deadline]);
      } catch (err) {
        if (!isConditionFailed(err)) throw err;
        // Given back before the refusal is answered, so the caller's next write finds it free.
        await giveBackTaken();
        return index;
      }
      taken.push(w);
    }
    return undefined;
  } catch (err) {
    // Not awaited: the store is failing, and the answer (503) must not wait for it.
    void giveBackTaken();
    // The SDK reports an abort with its own error; name the real cause.
    throw controller.signal.aborted ? controller.signal.reason : err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Returns a slot taken for a write that was then refused (or whose other counts failed). Best
 * effort and never a reason to fail the answer: a slot not given back only makes its window
 * stricter until it ends, it never admits more.
 */
async function giveBack(client: RateStoreClient, key: ReturnType<typeof keyOf>): Promise<void> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD #n :minusOne',
        ConditionExpression: 'attribute_exists(#n)',
        ExpressionAttributeNames: { '#n': 'writes' },
        ExpressionAttributeValues: { ':minusOne': -1 },
        ReturnValues: 'NONE',
      }),
    );
  } catch {
    /* see above */
  }
}

/**
 * Takes one request slot of a workspace budget's 1-second window: ONE conditional single-item `ADD`
 * (`attribute_not_exists(requests) OR requests < limit`) that answers the new count, so concurrent
 * instances never both take the last slot and no read comes first. Resolves the count including
 * this request, or `undefined` when the window was full (nothing counted). Rejects on a store error
 * or no answer within `timeoutMs` (the call is aborted).
 */
export async function takeRequestSlot(
  workspaceId: string,
  budget: string,
  window: { key: string; limit: number; expiresAt: number },
  opts: { timeoutMs: number; client?: RateStoreClient },
): Promise<number | undefined> {
  const client = opts.client ?? writeClient();
  const signal = AbortSignal.timeout(opts.timeoutMs);
  // Rejects at the time-out even if the SDK were still waiting for a pooled connection.
  const deadline = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new RateStoreTimeout(opts.timeoutMs)), { once: true }));
  try {
    const take = client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf('rateWindow', { workspaceId, keyId: `workspace:${budget}`, window: window.key }),
        UpdateExpression: 'SET entity = :e, workspaceId = :ws, expiresAt = :x ADD #n :one',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
        ExpressionAttributeNames: { '#n': 'requests' },
        ExpressionAttributeValues: { ':e': 'rateWindow', ':ws': workspaceId, ':x': window.expiresAt, ':one': 1, ':limit': window.limit },
        ReturnValues: 'UPDATED_NEW',
      }),
      { abortSignal: signal, requestTimeout: opts.timeoutMs },
    );
    const out = await Promise.race([take, deadline]);
    return Number(out.Attributes?.requests);
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}
