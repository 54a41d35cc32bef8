import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { runtimeConfig } from '../config';
import { badRequest } from '../errors';
import { TABLE_SCHEMA } from './table-schema';

/**
 * Tamper-proof page cursors. A cursor is `<base64url(JSON of the last key)>.<base64url(HMAC)>`;
 * the HMAC covers the key and a fingerprint of the query it continues (index, key condition, its
 * values, filter, direction), so a cursor we did not issue, a modified one, or one issued for
 * another list, partition or workspace is a 400 "Invalid cursor" before DynamoDB sees it.
 *
 * Key: `CURSOR_SECRET` (CDK sets it on every area function from a generated Secrets Manager secret).
 * Without it (the local runtime, tests) a random key per process: cursors then do not survive a
 * restart, which only restarts a listing.
 */
const MIN_SECRET_LENGTH = 32;
let key: Buffer | undefined;

function cursorKey(): Buffer {
  if (key) return key;
  const secret = runtimeConfig().CURSOR_SECRET;
  if (secret !== undefined) {
    if (secret.length < MIN_SECRET_LENGTH) throw new Error(`CURSOR_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
    key = createHash('sha256').update(secret).digest();
  } else if (runtimeConfig().STAGE === 'aws') {
    // Every instance must share the key, or a cursor fails on the next instance.
    throw new Error('CURSOR_SECRET is not set');
  } else {
    key = randomBytes(32);
  }
  return key;
}

/** For tests: forget the key (the next cursor reads the configuration again). */
export function resetCursorKey(): void {
  key = undefined;
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

const mac = (payload: string, scope: CursorScope): Buffer => createHmac('sha256', cursorKey()).update(fingerprint(scope)).update('\n').update(payload).digest();

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

export function encodeCursor(lastKey: Record<string, unknown>, scope: CursorScope): string {
  const payload = Buffer.from(JSON.stringify(lastKey)).toString('base64url');
  return `${payload}.${mac(payload, scope).toString('base64url')}`;
}

/**
 * The start key of a cursor issued by `encodeCursor` for this very query, or a 400. Besides the
 * signature, the key must have exactly the key attributes of the table/index, all strings, and the
 * partition the query reads (defence in depth should the secret leak).
 */
export function decodeCursor(cursor: string, scope: CursorScope, partition: { attr: string; value: string }): Record<string, unknown> {
  const invalid = () => badRequest('Invalid cursor');
  const parts = cursor.split('.');
  if (parts.length !== 2) throw invalid();
  const [payload, signature] = parts as [string, string];
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(payload, scope);
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString('base64url') !== signature) throw invalid();
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
