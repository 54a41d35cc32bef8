import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { call, createKey, registerAccount, type Account } from '../support/api';
import { newMember, newOrder } from '../support/fixtures';
import { nested, ODD_STRINGS, RawJson, requestVocabulary, SchemaFuzzer, toJsonText } from '../support/fuzz';
import { METHODS } from '../support/openapi';
import { startReceiver } from '../support/receiver';
import { addUser, platformTable } from '../support/table';
import { canonical, netChanges, TableChanges } from '../support/table-changes';
import { SCOPES } from '../../shared/records/api-keys';

/**
 * A property-based fuzzer over every operation of the OpenAPI document. Each operation gets
 * requests generated from its own parameter and body schemas: wrong types, values beyond the
 * limits (numbers at and beyond 2^53, in exponent form, with long fractions), odd unicode, reserved
 * keys, crafted cursors, unknown and missing fields, deep and
 * oversized bodies, other content types, missing or wrong credentials; path ids are mostly real
 * entities of the workspace (so requests get past the 404 to the body), sometimes another
 * workspace's or garbage. Every request must
 *
 * - not be answered with a 5xx (the store is healthy here, so a 503 is a failure too);
 * - be answered as the document says (status and body; `call` checks it);
 * - if refused (4xx), leave both workspaces' data as it was: the table's stream shows every item
 *   the request wrote, and the net change of each (its image before the first and after the last
 *   write) must be nil, apart from the exemptions below.
 *
 * FUZZ_RUNS (default 4) random requests per operation, on top of a fixed set of edge cases each: the
 * seed changes with every run, so the runs add up over time while one suite stays bounded as the
 * document grows.
 * FUZZ_SEED reproduces a run (it is printed at the start and with every failure); FUZZ_OPS limits
 * the run to some operationIds (comma-separated).
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 2 ** 31)) | 0;
const ONLY = process.env.FUZZ_OPS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
/** The body limit (1 MiB) plus one byte. */
const OVERSIZE = 1024 * 1024 + 1;

/**
 * Writes a refused request may legitimately make, or that happen at that time without it:
 * - `rateWindow` items: the objects write-rate guard counts attempts before the record is judged,
 *   refused ones included (it bounds load, not successes).
 * - `apiKey.lastUsedAt`: stamped when the key authenticates (at most once a minute), before the
 *   request is judged.
 * - `webhookDelivery` / `webhookAttempt` items and `webhookEndpoint.failingSince`: written by the
 *   background delivery worker for events of earlier accepted requests (no request handler writes
 *   them), whenever a delivery happens to run.
 * - the export workflow's progress on jobs of earlier accepted requests (`exportJob` status, times,
 *   counts, file, error) and the release of the workspace's archive lock (`exportArchiveLock`) when
 *   such a job ends, written by the workflow's steps whenever they run (no request handler writes
 *   them; a request creates a job and its lock, which still counts as a change).
 * - deletions by TTL (done by the store itself).
 * - the audit entry of a failed login (`auth.login_failed`, outcome `failure`): recording the refusal
 *   is what the audit trail is for. The same for the entry of a refused MCP call (`mcp.*`, outcome
 *   `failure`): every JSON-RPC call is audited, refused ones included. Every other audit entry still
 *   counts as a change.
 */
const EXEMPT_ENTITIES = new Set(['rateWindow', 'webhookDelivery', 'webhookAttempt']);
const EXEMPT_ATTRIBUTES: Record<string, string[]> = {
  apiKey: ['lastUsedAt'],
  webhookEndpoint: ['failingSince'],
  exportJob: ['status', 'startedAt', 'completedAt', 'rowCount', 'objectKey', 'capped', 'error'],
};

type Json = Record<string, any>;

interface Operation {
  id: string;
  method: string;
  path: string;
  params: Json[];
  body?: Json;
  /** Security schemes the operation takes, in the document's order; empty: public. */
  schemes: string[];
  idempotent: boolean;
}

/**
 * The credential a case sends: the operation's own (`right`: its first scheme, `alternative`: its
 * second), or one it must refuse or confine: none, malformed, unknown, of the wrong kind, an API key
 * without the scope or a session without an admin role (`weaker`), or the other workspace's own.
 */
