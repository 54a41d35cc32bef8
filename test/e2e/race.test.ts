import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { call, type ApiResponse } from '../support/api';
import type { SchemaFuzzer } from '../support/fuzz';
import { buildWorld, credentialOf, knownPathValues, operationsOf, schemaFuzzerOf, type Operation, type World } from '../support/probe-world';
import { startReceiver } from '../support/receiver';

/**
 * Every write route of the route table raced against itself: the same request, with the route's own
 * credential, real ids and a body drawn from its schema, sent N times at once (with one
 * `Idempotency-Key` where the route honours it). Whatever the request does, the answers must be
 * documented and never a 5xx (a lost race is a 409, never a 500 or a half-written change); where the
 * route is idempotent, at most one of them ran and every success is that one answer. The routes come
 * from the route table, so a new write route is raced without being listed; the last test fails if
 * one was not. Domain races with exact outcomes (stock, budgets, balances) are tested in their areas.
 */

const N = 6;
const SEED = Number(process.env.FUZZ_SEED ?? 7);

const doc = buildOpenApiDocument() as Record<string, any>;
const { operations } = operationsOf(doc);
/** Deletions last, so the ids the other routes name live as long as possible; signing out last of all. */
const order = (op: Operation) => (op.id === 'endSession' ? 3 : op.method === 'DELETE' ? 2 : 1);
const writes = operations.filter((o) => o.method !== 'GET').sort((a, b) => order(a) - order(b));
const raced = new Set<string>();
/** Per route, the statuses its racers got: printed at the end, so a run shows how far the races got. */
const outcomes = new Map<string, number[]>();

let world: World;
let fuzzer: SchemaFuzzer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  world = await buildWorld('race', receiver.url);
  fuzzer = schemaFuzzerOf(doc, world);
});

afterAll(async () => {
  await receiver?.close();
  const succeeded = [...outcomes.values()].filter((s) => s.some((x) => x < 300)).length;
  console.log(`race: ${outcomes.size} write routes, ${succeeded} with a success among their racers`);
  if (process.env.FUZZ_TRACE) for (const [key, s] of outcomes) console.log(`  ${key}: ${s.join(' ')}`);
});

/** The route's plain request: real ids in the path, a schema-valid body, its own credential. */
function plainRequest(op: Operation): { path: string; token?: string; headers: Record<string, string>; body?: unknown } {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(knownPathValues(op, name, world.values)[0] ?? 'x'));
  const credential = op.schemes[0] ? credentialOf(op.schemes[0], world.a) : {};
  const headers = { ...credential.headers, ...(op.idempotent ? { 'idempotency-key': `race-${randomUUID()}` } : {}) };
  const body = op.body ? fc.sample(fuzzer.validValue(op.body), { seed: SEED, numRuns: 1 })[0] : undefined;
  return { path, ...(credential.token ? { token: credential.token } : {}), headers, ...(body !== undefined ? { body } : {}) };
}

const described = (r: ApiResponse) => `${r.status} ${JSON.stringify(r.body)?.slice(0, 400)}`;

describe('racing every write route of the route table against itself', () => {
  it.each(writes.map((o) => [o.key, o] as const))('%s', { timeout: 60_000 }, async (_, op) => {
    const request = plainRequest(op);
    const answers = await Promise.all(Array.from({ length: N }, () => call(op.method, request.path, request)));
    raced.add(op.key);
    outcomes.set(
      op.key,
      answers.map((r) => r.status),
    );
    for (const r of answers) expect(r.status, `${op.key}: ${described(r)}`).toBeLessThan(500);
    if (!op.idempotent) return;
    const inUse = answers.filter((r) => r.status === 409 && r.body?.error?.code === 'IDEMPOTENCY_KEY_IN_USE');
    const succeeded = answers.filter((r) => r.status < 300);
    const originals = succeeded.filter((r) => r.headers.get('idempotent-replayed') !== 'true');
    expect(originals.length, `${op.key}: one key ran more than once: ${answers.map(described).join('\n')}`).toBeLessThanOrEqual(1);
    for (const r of succeeded) expect(r.body, op.key).toEqual(originals[0]?.body);
    if (originals[0]) {
      // Every request that neither ran nor waited was answered with the one success, and so is a later retry.
      expect(succeeded.length + inUse.length, op.key).toBe(N);
      const later = await call(op.method, request.path, request);
      expect(later.headers.get('idempotent-replayed'), `${op.key}: ${described(later)}`).toBe('true');
      expect(later.body).toEqual(originals[0].body);
    }
  });

  // Last in the file: the routes are the route table's, so this fails only if the list above lost one.
  it('raced every write route of the route table', () => {
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.map((o) => o.key).filter((key) => !raced.has(key))).toEqual([]);
  });
});
