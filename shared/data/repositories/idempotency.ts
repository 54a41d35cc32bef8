import { AppError } from '../../errors';
import { keyOf } from '../keys';
import { getItem, isConditionFailed, putItem, type TransactStep } from '../table';

export interface StoredResponse {
  statusCode: number;
  body: string;
}

export interface IdempotencyRecord {
  requestHash: string;
  /** The HTTP answer, for requests answered outside a domain transaction (batches, duplicates). */
  response?: StoredResponse;
  /** The domain result as JSON, recorded inside the domain transaction; replays shape it again. */
  result?: string;
  /** Epoch seconds; also the table's TTL attribute. */
  expiresAt: number;
}

/** Another request with the same key recorded its answer first. */
export class KeyAlreadyAnswered extends AppError {
  constructor() {
    super('CONFLICT', 'Another request with this Idempotency-Key was answered first');
  }
}

const key = (workspaceId: string, idemKey: string) => keyOf('idempotency', { workspaceId, key: idemKey });

/** The recorded answer of a key, unless it has expired (TTL deletion is lazy). */
export async function getRecord(workspaceId: string, idemKey: string, nowEpoch: number): Promise<IdempotencyRecord | undefined> {
  const item = await getItem<IdempotencyRecord>(key(workspaceId, idemKey));
  return item && item.expiresAt > nowEpoch ? item : undefined;
}

const put = (workspaceId: string, idemKey: string, record: IdempotencyRecord, nowEpoch: number) => ({
  Item: { ...key(workspaceId, idemKey), entity: 'idempotency', ...record },
  ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
  ExpressionAttributeValues: { ':now': nowEpoch },
});

/**
 * The answer as a step of the domain transaction: the effect and its recorded answer commit
 * together, and of two concurrent requests with one key exactly one can commit.
 */
export function recordStep(workspaceId: string, idemKey: string, record: IdempotencyRecord, nowEpoch: number, onCommitted: () => void): TransactStep {
  return { op: { Put: put(workspaceId, idemKey, record, nowEpoch) }, onConditionFailed: () => new KeyAlreadyAnswered(), onCommitted };
}

/** Records the answer of a naturally idempotent request after the fact; the first answer stays. */
export async function record(workspaceId: string, idemKey: string, rec: IdempotencyRecord, nowEpoch: number): Promise<void> {
  try {
    await putItem(put(workspaceId, idemKey, rec, nowEpoch));
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}