type AuthChoice = 'right' | 'alternative' | 'none' | 'garbage' | 'unknownKey' | 'otherKind' | 'weaker' | 'otherWorkspace' | 'basic';
interface PathValue {
  value: string;
  /** Put into the path as is (a percent-escape of our own), not encoded. */
  raw?: boolean;
}
type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType?: string | null }
  | { kind: 'text'; text: string; contentType?: string | null }
  | { kind: 'oversize' };
interface FuzzCase {
  auth: AuthChoice;
  path: Record<string, PathValue>;
  query: { name: string; value: string; raw?: boolean }[];
  body: Body;
  headers: Record<string, string>;
}

const doc = buildOpenApiDocument() as Json;
const ownKeys = (o: object | undefined) => (o ? Object.keys(o) : []);

const operations: Operation[] = Object.entries<Json>(doc.paths)
  .flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => {
      const op = item[m] as Json;
      const params = (op.parameters ?? []) as Json[];
      return {
        id: op.operationId as string,
        method: m.toUpperCase(),
        path,
        params: params.filter((p) => !p.$ref),
        body: op.requestBody?.content?.['application/json']?.schema,
        schemes: (op.security as Json[]).flatMap(ownKeys),
        idempotent: params.some((p) => p.$ref === '#/components/parameters/IdempotencyKey'),
      };
    }),
  )
  // Reads first and deletions last, so the fixtures the other operations name live as long as possible.
  .sort((a, b) => rank(a.method) - rank(b.method))
  .filter((o) => !ONLY || ONLY.includes(o.id));

function rank(method: string): number {
  return ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].indexOf(method);
}

// ---------------------------------------------------------------------------------------------
// The world: two workspaces with one of everything, and the credentials to reach them.
// ---------------------------------------------------------------------------------------------

interface World {
  a: Account & { key: string; keyId: string; lackingKey: string; memberSession: string };
  b: Account & { key: string };
  /** Real values per name (own workspace first, then the other one's). */
  values: Map<string, string[]>;
  foreign: Map<string, string[]>;
}

let world: World;
let changes: TableChanges;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let fuzzer: SchemaFuzzer;
let requests = 0;
const statuses = new Map<number, number>();
const started = Date.now();

const add = (map: Map<string, string[]>, name: string, ...values: (string | undefined | null)[]) => {
  const list = map.get(name) ?? [];
  for (const v of values) if (typeof v === 'string' && v && !list.includes(v)) list.push(v);
  map.set(name, list);
};

