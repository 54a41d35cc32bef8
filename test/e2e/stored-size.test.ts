import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { itemSize } from '../../shared/platform/data/item-size';
import { keyOf } from '../../shared/platform/data/keys';
import { call } from '../support/api';
import { tenant, type Tenant } from '../support/fixtures';
import { platformTable } from '../support/table';

/**
 * Stored size at the edge, route family by route family: a document of exactly its budget
 * (`config.storage.documentBudgetBytes`, measured as DynamoDB counts it) is stored, with and without
 * an Idempotency-Key (its answer, escaped as JSON text, is larger than an item may be: control
 * characters take six bytes there, one in the store); one byte or two more is 422 naming the field,
 * and nothing is written. Families whose schema keeps them far below their budget store the largest
 * request the schema takes, with and without a key.
 */

const BUDGET = config.storage.documentBudgetBytes;
const CTRL = '\u0001';

/**
 * `count` non-empty strings holding `bytes` stored bytes together, each at most `maxChars`
 * characters: control characters (one byte stored, six in JSON text), at most `controlEach` per
 * string, and `é` (two bytes) for the rest.
 */
function filler(bytes: number, count: number, maxChars: number, controlEach = maxChars): string[] {
  return Array.from({ length: count }, (_, i) => {
    const own = Math.floor(bytes / count) + (i < bytes % count ? 1 : 0);
    const wide = Math.max(own - maxChars, Math.ceil((own - controlEach) / 2), 0);
    if (own < 1 || own - wide > maxChars) throw new Error(`filler: ${bytes} bytes do not fit ${count} strings of ${maxChars}`);
    return 'é'.repeat(wide) + CTRL.repeat(own - 2 * wide);
  });
}

const utf8 = (strings: string[]) => strings.reduce((n, s) => n + Buffer.byteLength(s), 0);
const withKey = () => ({ 'idempotency-key': randomUUID() });

async function storedItem(key: { pk: string; sk: string }) {
  const { doc, tableName } = await platformTable();
  return (await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
}

/** Sends it twice with one key: created, then the same answer replayed. */
async function createdWithKey(send: (headers: Record<string, string>) => Promise<{ status: number; body: any; headers: Headers }>, status = 201) {
  const headers = withKey();
  const first = await send(headers);
  expect(first.status, JSON.stringify(first.body).slice(0, 500)).toBe(status);
  const again = await send(headers);
  expect(again.status).toBe(status);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(first.body);
  return first.body.data;
}

describe('campaigns (/api/flash/campaigns)', () => {
  let t: Tenant;
  const VALUES = 100;
  const CONDITIONS = 20;
  const campaign = (values: string[]) => ({
    name: 'Sizes',
    trigger: { type: 'order' },
    effect: { type: 'bonus_points', points: 5 },
    conditions: Array.from({ length: CONDITIONS }, (_, i) => ({ field: 'order.items.sku', op: 'in', value: values.slice(i * VALUES, (i + 1) * VALUES) })),
  });
  const create = (body: unknown, headers: Record<string, string> = {}) => call('POST', '/api/flash/campaigns', { token: t.token, body, headers });
  const count = async () => (await call('GET', '/api/flash/campaigns?limit=100', { token: t.token })).body.data.length;
  /** The stored size of a campaign but for its values' bytes (the same for every campaign of this shape). */
  let overhead: number;
  const valuesOf = (bytes: number) => filler(bytes, CONDITIONS * VALUES, 100);

  beforeAll(async () => {
    t = await tenant('campaign-sizes');
    const probe = valuesOf(CONDITIONS * VALUES);
    const res = await create(campaign(probe));
    expect(res.status).toBe(201);
    overhead = itemSize(res.body.data) - utf8(probe);
  });

  it('stores a campaign of exactly its budget, with and without an Idempotency-Key', async () => {
    const values = valuesOf(BUDGET.campaign - overhead);
    const plain = await create(campaign(values));
    expect(plain.status, JSON.stringify(plain.body).slice(0, 300)).toBe(201);
    expect(itemSize(plain.body.data)).toBe(BUDGET.campaign);
    // Its answer as JSON text is far larger than an item may be.
    expect(Buffer.byteLength(JSON.stringify(JSON.stringify(plain.body.data)))).toBeGreaterThan(config.storage.itemLimitBytes);
    const keyed = await createdWithKey((headers) => create(campaign(values), headers));
    expect(keyed.conditions).toEqual(plain.body.data.conditions);
  });

  it('refuses one byte more with 422 naming the conditions, and stores nothing', async () => {
    const before = await count();
    for (const headers of [{}, withKey()]) {
      const res = await create(campaign(valuesOf(BUDGET.campaign - overhead + 1)), headers);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details).toEqual([
        { in: 'body', field: 'conditions', message: expect.stringMatching(/^too large to store: the campaign would take \d+ bytes/) },
      ]);
    }
    // The largest campaign the schema takes: 20 conditions of 100 values of 100 three-byte characters.
    const largest = await create(campaign(Array.from({ length: CONDITIONS * VALUES }, () => '€'.repeat(100))));
    expect([largest.status, largest.body.error?.details?.[0]?.field]).toEqual([422, 'conditions']);
    expect(await count()).toBe(before);
  });

  it('refuses a change past the budget and keeps the campaign as it was', async () => {
    const c = (await create(campaign(valuesOf(BUDGET.campaign - overhead)))).body.data;
    const grown = campaign(valuesOf(BUDGET.campaign - overhead + 2)).conditions;
    const res = await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: { conditions: grown } });
    expect([res.status, res.body.error?.details?.[0]?.field]).toEqual([422, 'conditions']);
    const now = (await call('GET', `/api/flash/campaigns/${c.id}`, { token: t.token })).body.data;
    expect([now.version, now.conditions]).toEqual([1, c.conditions]);
  });
});

