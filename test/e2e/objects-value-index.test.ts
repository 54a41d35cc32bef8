import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexKeysOf, indexPartition, keyOf } from '../../shared/platform/data/keys';
import { titleKeyOf } from '../../shared/objects/validator';
import { call } from '../support/api';
import { newMember, tenant, type Tenant } from '../support/fixtures';
import { platformTable } from '../support/table';

/**
 * A list filtered by one value of an enum, boolean or member_ref field reads that value's entries
 * (written in every record write's transaction) and takes its total from the value's counter. These
 * tests hold the entries, the counters and the lists to what the records themselves say.
 */

const fields = [
  { key: 'title', type: 'text', required: true },
  { key: 'state', type: 'enum', required: true, options: ['open', 'in_progress', 'done'] },
  { key: 'paid', type: 'boolean' },
  { key: 'customer', type: 'member_ref' },
  { key: 'cost', type: 'number' },
] as const;
const jobType = { label: 'Job', status: 'published', apiVisible: true, titleField: 'title', fields };
const INDEXED = ['state', 'paid', 'customer'] as const;
const SORTS = ['created_desc', 'created_asc', 'updated_desc', 'title_asc'] as const;

type Data = Record<string, unknown>;
interface Full {
  id: string;
  data: Data;
  createdAt: string;
  updatedAt: string;
}

const records = '/api/v2/objects/job/records';

async function jobTenant(label: string): Promise<Tenant> {
  const t = await tenant(label);
  expect((await call('PUT', '/api/flash/objects/types/job', { token: t.token, body: jobType })).status).toBe(200);
  return t;
}

async function create(t: Tenant, data: Data): Promise<string> {
  const res = await call('POST', records, { token: t.key, body: { data } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

/** Every live record, read one by one (the truth the lists and counters are held to). */
async function liveRecords(t: Tenant, ids: string[]): Promise<Full[]> {
  const out: Full[] = [];
  for (const id of ids) {
    const res = await call('GET', `${records}/${id}`, { token: t.key });
    if (res.status === 200) out.push(res.body.data as Full);
    else expect(res.status).toBe(404);
  }
  return out;
}

/** The order of each sort, as the record's own index keys define it. */
function sorted(t: Tenant, list: Full[], sortBy: (typeof SORTS)[number]): Full[] {
  const key = (r: Full) => {
    const k = indexKeysOf('objectRecord', {
      workspaceId: t.workspaceId,
      type: 'job',
      recordId: r.id,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      titleKey: titleKeyOf(fields as never, 'title', r.data),
    });
    return sortBy.startsWith('created') ? k.gsi1sk! : sortBy === 'updated_desc' ? k.gsi2sk! : k.gsi3sk!;
  };
  const asc = [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return sortBy === 'created_asc' || sortBy === 'title_asc' ? asc : asc.reverse();
}

/** A filtered list walked page by page with offset: every page and the total. */
async function walk(t: Tenant, qs: string, pageSize: number): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const res = await call('GET', `${records}?${qs}&limit=${pageSize}&offset=${offset}`, { token: t.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.data.map((r: { id: string }) => r.id));
    totals.push(res.body.total);
    if (res.body.data.length < pageSize) return { ids, totals };
  }
}

/** The value entries stored for a record, by field. */
async function entriesOf(t: Tenant, id: string): Promise<Record<string, Record<string, unknown>>> {
  const { doc, tableName } = await platformTable();
  const out = await doc.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :v)',
      ExpressionAttributeValues: { ':pk': keyOf('objectRecord', { workspaceId: t.workspaceId, type: 'job', recordId: id }).pk, ':v': 'VALUE#' },
      ConsistentRead: true,
    }),
  );
  return Object.fromEntries((out.Items ?? []).map((i) => [String(i.sk).slice('VALUE#'.length), i]));
}