async function ok(method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await call(method, path, { token, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 300) throw new Error(`fuzz setup: ${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body?.data;
}

async function workspace(label: string, values: Map<string, string[]>): Promise<Account & { key: string; keyId: string }> {
  const account = await registerAccount(label);
  const key = await createKey(account.token, { name: 'all', scopes: [...SCOPES] });
  const t = { ...account, key: key.key, keyId: key.id };
  add(values, 'email', account.email);
  const members = [await newMember(t.key, { externalId: `ext-${label}-1`, firstName: 'Ada' }), await newMember(t.key, { externalId: `ext-${label}-2` })];
  for (const m of members) {
    add(values, 'memberId', m.id);
    add(values, 'email', m.email);
    add(values, 'externalId', m.externalId);
  }
  const store = await ok('POST', '/api/v2/stores', t.key, { name: `${label} store`, code: `S-${label}` });
  add(values, 'storeId', store.id);
  const order = await newOrder(t.key, members[0].id, { storeId: store.id, items: [{ sku: `${label}-1`, quantity: 1, unitPrice: 100 }] });
  add(values, 'externalOrderId', order.externalOrderId);
  await ok('POST', `/api/v2/members/${members[0].id}/points`, t.key, { type: 'earn', amount: 50, reason: 'fuzz' });
  await ok('POST', `/api/v2/members/${members[0].id}/tags`, t.key, { tags: ['vip', 'newsletter'] });
  add(values, 'tag', 'vip', 'newsletter');
  add(values, 'tagKey', 'vip', 'newsletter');
  add(values, 'prefix', 'v', 'news');
  const type = {
    label: 'Fuzz thing',
    status: 'published',
    apiVisible: true,
    fields: [
      { key: 'title', type: 'text', required: true },
      { key: 'count', type: 'number' },
      { key: 'kind', type: 'enum', options: ['a', 'b'] },
      { key: 'owner', type: 'member_ref' },
      { key: 'when', type: 'datetime' },
    ],
  };
  await ok('PUT', '/api/flash/objects/types/fuzz_thing', t.token, type);
  add(values, 'type', 'fuzz_thing');
  for (const title of ['first', 'second']) {
    const record = await ok('POST', '/api/v2/objects/fuzz_thing/records', t.key, { data: { title, count: 1, kind: 'a', owner: members[0].id } });
    add(values, 'recordId', record.id);
  }
  const imported = await ok('POST', '/api/v2/catalog/import', t.key, {
    products: [
      {
        sku: `${label}-1`,
        name: 'Fuzz product',
        category: { key: 'shoes', name: 'Shoes' },
        brand: { key: 'acme', name: 'Acme' },
        price: { amount: 10, currency: 'EUR' },
      },
    ],
  });
  add(values, 'productId', ...imported.results.map((r: { productId?: string }) => r.productId));
  add(values, 'sku', `${label}-1`);
  add(values, 'category', 'shoes');
  add(values, 'parentKey', 'shoes');
  add(values, 'brand', 'acme');
  const pool = await ok('POST', '/api/v2/coupons/pools', t.key, {
    name: 'Fuzz pool',
    discount: { type: 'percent', value: 10 },
    codeConfig: { mode: 'generated' },
    stock: 1000,
  });
  add(values, 'poolId', pool.id);
  const coupon = await ok('POST', '/api/v2/coupons/issue', t.key, { poolId: pool.id, memberId: members[0].id });
  add(values, 'couponId', coupon.id);
  add(values, 'code', coupon.code);
  const referral = await ok('POST', `/api/v2/ambassador/members/${members[0].id}/issue-code`, t.key);
  add(values, 'referralCode', referral?.code);
  await ok('POST', '/api/v2/tracking/events', t.key, {
    events: [{ eventId: `ev-${label}`, memberId: members[0].id, type: 'page.viewed', occurredAt: new Date().toISOString() }],
  });
  add(values, 'eventId', `ev-${label}`);
  return t;
}

beforeAll(async () => {
  const values = new Map<string, string[]>();
  const foreign = new Map<string, string[]>();
  receiver = await startReceiver();
  const [a, b] = await Promise.all([workspace('fuzz', values), workspace('fuzz-other', foreign)]);
  // Credentials the fuzzer must not be able to revoke are kept out of the id pools: the victim key is.
  const victim = await createKey(a.token, { name: 'victim', preset: 'read-only' });
  const lacking = await createKey(a.token, { name: 'lacking', scopes: ['consent:read'] });
  add(values, 'apiKeyId', victim.id);
  for (const description of ['main', 'victim']) {
    const endpoint = await ok('POST', '/api/v2/webhooks', a.key, { url: receiver.url, eventTypes: ['coupon.redeemed'], description });
    add(values, 'endpointId', endpoint.id);
  }
  const ping = await ok('POST', `/api/v2/webhooks/${values.get('endpointId')![0]}/test`, a.key);
  add(values, 'deliveryId', ping.deliveryId);
  // Real cursors, to be continued (or misused on another list).
  for (const path of ['/api/v2/members', '/api/v2/stores', '/api/v2/api-keys', `/api/v2/members/${values.get('memberId')![0]}/tags`]) {
    const res = await call('GET', `${path}?limit=1`, { token: a.key });
    add(values, 'cursor', res.body?.nextCursor);
  }
  const member = await addUser(a.workspaceId, 'member');
  const memberLogin = await ok('POST', '/api/v2/auth/login', '', member);
  world = { a: { ...a, lackingKey: lacking.key, memberSession: memberLogin.session.token }, b, values, foreign };

  const vocabulary = requestVocabulary(doc);
  fuzzer = new SchemaFuzzer({
    doc,
    known: (name) => [...(values.get(name) ?? []), ...(foreign.get(name) ?? []).slice(0, 1)],
    vocabulary: [...vocabulary.keys(), 'title', 'count', 'kind', 'owner', 'when'],
    schemaOf: (name) => vocabulary.get(name),
  });
  changes = await TableChanges.start((await platformTable()).runtime);
  // The change check must see writes at all: one accepted change of each workspace, seen at once.
  await ok('PATCH', `/api/v2/stores/${values.get('storeId')![0]}`, a.key, { name: 'fuzz store, renamed' });
  await ok('PATCH', `/api/v2/stores/${foreign.get('storeId')![0]}`, b.key, { name: 'other store, renamed' });
  const seen = await workspaceChanges();
  if (!seen.some((c) => c.includes(a.workspaceId)) || !seen.some((c) => c.includes(b.workspaceId))) {
    throw new Error(`fuzz setup: the table's stream did not show the workspaces' writes: ${JSON.stringify(seen)}`);
  }
  console.log(`fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}, ${operations.length} operations`);
});

afterAll(async () => {
  await receiver?.close();
  const histogram = [...statuses]
    .sort(([x], [y]) => x - y)
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  console.log(`fuzz: ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS}); statuses ${histogram}`);
});

// ---------------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------------

/** Real values for a path parameter: by its name, or for `{id}` by the collection before it. */
function knownPathValues(op: Operation, name: string, pool: Map<string, string[]>): string[] {
  if (name !== 'id') return pool.get(name) ?? [];
  const segments = op.path.split('/');
  const collection = segments[segments.indexOf('{id}') - 1];
  const byCollection: Record<string, string> = {
    members: 'memberId',
    stores: 'storeId',
    'api-keys': 'apiKeyId',
    webhooks: 'endpointId',
    products: 'productId',
    coupons: 'couponId',
    records: 'recordId',
  };
  return pool.get(byCollection[collection ?? ''] ?? name) ?? [];
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function craftedCursors(): string[] {
  const ws = world.a.workspaceId;
  const real = world.values.get('cursor') ?? [];
  const [payload = '', sig = ''] = (real[0] ?? '').split('.');
  return [
    'garbage',
    b64({ pk: `WS#${ws}`, sk: 'STORE#' }),
    `${b64({ pk: `WS#${world.b.workspaceId}#MEMBER#x`, sk: 'MEMBER', gsi1pk: `WS#${world.b.workspaceId}#MEMBERS`, gsi1sk: 'x' })}.${sig}`,
    `${b64({ pk: { S: 'x' } })}.AAAA`,
    `${b64(null)}.`,
    `${b64([1, 2])}.${sig}`,
    `${b64('x'.repeat(3000))}.${sig}`,
    `${payload}.${sig}x`,
    `${payload}.${sig.slice(0, -4)}AAAA`,
    `.${sig}`,
    '.',
    '..',
    'x'.repeat(2049),
    `${b64({ __proto__: null, constructor: { prototype: 1 } })}.${sig}`,
    ...real,
  ];
}