describe('custom objects (/api/v2/objects/{type}/records, /api/flash/objects/types)', () => {
  let t: Tenant;
  const FIELDS = 20;
  const keys = Array.from({ length: FIELDS }, (_, i) => `n${i}`);
  const dataOf = (values: string[]) => Object.fromEntries(keys.map((k, i) => [k, values[i]]));
  /** Text values: both the data and the search copy hold them, so each byte counts twice. */
  const valuesOf = (bytes: number) => filler(bytes, FIELDS, 10_000, 3_500);
  const create = (data: unknown, headers: Record<string, string> = {}) =>
    call('POST', '/api/v2/objects/note/records', { token: t.key, body: { data }, headers });
  const total = async () => (await call('GET', '/api/v2/objects/note/records?limit=1', { token: t.key })).body.total;
  /** What the record's budget measures: the record's own attributes, not its keys and bookkeeping. */
  const measured = async (id: string) => {
    const item = (await storedItem(keyOf('objectRecord', { workspaceId: t.workspaceId, type: 'note', recordId: id })))!;
    return itemSize(Object.fromEntries(['id', 'workspaceId', 'type', 'data', 'search', 'createdAt', 'updatedAt'].map((k) => [k, item[k]])));
  };
  let overhead: number;
  let atBudget: number;

  beforeAll(async () => {
    t = await tenant('object-sizes');
    const type = { label: 'Note', status: 'published', apiVisible: true, fields: keys.map((key) => ({ key, type: 'text' })) };
    expect((await call('PUT', '/api/flash/objects/types/note', { token: t.token, body: type })).status).toBe(200);
    const probe = await create(dataOf(valuesOf(FIELDS)));
    expect(probe.status).toBe(201);
    overhead = (await measured(probe.body.data.id)) - 2 * FIELDS;
    atBudget = Math.floor((BUDGET.objectRecord - overhead) / 2);
  });

  it('stores a record at its budget, with and without an Idempotency-Key', async () => {
    const data = dataOf(valuesOf(atBudget));
    const plain = await create(data);
    expect(plain.status, JSON.stringify(plain.body).slice(0, 300)).toBe(201);
    expect(BUDGET.objectRecord - (await measured(plain.body.data.id))).toBeLessThan(2);
    expect(Buffer.byteLength(JSON.stringify(JSON.stringify(plain.body.data)))).toBeGreaterThan(config.storage.itemLimitBytes);
    const keyed = await createdWithKey((headers) => create(data, headers));
    expect(keyed.data).toEqual(data);
  });

  it('refuses a record just over its budget with 422 naming its largest field, and stores nothing', async () => {
    const before = await total();
    const values = valuesOf(atBudget + 1);
    values[7] = `${values[7]}${CTRL}`;
    values[0] = values[0]!.slice(0, -1);
    for (const headers of [{}, withKey()]) {
      const res = await create(dataOf(values), headers);
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([
        { in: 'body', field: 'data.n7', message: expect.stringMatching(/^too large to store: the object record would take/) },
      ]);
    }
    expect(await total()).toBe(before);
  });

  it('refuses a change that grows a record past its budget and keeps the record as it was', async () => {
    const data = dataOf(valuesOf(atBudget));
    const r = (await create(data)).body.data;
    const res = await call('PATCH', `/api/v2/objects/note/records/${r.id}`, { token: t.key, body: { data: { n3: `${data.n3}${CTRL}` } } });
    expect([res.status, res.body.error?.details?.[0]?.field]).toEqual([422, 'data.n3']);
    expect((await call('GET', `/api/v2/objects/note/records/${r.id}`, { token: t.key })).body.data.data).toEqual(data);
  });

  it('stores an object type at its budget and refuses one just over it, naming its largest field', async () => {
    const OPTIONS = 100;
    const typeOf = (wide: number, extra = 0) => ({
      label: 'Sizes',
      status: 'draft',
      apiVisible: false,
      fields: Array.from({ length: 10 }, (_, f) => ({
        key: `e${f}`,
        type: 'enum',
        options: Array.from({ length: OPTIONS }, (_, o) => {
          const i = f * OPTIONS + o;
          const own = Math.floor(wide / 1000) + (i < wide % 1000 ? 1 : 0) + (f === 4 && o === 0 ? extra : 0);
          return `${String(o).padStart(3, '0')}${'é'.repeat(own)}`;
        }),
      })),
    });
    const put = (key: string, body: unknown) => call('PUT', `/api/flash/objects/types/${key}`, { token: t.token, body });
    const measuredType = async (key: string) => {
      const { pk: _pk, sk: _sk, entity: _e, ...rest } = (await storedItem(keyOf('objectType', { workspaceId: t.workspaceId, type: key })))!;
      return itemSize(rest);
    };
    const probe = await put('sizes', typeOf(0));
    expect(probe.status, JSON.stringify(probe.body).slice(0, 400)).toBe(200);
    const wide = Math.floor((BUDGET.objectType - (await measuredType('sizes'))) / 2);
    const below = await put('sizes', typeOf(wide));
    expect(below.status, JSON.stringify(below.body).slice(0, 300)).toBe(200);
    expect(BUDGET.objectType - (await measuredType('sizes'))).toBeLessThan(2);
    const over = await put('sizes', typeOf(wide, 1));
    expect(over.status).toBe(422);
    expect(over.body.error.details).toEqual([
      { in: 'body', field: 'fields.4', message: expect.stringMatching(/^too large to store: the object type would take/) },
    ]);
    expect(BUDGET.objectType - (await measuredType('sizes'))).toBeLessThan(2);
  });
});

