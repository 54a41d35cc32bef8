import { AppError } from '../../errors';
import { keyOf } from '../keys';
import { deleteItem, getItem, isConditionFailed, putItem, storedItemOf, type TransactStep } from '../table';

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
  /**
   * Set while the first request with the key runs (no answer yet): the token of that request. Its
   * `expiresAt` is then the moment another request may take the key over (a crashed holder).
   */
  claim?: string;
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

/** Free, expired, or held by the claim `token` (the holder completing its own claim). */
const put = (workspaceId: string, idemKey: string, record: IdempotencyRecord, nowEpoch: number, token?: string) => ({
  Item: { ...key(workspaceId, idemKey), entity: 'idempotency', ...record },
  ConditionExpression: `attribute_not_exists(pk) OR expiresAt < :now${token ? ' OR claim = :claim' : ''}`,
  ExpressionAttributeValues: { ':now': nowEpoch, ...(token ? { ':claim': token } : {}) },
});

/** A claim taken, or the record that stood in its way (another request's claim or answer). */
export type ClaimOutcome = { claimed: true } | { claimed: false; current: IdempotencyRecord | undefined };

/**
 * Claims a free (or expired, or abandoned) key for the request `token` before it runs: of
 * concurrent requests with one key exactly one claims it. A refused claim returns the record that
 * holds the key, read by the same request (`ALL_OLD`), so a repeat costs no lookup of its own.
 */
export async function claim(
  workspaceId: string,
  idemKey: string,
  requestHash: string,
  token: string,
  nowEpoch: number,
  holdSeconds: number,
): Promise<ClaimOutcome> {
  try {
    await putItem({
      ...put(workspaceId, idemKey, { requestHash, claim: token, expiresAt: nowEpoch + holdSeconds }, nowEpoch),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    return { claimed: true };
  } catch (err) {
    if (isConditionFailed(err)) return { claimed: false, current: storedItemOf(err) as IdempotencyRecord | undefined };
    throw err;
  }
}

/** Gives a claim up (its request failed): the key is free again. A claim taken over stays. */
export async function release(workspaceId: string, idemKey: string, token: string): Promise<void> {
  try {
    await deleteItem({ Key: key(workspaceId, idemKey), ConditionExpression: 'claim = :claim', ExpressionAttributeValues: { ':claim': token } });
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

/**
 * The answer as a step of the domain transaction: the effect and its recorded answer commit
 * together, and of two concurrent requests with one key exactly one can commit (the claim's
 * holder, when the key was claimed).
 */
export function recordStep(
  workspaceId: string,
  idemKey: string,
  record: IdempotencyRecord,
  nowEpoch: number,
  onCommitted: () => void,
  token?: string,
): TransactStep {
  return { op: { Put: put(workspaceId, idemKey, record, nowEpoch, token) }, onConditionFailed: () => new KeyAlreadyAnswered(), onCommitted };
}

/** Records the answer of a request answered outside a transaction; the first answer stays. */
export async function record(workspaceId: string, idemKey: string, rec: IdempotencyRecord, nowEpoch: number, token?: string): Promise<void> {
  try {
    await putItem(put(workspaceId, idemKey, rec, nowEpoch, token));
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}