function pathValueArb(op: Operation, p: Json): fc.Arbitrary<PathValue> {
  const own = knownPathValues(op, p.name, world.values);
  const foreign = knownPathValues(op, p.name, world.foreign);
  const otherKinds = [...world.values.values()].flat().filter((v) => /^[a-z]{2,4}_/.test(v));
  const garbage: PathValue[] = [
    ...['x'.repeat(65), 'x'.repeat(1000), 'x'.repeat(20_000), '__proto__', 'constructor', 'prototype', '.', '..', ...ODD_STRINGS].map((value) => ({ value })),
    ...['%2F', 'a%2Fb', '%2e%2e', '%zz', '%', '%ED%A0%80', '%00', '%C0%AF', '%FF%FE', '%252F'].map((value) => ({ value, raw: true })),
  ];
  return fc.oneof(
    {
      arbitrary: own.length ? fc.constantFrom(...own).map((value) => ({ value })) : fuzzer.validValue(p.schema, p.name).map((v) => ({ value: asText(v) })),
      weight: 8,
    },
    { arbitrary: fuzzer.validValue(p.schema, '').map((v) => ({ value: asText(v) })), weight: 1 },
    { arbitrary: fc.constantFrom(...(foreign.length ? foreign : otherKinds)).map((value) => ({ value })), weight: 1 },
    { arbitrary: fc.constantFrom(...garbage), weight: 2 },
  );
}