async function counter(t: Tenant, field: string, value: unknown): Promise<number> {
  const { doc, tableName } = await platformTable();
  const key = keyOf('objectCounter', { workspaceId: t.workspaceId, type: 'job', field, value: JSON.stringify(value) });
  return ((await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item?.n as number | undefined) ?? 0;
}

/**
 * The stored state agrees with the records: each live record has exactly one entry per indexed
 * value it holds, in that value's partition, in the record's three orders, with a copy of its data;
 * deleted records have none; every counter is the brute-force count.
 */
async function expectExact(t: Tenant, ids: string[]) {
  const live = await liveRecords(t, ids);
  const liveIds = new Set(live.map((r) => r.id));
  for (const id of ids.filter((i) => !liveIds.has(i))) expect(await entriesOf(t, id), `deleted ${id}`).toEqual({});
  for (const r of live) {
    const entries = await entriesOf(t, r.id);
    expect(Object.keys(entries).sort(), r.id).toEqual(INDEXED.filter((f) => r.data[f] !== undefined).sort());
    const keys = indexKeysOf('objectRecord', {
      workspaceId: t.workspaceId,
      type: 'job',
      recordId: r.id,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      titleKey: titleKeyOf(fields as never, 'title', r.data),
    });
    for (const [field, entry] of Object.entries(entries)) {
      const partition = indexPartition('objectRecordValue', 'gsi1', { workspaceId: t.workspaceId, type: 'job', field, value: JSON.stringify(r.data[field]) });
      expect(entry, `${r.id} ${field}`).toMatchObject({
        id: r.id,
        data: r.data,
        gsi1pk: partition,
        gsi2pk: partition,
        gsi3pk: partition,
        gsi1sk: keys.gsi1sk,
        gsi2sk: keys.gsi2sk,
        gsi3sk: keys.gsi3sk,
      });
    }
  }
  for (const field of INDEXED) {
    const values = [...new Set(live.map((r) => r.data[field]).filter((v) => v !== undefined))];
    for (const value of values) expect(await counter(t, field, value), `${field}=${String(value)}`).toBe(live.filter((r) => r.data[field] === value).length);
  }
  return live;
}

describe('lists filtered by an indexed value', () => {
  let t: Tenant;
  let members: { id: string }[];
  let ids: string[];

  beforeAll(async () => {
    t = await jobTenant('objects-index');
    members = [await newMember(t.key), await newMember(t.key)];
    ids = [];
    const titles = ['kilo', 'Alpha', 'echo', 'bravo', 'Juliet', 'delta', 'india', 'charlie', 'golf', 'hotel', 'Foxtrot', 'lima', '', 'mike'];
    for (const [i, title] of titles.entries()) {
      const data: Data = { title, state: ['open', 'done', 'in_progress'][i % 3], cost: i };
      if (i % 4 !== 3) data.paid = i % 2 === 0;
      if (i % 5 !== 4) data.customer = members[i % 2]!.id;
      ids.push(await create(t, data));
    }
    // Move some records between values and orders, drop others.
    const patch = (id: string, body: unknown) => call('PATCH', `${records}/${id}`, { token: t.key, body });
    expect((await patch(ids[0]!, { data: { state: 'done', title: 'zulu' } })).status).toBe(200);
    expect((await patch(ids[1]!, { data: { paid: null, customer: null } })).status).toBe(200);
    expect((await patch(ids[2]!, { replace: true, data: { title: 'Echo two', state: 'open' } })).status).toBe(200);
    expect((await patch(ids[3]!, { data: { cost: 99 } })).status).toBe(200);
    expect((await call('DELETE', `${records}/${ids[4]}`, { token: t.key })).status).toBe(204);
    expect((await call('DELETE', `${records}/${ids[5]}`, { token: t.key })).status).toBe(204);
  });

  it('entries and counters follow creates, merges, replaces and deletes exactly', async () => {
    await expectExact(t, ids);
  });

  it('every sort order and offset page equals a brute-force filter of the records, and the total counts them all', async () => {
    const live = await liveRecords(t, ids);
    const filters: [string, (d: Data) => boolean][] = [
      ...['open', 'done', 'in_progress'].map((s): [string, (d: Data) => boolean] => [`f_state=${s}`, (d) => d.state === s]),
      ['f_paid=true', (d) => d.paid === true],
      ['f_paid=false', (d) => d.paid === false],
      [`f_customer=${members[0]!.id}`, (d) => d.customer === members[0]!.id],
      [`memberId=${members[1]!.id}`, (d) => d.customer === members[1]!.id],
    ];
    for (const [qs, keep] of filters) {
      const matches = live.filter((r) => keep(r.data));
      expect(matches.length, qs).toBeGreaterThan(0);
      for (const sortBy of SORTS) {
        const expected = sorted(t, matches, sortBy).map((r) => r.id);
        for (const pageSize of [1, 3, 50]) {
          const got = await walk(t, `${qs}&sortBy=${sortBy}`, pageSize);
          expect(got.ids, `${qs} ${sortBy} by ${pageSize}`).toEqual(expected);
          expect(new Set(got.totals), `${qs} ${sortBy}`).toEqual(new Set([matches.length]));
        }
      }
    }
    // The page holds the records as they are (the entries' copies follow every write).
    const page = await call('GET', `${records}?f_state=done&sortBy=title_asc&limit=200`, { token: t.key });
    expect(page.body.data).toEqual(
      sorted(
        t,
        live.filter((r) => r.data.state === 'done'),
        'title_asc',
      ).map((r) => ({ id: r.id, data: r.data })),
    );
  });

  it('a value no record holds lists nothing; a deep offset lists nothing but still counts', async () => {
    expect((await call('GET', `${records}?f_customer=mbr_01m7xj3rvfzrkph3m7kfz6rq3m`, { token: t.key })).body).toEqual({ data: [], total: 0 });
    const open = (await liveRecords(t, ids)).filter((r) => r.data.state === 'open').length;
    expect((await call('GET', `${records}?f_state=open&offset=500`, { token: t.key })).body).toEqual({ data: [], total: open });
  });

  it('another workspace with the same type and values sees only its own records and totals', async () => {
    const other = await jobTenant('objects-index-other');
    const mine = await create(other, { title: 'Other workspace', state: 'done', paid: true });
    const theirs = await call('GET', `${records}?f_state=done&limit=200`, { token: other.key });
    expect(theirs.body).toEqual({ data: [{ id: mine, data: { title: 'Other workspace', state: 'done', paid: true } }], total: 1 });
    const ours = await call('GET', `${records}?f_state=done&limit=200`, { token: t.key });
    expect(ours.body.data.map((r: { id: string }) => r.id)).not.toContain(mine);
    expect(ours.body.total).toBe((await liveRecords(t, ids)).filter((r) => r.data.state === 'done').length);
    // A member id of this workspace names nothing in the other one.
    expect((await call('GET', `${records}?memberId=${members[0]!.id}`, { token: other.key })).body).toEqual({ data: [], total: 0 });
  });
});

describe('value entries under concurrent writes', () => {
  it('racing patches (title, indexed values, other fields) and deletes leave entries and counters exact', async () => {
    const t = await jobTenant('objects-index-race');
    const [m1, m2] = [await newMember(t.key), await newMember(t.key)];
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await create(t, { title: `race ${i}`, state: 'open', paid: false, customer: m1.id }));
    const patch = (id: string, data: Data) => call('PATCH', `${records}/${id}`, { token: t.key, body: { data } });
    for (let round = 0; round < 4; round++) {
      // Every record gets several writers at once, each touching what the entries depend on.
      const writes = ids
        .slice(0, 5)
        .flatMap((id, i) => [
          patch(id, { title: `race ${i} round ${round}` }),
          patch(id, { state: ['open', 'done', 'in_progress'][(round + i) % 3] }),
          patch(id, { paid: round % 2 === 0 ? true : null }),
          patch(id, { customer: round % 2 === 0 ? m2.id : m1.id, cost: round }),
        ]);
      // The last record is deleted while it is being patched.
      if (round === 1)
        writes.push(call('DELETE', `${records}/${ids[5]}`, { token: t.key }), patch(ids[5]!, { state: 'done' }), patch(ids[5]!, { title: 'gone?' }));
      const answers = await Promise.all(writes);
      for (const a of answers) expect([200, 204, 404], JSON.stringify(a.body)).toContain(a.status);
    }
    const live = await expectExact(t, ids);
    expect(live.map((r) => r.id)).toEqual(ids.slice(0, 5));
    // And the lists agree with the records.
    for (const state of ['open', 'done', 'in_progress']) {
      const res = await call('GET', `${records}?f_state=${state}&sortBy=title_asc&limit=200`, { token: t.key });
      const want = sorted(
        t,
        live.filter((r) => r.data.state === state),
        'title_asc',
      );
      expect(res.body, state).toEqual({ data: want.map((r) => ({ id: r.id, data: r.data })), total: want.length });
    }
  });
});