describe('families the schema keeps far below their budget store the largest request it takes', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant('schema-capped-sizes');
  });
  const text = (chars: number) => filler(chars, 1, chars, Math.floor(chars / 2))[0]!;

  it('members: 50 custom attributes of 1000 characters, with and without an Idempotency-Key', async () => {
    const customAttributes = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`attribute_${i}`.padEnd(64, 'x'), `${'€'.repeat(500)}${CTRL.repeat(500)}`]),
    );
    const send = (headers: Record<string, string>) =>
      call('POST', '/api/v2/members', { token: t.key, body: { externalId: `m-${randomUUID()}`, customAttributes }, headers });
    const plain = await send({});
    expect(plain.status).toBe(201);
    expect(itemSize(plain.body.data)).toBeLessThan(BUDGET.member / 2);
    const patched = await call('PATCH', `/api/v2/members/${plain.body.data.id}`, { token: t.key, body: { customAttributes }, headers: withKey() });
    expect(patched.status).toBe(200);
    const keyed = await createdWithKey((headers) =>
      call('POST', '/api/v2/members', { token: t.key, body: { externalId: `k-${headers['idempotency-key']}`, customAttributes }, headers }),
    );
    expect(keyed.customAttributes).toEqual(customAttributes);
  });

  it('catalog: the largest product, imported with and without an Idempotency-Key', async () => {
    const product = (sku: string) => ({
      sku,
      name: '€'.repeat(300),
      description: '€'.repeat(5000),
      imageUrl: `https://img.example/${'a'.repeat(2000)}`,
      attributes: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`a${i}`, `${'€'.repeat(500)}${CTRL.repeat(500)}`])),
    });
    const send = (sku: string, headers: Record<string, string> = {}) =>
      call('POST', '/api/v2/catalog/import', { token: t.key, body: { products: [product(sku)] }, headers });
    const plain = await send('BIG-1');
    expect(plain.status).toBe(200);
    expect(plain.body.data.results[0]).toMatchObject({ outcome: 'created' });
    const keyed = await createdWithKey((headers) => send('BIG-2', headers), 200);
    expect(keyed.results[0]).toMatchObject({ outcome: 'created' });
  });

  it('coupon pools (rewards), program rules and webhook endpoints: the longest texts they take', async () => {
    const pool = { name: text(200), discount: { type: 'percent', value: 15 }, codeConfig: { mode: 'generated', prefix: 'BIG-' }, stock: 10 };
    expect((await call('POST', '/api/v2/coupons/pools', { token: t.key, body: pool })).status).toBe(201);
    expect((await createdWithKey((headers) => call('POST', '/api/v2/coupons/pools', { token: t.key, body: pool, headers }))).name).toBe(pool.name);

    const levels = Array.from({ length: 20 }, (_, i) => ({ key: `tier_${i}`, name: `${'€'.repeat(30)}${CTRL.repeat(30)}`, threshold: i * 1000 }));
    const program = { earn: { pointsPerUnit: 1, rounding: 'floor', currencyOverrides: {} }, tiers: { metric: 'lifetime_points', levels } };
    const put = await call('PUT', '/api/flash/program', { token: t.token, body: program });
    expect(put.status, JSON.stringify(put.body).slice(0, 300)).toBe(200);
    expect(put.body.data.tiers.levels).toEqual(levels);

    const endpoint = { url: `https://hooks.example/${'a'.repeat(2000)}`, description: text(500), eventTypes: ['member.created'] };
    const made = await call('POST', '/api/v2/webhooks', { token: t.key, body: endpoint });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
    expect(made.body.data.description).toBe(endpoint.description);
  });
});