type QueryValue = { value: string; raw?: boolean };
/** A copy of a generated value with every number (RawJson numbers too) replaced by `n`. */
function withNumbers(value: unknown, n: RawJson): unknown {
  if (typeof value === 'number' || (value instanceof RawJson && /^-?\d/.test(value.text))) return n;
  if (Array.isArray(value)) return value.map((v) => withNumbers(v, n));
  if (value && typeof value === 'object' && !(value instanceof RawJson)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNumbers(v, n)]));
  }
  return value;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : toJsonText(v));

/** A value of a query parameter that its schema refuses (or that only a lenient parser would read). */
function invalidQueryValueArb(p: Json): fc.Arbitrary<QueryValue> {
  const invalid = fuzzer.invalidValue(p.schema, p.name).map((v) => asText(v).slice(0, 20_000));
  const extra = ['', ' ', '-1', '0', '1.5', '1e3', 'NaN', 'Infinity', '99999999999999999999', '0x10', '+1', ' 1', '１', 'true', '[]', '{}'];
  const options: fc.WeightedArbitrary<QueryValue>[] = [
    { arbitrary: invalid.map((value) => ({ value })), weight: 4 },
    { arbitrary: fc.constantFrom(...extra).map((value) => ({ value })), weight: 2 },
    { arbitrary: fc.constantFrom('%zz', '%ED%A0%80', '%00', '%FF', 'a+b', '%26x%3D1').map((value) => ({ value, raw: true })), weight: 1 },
  ];
  if (p.name === 'cursor') options.push({ arbitrary: fc.constantFrom(...craftedCursors()).map((value) => ({ value })), weight: 8 });
  return fc.oneof(...options);
}

