import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keyOf } from '../keys';
import { transactWrite, type TransactStep } from '../table';

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

/** Internal: the condition of window `index` failed (that window is full). */
class WindowFull extends Error {
  constructor(readonly index: number) {
    super('rate window full');
    this.name = 'WindowFull';
  }
}

/**
 * Clash retries inside one guard call. The time budget (abort signal) is the real bound: with the
 * default 300 ms it allows three or four attempts.
 */
const CLASH_ATTEMPTS = 10;

/**
 * Counts one write in every given window, all or nothing: ONE `TransactWriteItems` of conditional
 * `ADD`s (`attribute_not_exists(writes) OR writes < limit`). No read, so concurrent writers can
 * never both take the last slot. A refused write counts nowhere.
 *
 * Resolves `undefined` when the write was admitted (counted in every window), or the index of the
 * window that refused it. When several windows are full, DynamoDB may report any of them, so the
 * caller orders the windows longest first (the one whose refusal lasts longest). Anything else
 * rejects: a DynamoDB or network error, a transaction that kept clashing, or no answer within
 * `timeoutMs` (the SDK call is aborted and `RateStoreTimeout` rejects at once).
 */
export async function countRateWindows(
  workspaceId: string,
  keyId: string,
  windows: RateWindowCount[],
  opts: { timeoutMs: number; client?: RateStoreClient },
): Promise<number | undefined> {
  const steps: TransactStep[] = windows.map((w, index) => ({
    op: {
      Update: {
        Key: keyOf('rateWindow', { workspaceId, keyId, window: w.window }),
        UpdateExpression: 'SET entity = :e, workspaceId = :ws, keyId = :k, expiresAt = :x ADD #n :one',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
        ExpressionAttributeNames: { '#n': 'writes' },
        ExpressionAttributeValues: { ':e': 'rateWindow', ':ws': workspaceId, ':k': keyId, ':x': w.expiresAt, ':one': 1, ':limit': w.limit },
      },
    },
    onConditionFailed: () => new WindowFull(index),
  }));

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new RateStoreTimeout(opts.timeoutMs)), opts.timeoutMs);
  // Rejects on abort even if the SDK were still busy (e.g. sleeping between its own retries).
  const deadline = new Promise<never>((_, reject) =>
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
  );
  try {
    await Promise.race([transactWrite(steps, CLASH_ATTEMPTS, { client: opts.client, abortSignal: controller.signal }), deadline]);
    return undefined;
  } catch (err) {
    if (err instanceof WindowFull) return err.index;
    // The SDK reports an abort with its own error; name the real cause.
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
