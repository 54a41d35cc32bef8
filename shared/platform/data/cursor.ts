import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors';
import { secretStore } from '../ports/secrets';
import { TABLE_SCHEMA } from './table-schema';

/**
 * Tamper-proof page cursors. A cursor is `<base64url(JSON of the last key)>.<base64url(HMAC)>`;
 * the HMAC covers the key and a fingerprint of the query it continues (index, key condition, its
 * values, filter, direction), so a cursor we did not issue, a modified one, or one issued for
 * another list, partition or workspace is a 400 "Invalid cursor" before DynamoDB sees it.
 *
 * Key: the `pageCursors` secret (`shared/platform/ports/secrets.ts`), read from the store the function's entry
 * hands over (`useSecretStore`: the data layer reaches no adapter itself). AWS: Secrets Manager, read
 * on the first cursor an instance signs or checks; locally the runtime's key file or `CURSOR_SECRET`.
 * Cursors are signed with the current value and still accepted with the previous one while the store
 * offers it (right after a rotation), so a rotation does not break listings under way.
 */
const MIN_SECRET_LENGTH = 32;
const derived = new Map<string, Buffer>();

function keyOf(secret: string): Buffer {
  let key = derived.get(secret);
  if (!key) {
    if (secret.length < MIN_SECRET_LENGTH) throw new Error(`The page cursor secret must be at least ${MIN_SECRET_LENGTH} characters`);
    key = createHash('sha256').update(secret).digest();
    // Two values at a time at most (current and previous); a rotation's leftovers go.
    if (derived.size >= 4) derived.clear();
    derived.set(secret, key);
  }
  return key;
}

/** The key cursors are signed with, then the one they are still accepted with after a rotation, if any. */
async function cursorKeys(): Promise<Buffer[]> {
  const versions = await secretStore().versions('pageCursors');
  if (!versions) throw new Error('The page cursor secret is not configured');
  return [versions.current, ...(versions.previous === undefined ? [] : [versions.previous])].map(keyOf);
}

/** What a cursor is bound to: everything that decides which items the query walks. */
export interface CursorScope {
  IndexName?: string;
  KeyConditionExpression?: string;
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
  ScanIndexForward?: boolean;
}

const stable = (v: unknown): unknown =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
      )
    : v;

function fingerprint(scope: CursorScope): string {
  const { IndexName, KeyConditionExpression, FilterExpression, ExpressionAttributeNames, ExpressionAttributeValues, ScanIndexForward } = scope;
  return JSON.stringify(stable({ IndexName, KeyConditionExpression, FilterExpression, ExpressionAttributeNames, ExpressionAttributeValues, ScanIndexForward }));
}

const mac = (key: Buffer, payload: string, scope: CursorScope): Buffer =>
  createHmac('sha256', key).update(fingerprint(scope)).update('\n').update(payload).digest();

/** The attributes of a last-evaluated key of the table (or of `index`): table key plus index key. */
export function keyAttributes(index?: string): string[] {
  const attrs: string[] = [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey];
  if (index === undefined) return attrs;
  const gsi = TABLE_SCHEMA.gsis.find((g) => g.indexName === index);
  if (!gsi) throw new Error(`Unknown index ${index}`);
  return [...attrs, gsi.partitionKey, gsi.sortKey];
}

/**
 * A list answered without a query (a lookup by a unique key, a filter that names nothing, an empty
 * range) issues no cursor, so any cursor sent with it is one it never issued: the same 400 as a
 * cursor that fails its signature, whatever the short cut.
 */
export function refuseCursor(cursor: string | undefined): void {
  if (cursor !== undefined) throw badRequest('Invalid cursor');
}

export async function encodeCursor(lastKey: Record<string, unknown>, scope: CursorScope): Promise<string> {
  const [key] = await cursorKeys();
  const payload = Buffer.from(JSON.stringify(lastKey)).toString('base64url');
  return `${payload}.${mac(key!, payload, scope).toString('base64url')}`;
}

/**
 * The start key of a cursor issued by `encodeCursor` for this very query, or a 400. Besides the
 * signature, the key must have exactly the key attributes of the table/index, all strings, and the
 * partition the query reads (defence in depth should the secret leak).
 */
export async function decodeCursor(cursor: string, scope: CursorScope, partition: { attr: string; value: string }): Promise<Record<string, unknown>> {
  const invalid = () => badRequest('Invalid cursor');
  const parts = cursor.split('.');
  if (parts.length !== 2) throw invalid();
  const [payload, signature] = parts as [string, string];
  const given = Buffer.from(signature, 'base64url');
  const signedWith = (key: Buffer) => {
    const expected = mac(key, payload, scope);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const keys = await cursorKeys();
  if (!keys.some(signedWith) || given.toString('base64url') !== signature) throw invalid();
  let lastKey: unknown;
  try {
    lastKey = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!lastKey || typeof lastKey !== 'object' || Array.isArray(lastKey)) throw invalid();
  const attrs = keyAttributes(scope.IndexName);
  const entries = Object.entries(lastKey);
  if (
    entries.length !== attrs.length ||
    !attrs.every((a) => typeof (lastKey as Record<string, unknown>)[a] === 'string' && (lastKey as Record<string, string>)[a] !== '')
  ) {
    throw invalid();
  }
  if ((lastKey as Record<string, unknown>)[partition.attr] !== partition.value) throw invalid();
  return lastKey as Record<string, unknown>;
}