/** Valid values for some of the parameters, then (mostly) one of them spoiled, and sometimes a stray one. */
function queryArb(op: Operation): fc.Arbitrary<FuzzCase['query']> {
  const declared = op.params.filter((p) => p.in === 'query');
  if (!declared.length) {
    return fc
      .option(fc.record({ name: fc.constantFrom('__proto__', 'constructor', 'toString', 'x'), value: fc.constantFrom('1', '', '{}') }), {
        freq: 4,
        nil: undefined,
      })
      .map((q) => (q ? [q] : []));
  }
  const valid = fc.tuple(
    ...declared.map((p) =>
      fc.option(
        fuzzer.validValue(p.schema, p.name).map((v): FuzzCase['query'][number] => ({ name: p.name as string, value: asText(v) })),
        { freq: 2, nil: undefined },
      ),
    ),
  );
  const spoiled = fc.option(
    fc.constantFrom(...declared).chain((p) => invalidQueryValueArb(p).map((v): FuzzCase['query'][number] => ({ name: p.name as string, ...v }))),
    { freq: 3, nil: undefined },
  );
  const stray = fc.option(
    fc.record({
      name: fc.constantFrom(
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'LIMIT',
        'limit[]',
        '',
        'x'.repeat(300),
        ...declared.map((p) => p.name as string),
      ),
      value: fc.constantFrom('1', '', 'x', '{}'),
    }),
    { freq: 6, nil: undefined },
  );
  return fc.tuple(valid, spoiled, stray).map(([values, bad, extra]) => {
    const query = values.filter((v): v is FuzzCase['query'][number] => v !== undefined && v.name !== bad?.name);
    return [...query, ...(bad ? [bad] : []), ...(extra ? [extra] : [])];
  });
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/xml',
  null,
];
const BAD_TEXTS = [
  ' ',
  '{',
  '{"a":',
  '\ufeff{}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  'NaN',
  'undefined',
  '"\\ud800"',
  '[1,]',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
  '['.repeat(100_000),
  `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
];

function bodyArb(op: Operation): fc.Arbitrary<Body> {
  const contentType = fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 1 });
  if (!op.body) {
    if (op.method === 'GET') return fc.constant({ kind: 'none' });
    return fc.oneof(
      { arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 6 },
      {
        arbitrary: fc
          .tuple(fc.constantFrom<unknown>({}, [], null, { x: 1 }), contentType)
          .map(([value, ct]): Body => ({ kind: 'json', value, contentType: ct })),
        weight: 1,
      },
    );
  }
  const json = (arb: fc.Arbitrary<unknown>) => fc.tuple(arb, contentType).map(([value, ct]): Body => ({ kind: 'json', value, contentType: ct }));
  return fc.oneof(
    { arbitrary: json(fuzzer.validValue(op.body)), weight: 3 },
    { arbitrary: json(fuzzer.invalidValue(op.body)), weight: 10 },
    { arbitrary: json(fc.constantFrom<unknown>([], [{}], 0, -1, null, 'x', true, 1e308, new RawJson('1e400'), nested(5000, 'array'))), weight: 2 },
    { arbitrary: fc.tuple(fc.constantFrom(...BAD_TEXTS), contentType).map(([text, ct]): Body => ({ kind: 'text', text, contentType: ct })), weight: 1 },
  );
}

function headersArb(op: Operation): fc.Arbitrary<Record<string, string>> {
  // Mostly absent: a bad header is refused before the body is looked at.
  const idem = op.idempotent
    ? fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 6 },
        { arbitrary: fc.stringMatching(/^[!-~]{1,40}$/), weight: 2 },
        { arbitrary: fc.constantFrom('', ' ', 'x'.repeat(256), 'é', 'a b', '\u00ff'), weight: 1 },
      )
    : fc.constant(undefined);
  const requestId = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 6 },
    { arbitrary: fc.constantFrom('', 'x'.repeat(300), 'a b', 'é', '../../x', 'req_1'), weight: 1 },
  );
  return fc.tuple(idem, requestId).map(([key, rid]) => ({
    ...(key !== undefined ? { 'idempotency-key': key } : {}),
    ...(rid !== undefined ? { 'x-request-id': rid } : {}),
  }));
}

function caseArb(op: Operation): fc.Arbitrary<FuzzCase> {
  const auth: fc.Arbitrary<AuthChoice> = op.schemes.length
    ? fc.oneof(
        { arbitrary: fc.constant<AuthChoice>('right'), weight: 16 },
        { arbitrary: fc.constantFrom<AuthChoice>('alternative', 'none', 'garbage', 'unknownKey', 'otherKind', 'weaker', 'otherWorkspace', 'basic'), weight: 4 },
      )
    : fc.oneof({ arbitrary: fc.constant<AuthChoice>('none'), weight: 8 }, { arbitrary: fc.constantFrom<AuthChoice>('garbage', 'right'), weight: 1 });
  const pathParams = op.params.filter((p) => p.in === 'path');
  const path = fc
    .tuple(...pathParams.map((p) => pathValueArb(op, p)))
    .map((values) => Object.fromEntries(pathParams.map((p, i) => [p.name as string, values[i]!])));
  return fc.record({ auth, path, query: queryArb(op), body: bodyArb(op), headers: headersArb(op) });
}

/** Fixed cases every operation gets, whatever the seed: the plain valid request and the classic refusals. */
function fixedCases(op: Operation): FuzzCase[] {
  const path = Object.fromEntries(
    op.params.filter((p) => p.in === 'path').map((p) => [p.name as string, { value: knownPathValues(op, p.name, world.values)[0] ?? 'x' }]),
  );
  const base: FuzzCase = { auth: op.schemes.length ? 'right' : 'none', path, query: [], body: { kind: 'none' }, headers: {} };
  const cases: FuzzCase[] = [];
  if (op.body) {
    const valid = fc.sample(fuzzer.validValue(op.body), { seed: SEED, numRuns: 1 })[0];
    cases.push({ ...base, body: { kind: 'json', value: valid } });
    // The valid body with every number beyond 2^53 (written exactly, as a client would).
    const unsafe = withNumbers(valid, new RawJson('9007199254740993'));
    if (toJsonText(unsafe) !== toJsonText(valid)) cases.push({ ...base, body: { kind: 'json', value: unsafe } });
    for (const value of [[], null, 'x']) cases.push({ ...base, body: { kind: 'json', value } });
    cases.push({ ...base, body: { kind: 'none' } }, { ...base, body: { kind: 'text', text: '{"' } });
  } else cases.push(base);
  if (op.method !== 'GET' && op.method !== 'DELETE') cases.push({ ...base, body: { kind: 'oversize' } });
  if (op.schemes.length) cases.push({ ...base, auth: 'none' }, { ...base, auth: 'otherKind' });
  if (op.params.some((p) => p.name === 'cursor')) cases.push({ ...base, query: [{ name: 'cursor', value: craftedCursors()[2]! }] });
  if (op.params.some((p) => p.name === 'limit')) cases.push({ ...base, query: [{ name: 'limit', value: '0' }] });
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Sending and checking
// ---------------------------------------------------------------------------------------------

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as any client sends them). */
const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');

interface Built {
  method: string;
  path: string;
  token?: string;
  headers: Record<string, string>;
  rawBody?: string | Uint8Array;
  bodyText?: string;
}

function credential(op: Operation, auth: AuthChoice): { token?: string; authorization?: string } {
  const bySchemes = (scheme: string | undefined, t: { key: string; token: string } = world.a) =>
    scheme === 'apiKey' ? t.key : scheme === 'session' ? t.token : undefined;
  switch (auth) {
    case 'right':
      return { token: bySchemes(op.schemes[0]) ?? world.a.key };
    case 'alternative':
      return { token: bySchemes(op.schemes[1] ?? op.schemes[0]) };
    case 'none':
      return {};
    case 'garbage':
      return { authorization: 'Bearer \u00ff garbage' };
    case 'unknownKey':
      return { token: `fl_live_${'Q'.repeat(43)}` };
    case 'otherKind':
      return { token: op.schemes.includes('apiKey') && !op.schemes.includes('session') ? world.a.token : world.a.key };
    case 'weaker':
      return { token: op.schemes[0] === 'apiKey' ? world.a.lackingKey : world.a.memberSession };
    case 'otherWorkspace':
      return { token: bySchemes(op.schemes[0], world.b) ?? world.b.key };
    case 'basic':
      return { authorization: 'Basic dXNlcjpwYXNz' };
  }
}

function build(op: Operation, c: FuzzCase): Built {
  let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = c.path[name];
    return v === undefined ? 'x' : v.raw ? v.value : encode(v.value);
  });
  if (c.query.length) path += `?${c.query.map((q) => `${encode(q.name)}=${q.raw ? q.value : encode(q.value)}`).join('&')}`;
  const { token, authorization } = credential(op, c.auth);
  const headers: Record<string, string> = { ...c.headers, ...(authorization ? { authorization } : {}) };
  const built: Built = { method: op.method, path, headers, ...(token ? { token } : {}) };
  const withType = (text: string, contentType: string | null | undefined) => {
    built.bodyText = text;
    if (contentType === null) built.rawBody = new Uint8Array(Buffer.from(text, 'utf8'));
    else {
      built.rawBody = text;
      headers['content-type'] = contentType ?? 'application/json';
    }
  };
  switch (c.body.kind) {
    case 'none':
      break;
    case 'json':
      withType(toJsonText(c.body.value), c.body.contentType);
      break;
    case 'text':
      withType(c.body.text, c.body.contentType);
      break;
    case 'oversize':
      withType(`{"x":"${'a'.repeat(OVERSIZE - 8)}"}`, 'application/json');
      break;
  }
  return built;
}

const clip = (s: string, n = 400) => (s.length > n ? `${s.slice(0, n)}... (${s.length} characters)` : s);

function describeRequest(b: Built, auth: AuthChoice): string {
  const headers = Object.entries(b.headers)
    .map(([k, v]) => `${k}: ${JSON.stringify(clip(v, 80))}`)
    .join(', ');
  return [
    `${b.method} ${clip(b.path, 600)}`,
    `  credential: ${auth}${headers ? `; headers: ${headers}` : ''}`,
    b.bodyText !== undefined ? `  body (${Buffer.byteLength(b.bodyText)} bytes): ${JSON.stringify(clip(b.bodyText, 800))}` : '  no body',
  ].join('\n');
}

/** Whether an item belongs to one of the fuzzed workspaces (by key, or by its workspaceId for the global lookups). */
function ofWorkspaces(key: { pk: string }, before?: Json, after?: Json): boolean {
  for (const ws of [world.a.workspaceId, world.b.workspaceId]) {
    if (key.pk === `WS#${ws}` || key.pk.startsWith(`WS#${ws}#`)) return true;
    if (before?.workspaceId === ws || after?.workspaceId === ws) return true;
  }
  return false;
}

