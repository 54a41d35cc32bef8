import { randomUUID } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { config } from '../config';
import { AppError } from '../errors';
import { keyOf } from './keys';
import { deleteItem, getItem, isConditionFailed, putItem, storedItemOf, type Item } from './items';
import { batchGetItems } from './queries';
import { transactWrite, type TransactStep } from './transactions';

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
const partKey = (workspaceId: string, idemKey: string, part: number) => keyOf('idempotencyPart', { workspaceId, key: idemKey, part: String(part) });

/**
 * How an answer is stored: its text (the result's JSON, or the response body) compressed with
 * Brotli into a binary attribute, so it is neither escaped again as a JSON string (a control
 * character took six bytes) nor as large as the text. Compressed answers over
 * `config.storage.idempotencyPartBytes` are cut into parts: the record holds the first, items
 * beside it (same partition, same expiry) the others, tied to the record by `answerId`.
 */
interface StoredAnswer {
  answerKind: 'result' | 'response';
  statusCode?: number;
  answer: Uint8Array;
  /** Parts in all, when more than the record's own. */
  answerParts?: number;
  answerId?: string;
}

/**
 * Quality 5 of 11: most of the gain at a few ms per 100 KB (11 takes seconds for a large answer).
 * The window fits the text (Brotli's default is 4 MiB, set up for every call): for an answer of a
 * kilobyte that set-up was most of the time, and any decoder reads any window, so what is stored
 * decodes as before.
 */
export const compress = (text: string) =>
  brotliCompressSync(text, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
      [constants.BROTLI_PARAM_LGWIN]: windowBitsFor(Buffer.byteLength(text)),
    },
  });

/** The least window (2^bits bytes, 10 to 24 as Brotli allows) that holds `bytes`. */
export const windowBitsFor = (bytes: number): number =>
  Math.min(constants.BROTLI_MAX_WINDOW_BITS, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes + 1))));

/** The record's item and the items of its further parts. */
function encode(workspaceId: string, idemKey: string, record: IdempotencyRecord): { item: Item; parts: Item[] } {
  const { result, response, ...rest } = record;
  const base = { ...key(workspaceId, idemKey), entity: 'idempotency', ...rest };
  if (result === undefined && response === undefined) return { item: base, parts: [] };
  const bytes = compress(result ?? response!.body);
  const size = config.storage.idempotencyPartBytes;
  const chunks: Uint8Array[] = [];
  for (let at = 0; at === 0 || at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  const answerId = chunks.length > 1 ? randomUUID() : undefined;
  const answer: StoredAnswer = {
    ...(result !== undefined ? { answerKind: 'result' } : { answerKind: 'response', statusCode: response!.statusCode }),
    answer: chunks[0]!,
    ...(answerId ? { answerParts: chunks.length, answerId } : {}),
  };
  const parts = chunks
    .slice(1)
    .map((bytes, i) => ({ ...partKey(workspaceId, idemKey, i + 1), entity: 'idempotencyPart', answerId, bytes, expiresAt: record.expiresAt }));
  return { item: { ...base, ...answer }, parts };
}

/** The record as the HTTP layer reads it (records written before answers were compressed hold `result` or `response` as they are). */
async function decode(workspaceId: string, idemKey: string, item: Item): Promise<IdempotencyRecord> {
  const { answerKind, statusCode, answer, answerParts, answerId, pk: _pk, sk: _sk, entity: _entity, ...rest } = item as Item & Partial<StoredAnswer>;
  if (!answer) return rest as IdempotencyRecord;
  const more = answerParts
    ? await batchGetItems<{ answerId: string; bytes: Uint8Array }>(Array.from({ length: answerParts - 1 }, (_, i) => partKey(workspaceId, idemKey, i + 1)))
    : [];
  if (more.length !== (answerParts ?? 1) - 1 || more.some((p) => p.answerId !== answerId)) {
    throw new Error(`idempotency answer of ${idemKey} is missing parts (${more.length + 1} of ${answerParts})`);
  }
  const text = brotliDecompressSync(Buffer.concat([answer, ...more.map((p) => p.bytes)])).toString('utf8');
  return { ...(rest as IdempotencyRecord), ...(answerKind === 'result' ? { result: text } : { response: { statusCode: statusCode!, body: text } }) };
}

/** The recorded answer of a key, unless it has expired (TTL deletion is lazy). */
export async function getRecord(workspaceId: string, idemKey: string, nowEpoch: number): Promise<IdempotencyRecord | undefined> {
  const item = await getItem(key(workspaceId, idemKey));
  return item && item.expiresAt > nowEpoch ? decode(workspaceId, idemKey, item) : undefined;
}

/** Free, expired, or held by the claim `token` (the holder completing its own claim). */
const put = (item: Item, nowEpoch: number, token?: string) => ({
  Item: item,
  ConditionExpression: `attribute_not_exists(pk) OR expiresAt < :now${token ? ' OR claim = :claim' : ''}`,
  ExpressionAttributeValues: { ':now': nowEpoch, ...(token ? { ':claim': token } : {}) },
});

const partSteps = (parts: Item[]): TransactStep[] => parts.map((Item) => ({ op: { Put: { Item } } }));

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
      ...put(encode(workspaceId, idemKey, { requestHash, claim: token, expiresAt: nowEpoch + holdSeconds }).item, nowEpoch),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    return { claimed: true };
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    const current = storedItemOf(err);
    return { claimed: false, current: current ? await decode(workspaceId, idemKey, current) : undefined };
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
 * The answer as steps of the domain transaction (its record, and its further parts if any): the
 * effect and its recorded answer commit together, and of two concurrent requests with one key exactly one can commit (the claim's
 * holder, when the key was claimed).
 */
export function recordStep(
  workspaceId: string,
  idemKey: string,
  record: IdempotencyRecord,
  nowEpoch: number,
  onCommitted: () => void,
  token?: string,
): TransactStep[] {
  const { item, parts } = encode(workspaceId, idemKey, record);
  return [{ op: { Put: put(item, nowEpoch, token) }, onConditionFailed: () => new KeyAlreadyAnswered(), onCommitted }, ...partSteps(parts)];
}

/** Records the answer of a request answered outside a transaction; the first answer stays. */
export async function record(workspaceId: string, idemKey: string, rec: IdempotencyRecord, nowEpoch: number, token?: string): Promise<void> {
  const { item, parts } = encode(workspaceId, idemKey, rec);
  try {
    if (parts.length)
      await transactWrite([{ op: { Put: put(item, nowEpoch, token) }, onConditionFailed: () => new KeyAlreadyAnswered() }, ...partSteps(parts)]);
    else await putItem(put(item, nowEpoch, token));
  } catch (err) {
    if (!isConditionFailed(err) && !(err instanceof KeyAlreadyAnswered)) throw err;
  }
}