function withoutExempt(image: Json | undefined): Json | undefined {
  if (!image) return image;
  const drop = EXEMPT_ATTRIBUTES[String(image.entity)] ?? [];
  const out: Json = {};
  for (const [k, v] of Object.entries(image)) if (!drop.includes(k)) out[k] = v;
  return out;
}

const recordsRefusedLogin = (item: Json | undefined): boolean =>
  item?.entity === 'auditEntry' && (item.action === 'auth.login_failed' || String(item.action).startsWith('mcp.')) && item.outcome === 'failure';

/** The export workflow freeing the archive lock when a job ends (its creation still counts). */
const releasesArchiveLock = (w: { before?: Json; after?: Json }): boolean => w.after === undefined && w.before?.entity === 'exportArchiveLock';

/** The items of the two workspaces the writes since the last look changed (exemptions applied). */
async function workspaceChanges(): Promise<string[]> {
  const writes = (await changes.drain()).filter((w) => !w.byTtl && ofWorkspaces(w.key, w.before, w.after));
  const relevant = writes
    .filter((w) => !EXEMPT_ENTITIES.has(String((w.after ?? w.before)?.entity)) && !recordsRefusedLogin(w.after ?? w.before) && !releasesArchiveLock(w))
    .map((w) => ({ ...w, before: withoutExempt(w.before), after: withoutExempt(w.after) }));
  return netChanges(relevant).map((c) => {
    const where = `${c.key.pk} ${c.key.sk}`;
    if (!c.before || !c.after) return `${c.before ? 'deleted' : 'created'} ${where}: ${clip(JSON.stringify(c.after ?? c.before), 300)}`;
    const attributes = [...new Set([...Object.keys(c.before), ...Object.keys(c.after)])].filter((k) => canonical(c.before![k]) !== canonical(c.after![k]));
    return `changed ${where}: ${attributes.map((k) => `${k} ${clip(JSON.stringify(c.before![k]) ?? '(none)', 80)} -> ${clip(JSON.stringify(c.after![k]) ?? '(none)', 80)}`).join('; ')}`;
  });
}

async function probe(op: Operation, c: FuzzCase): Promise<void> {
  const b = build(op, c);
  const t0 = Date.now();
  let res: { status: number; body: any };
  try {
    res = await call(b.method, b.path, {
      ...(b.token ? { token: b.token } : {}),
      headers: b.headers,
      ...(b.rawBody !== undefined ? { rawBody: b.rawBody } : {}),
      // Bytes the case sends without a Content-Type go without one.
      ...(b.rawBody instanceof Uint8Array ? { contentType: null } : {}),
    });
  } catch (err) {
    throw new Error(`${(err as Error).message}\nrequest:\n${describeRequest(b, c.auth)}`);
  } finally {
    requests++;
  }
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const t1 = Date.now();
  const changed = await workspaceChanges();
  if (process.env.FUZZ_TRACE)
    console.log(
      `${res.status} ${t1 - t0}ms +${Date.now() - t1}ms ${b.method} ${clip(b.path, 300)} ${c.auth} ${JSON.stringify(b.headers)} ${clip(b.bodyText ?? '', 100)}`,
    );
  if (res.status >= 500) throw new Error(`answered ${res.status}: ${clip(JSON.stringify(res.body))}\nrequest:\n${describeRequest(b, c.auth)}`);
  if (res.status >= 400 && changed.length) {
    throw new Error(
      `refused with ${res.status} (${res.body?.error?.code}) but changed the workspace:\n  ${changed.join('\n  ')}\nrequest:\n${describeRequest(b, c.auth)}`,
    );
  }
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it.each(operations.map((o) => [`${o.method} ${o.path} (${o.id})`, o] as const))('%s', { timeout: 180_000 }, async (_, op) => {
    for (const c of fixedCases(op)) await probe(op, c);
    const seed = (SEED + [...op.id].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 0)) | 0;
    const result = await fc.check(
      fc.asyncProperty(caseArb(op), async (c) => {
        await probe(op, c);
      }),
      { numRuns: RUNS, seed },
    );
    if (result.failed) {
      const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      throw new Error(
        `${op.id} failed after ${result.numRuns} run(s), shrunk ${result.numShrinks} time(s).\n` +
          `Reproduce: FUZZ_SEED=${SEED} FUZZ_OPS=${op.id} FUZZ_RUNS=${RUNS} npx vitest run test/e2e/fuzz.test.ts (fast-check seed ${seed}, path ${result.counterexamplePath})\n${error}`,
      );
    }
  });
});
