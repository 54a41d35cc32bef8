import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyOf } from '../../shared/platform/data/keys';
import { call, createKey } from '../support/api';
import { newMember, tenant, type Tenant } from '../support/fixtures';
import { platformTable } from '../support/table';

const repairJob = {
  label: 'Repair job',
  status: 'published',
  apiVisible: true,
  titleField: 'title',
  fields: [
    { key: 'title', type: 'text', required: true, label: 'Title' },
    { key: 'state', type: 'enum', required: true, options: ['open', 'in_progress', 'done'] },
    { key: 'cost', type: 'number' },
    { key: 'paid', type: 'boolean' },
    { key: 'due', type: 'date' },
    { key: 'started_at', type: 'datetime' },
    { key: 'contact', type: 'email' },
    { key: 'link', type: 'url' },
    { key: 'customer', type: 'member_ref' },
  ],
};

const putType = (t: Tenant, key: string, body: unknown) => call('PUT', `/api/flash/objects/types/${key}`, { token: t.token, body });
const records = (type = 'repair_job') => `/api/v2/objects/${type}/records`;

let t: Tenant;
let member: { id: string };

beforeAll(async () => {
  t = await tenant('objects');
  member = await newMember(t.key);
  expect((await putType(t, 'repair_job', repairJob)).status).toBe(200);
});

const create = (data: Record<string, unknown>, tenantArg: Tenant = t, type = 'repair_job') =>
  call('POST', records(type), { token: tenantArg.key, body: { data } });

describe('object types', () => {
  it('the application defines types; the API sees only published, API-visible ones', async () => {
    expect((await putType(t, 'draft_thing', { ...repairJob, status: 'draft' })).status).toBe(200);
    expect((await putType(t, 'hidden_thing', { ...repairJob, apiVisible: false })).status).toBe(200);
    const admin = await call('GET', '/api/flash/objects/types', { token: t.token });
    expect(admin.body.data.map((x: { type: string }) => x.type)).toEqual(['draft_thing', 'hidden_thing', 'repair_job']);
    const api = await call('GET', '/api/v2/objects', { token: t.key });
    expect(api.body.data).toEqual([{ type: 'repair_job', label: 'Repair job', description: null, titleField: 'title' }]);
    const one = await call('GET', '/api/v2/objects/repair_job', { token: t.key });
    expect(one.body.data.fields.find((f: { key: string }) => f.key === 'state')).toEqual({
      key: 'state',
      type: 'enum',
      required: true,
      options: ['open', 'in_progress', 'done'],
    });
    for (const type of ['draft_thing', 'hidden_thing', 'nope', 'Bad-Key']) {
      expect((await call('GET', `/api/v2/objects/${type}`, { token: t.key })).status, type).toBe(404);
      expect((await call('GET', records(type), { token: t.key })).status, type).toBe(404);
      expect((await call('POST', records(type), { token: t.key, body: { data: { title: 'x', state: 'open' } } })).status, type).toBe(404);
    }
    const other = await tenant('objects-other');
    expect((await call('GET', '/api/v2/objects/repair_job', { token: other.key })).status).toBe(404);
  });

  it('validates definitions with one detail per field, and only admins define types', async () => {
    const bad = await putType(t, 'bad_type', {
      label: '',
      status: 'live',
      apiVisible: true,
      fields: [
        { key: 'State', type: 'enum' },
        { key: 'x', type: 'colour' },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['label', 'status']));
    expect((await call('PUT', '/api/flash/objects/types/x', { token: t.key, body: repairJob })).status).toBe(403);
  });

  it('refuses a breaking change while records exist (409) and allows compatible ones', async () => {
    const tt = await tenant('objects-evolve');
    expect(
      (
        await putType(tt, 'ticket', {
          label: 'Ticket',
          status: 'published',
          apiVisible: true,
          fields: [
            { key: 'title', type: 'text', required: true },
            { key: 'n', type: 'number' },
          ],
        })
      ).status,
    ).toBe(200);
    // Without records anything goes.
    expect(
      (
        await putType(tt, 'ticket', {
          label: 'Ticket',
          status: 'published',
          apiVisible: true,
          fields: [
            { key: 'title', type: 'text', required: true },
            { key: 'n', type: 'text' },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await create({ title: 'a', n: 'one' }, tt, 'ticket')).status).toBe(201);
    const retype = await putType(tt, 'ticket', {
      label: 'Ticket',
      status: 'published',
      apiVisible: true,
      fields: [
        { key: 'title', type: 'text', required: true },
        { key: 'n', type: 'number' },
      ],
    });
    expect(retype.status).toBe(409);
    expect(retype.body.error.message).toMatch(/n/);
    const compatible = await putType(tt, 'ticket', {
      label: 'Support ticket',
      status: 'published',
      apiVisible: true,
      fields: [
        { key: 'title', type: 'text', required: true },
        { key: 'n', type: 'text' },
        { key: 'extra', type: 'boolean' },
      ],
    });
    expect(compatible.status).toBe(200);
    expect(compatible.body.data).toMatchObject({ label: 'Support ticket', recordCount: 1, version: 3 });
  });
});

describe('records', () => {
  it('create -> get -> list; the record shape is exactly { id, data } / { id, data, createdAt, updatedAt }', async () => {
    const data = {
      title: 'Fix bike',
      state: 'open',
      cost: 12.5,
      paid: false,
      due: '2026-12-01',
      started_at: '2026-11-20T10:00:00+01:00',
      contact: 'ann@example.com',
      link: 'https://example.com/t/1',
      customer: member.id,
    };
    const res = await create(data);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data)).toEqual(['id', 'data']);
    expect(res.body.data.id).toMatch(/^rec_/);
    expect(res.body.data.data).toEqual(data);
    const got = await call('GET', `${records()}/${res.body.data.id}`, { token: t.key });
    expect(Object.keys(got.body.data).sort()).toEqual(['createdAt', 'data', 'id', 'updatedAt']);
    expect(got.body.data.data).toEqual(data);
  });

  it('refuses every invalid write with one detail per field and writes nothing', async () => {
    const before = (await call('GET', records(), { token: t.key })).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ state: 'open' }, 'data.title'],
      [{ title: 'x', state: 'closed' }, 'data.state'],
      [{ title: 'x', state: 'open', cost: '12' }, 'data.cost'],
      [{ title: 'x', state: 'open', paid: 'yes' }, 'data.paid'],
      [{ title: 'x', state: 'open', due: '2026-02-30' }, 'data.due'],
      [{ title: 'x', state: 'open', started_at: 'yesterday' }, 'data.started_at'],
      [{ title: 'x', state: 'open', contact: 'nope' }, 'data.contact'],
      [{ title: 'x', state: 'open', link: 'javascript:alert(1)' }, 'data.link'],
      [{ title: 'x', state: 'open', customer: 'mbr_01m7xj3rvfzrkph3m7kfz6rq3m' }, 'data.customer'],
      [{ title: 'x', state: 'open', colour: 'red' }, 'data.colour'],
    ];
    for (const [data, field] of cases) {
      const res = await create(data);
      expect(res.status, JSON.stringify(data)).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    const many = await create({ state: 'closed', cost: 'x', colour: 1 });
    expect(many.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['data.colour', 'data.cost', 'data.state', 'data.title']);
    // A member of another workspace is no member here.
    const other = await tenant('objects-foreign-member');
    const foreign = await newMember(other.key);
    expect((await create({ title: 'x', state: 'open', customer: foreign.id })).status).toBe(422);
    expect((await call('GET', records(), { token: t.key })).body.total).toBe(before);
  });

  it('PATCH merges field by field, null removes, replace overwrites and validates as a full record', async () => {
    const { id } = (await create({ title: 'Merge me', state: 'open', cost: 10, paid: false })).body.data;
    const merged = await call('PATCH', `${records()}/${id}`, { token: t.key, body: { data: { state: 'done', cost: null } } });
    expect(merged.status).toBe(200);
    expect(merged.body.data.data).toEqual({ title: 'Merge me', state: 'done', paid: false });
    expect(Date.parse(merged.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(merged.body.data.createdAt));
    const removeRequired = await call('PATCH', `${records()}/${id}`, { token: t.key, body: { data: { title: null } } });
    expect(removeRequired.status).toBe(422);
    const badReplace = await call('PATCH', `${records()}/${id}`, { token: t.key, body: { replace: true, data: { title: 'Only a title' } } });
    expect(badReplace.status).toBe(422);
    expect(badReplace.body.error.details.map((d: { field: string }) => d.field)).toEqual(['data.state']);
    const replaced = await call('PATCH', `${records()}/${id}`, { token: t.key, body: { replace: true, data: { title: 'Replaced', state: 'open' } } });
    expect(replaced.body.data.data).toEqual({ title: 'Replaced', state: 'open' });
    const unchanged = await call('GET', `${records()}/${id}`, { token: t.key });
    expect(unchanged.body.data.data).toEqual({ title: 'Replaced', state: 'open' });
  });

  it('two concurrent PATCHes of different fields both survive', async () => {
    const { id } = (await create({ title: 'Race', state: 'open' })).body.data;
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        call('PATCH', `${records()}/${id}`, { token: t.key, body: { data: { cost: round } } }),
        call('PATCH', `${records()}/${id}`, { token: t.key, body: { data: { paid: round % 2 === 0 } } }),
        call('PATCH', `${records()}/${id}`, { token: t.key, body: { data: { due: `2026-01-0${round + 1}` } } }),
      ]);
      const after = await call('GET', `${records()}/${id}`, { token: t.key });
      expect(after.body.data.data).toEqual({ title: 'Race', state: 'open', cost: round, paid: round % 2 === 0, due: `2026-01-0${round + 1}` });
    }
  });

  it('DELETE soft-deletes: 204, then gone from get, list and total; a second delete is 404', async () => {
    const before = (await call('GET', records(), { token: t.key })).body.total;
    const { id } = (await create({ title: 'Doomed', state: 'open' })).body.data;
    expect((await call('GET', records(), { token: t.key })).body.total).toBe(before + 1);
    const del = await call('DELETE', `${records()}/${id}`, { token: t.key });
    expect(del.status).toBe(204);
    expect((await call('GET', `${records()}/${id}`, { token: t.key })).status).toBe(404);
    expect((await call('PATCH', `${records()}/${id}`, { token: t.key, body: { data: { state: 'done' } } })).status).toBe(404);
    expect((await call('DELETE', `${records()}/${id}`, { token: t.key })).status).toBe(404);
    const list = await call('GET', `${records()}?limit=200&f_title=Doomed`, { token: t.key });
    expect(list.body).toEqual({ data: [], total: 0 });
    expect((await call('GET', records(), { token: t.key })).body.total).toBe(before);
    // Soft: the item is still stored with its data, marked deleted and out of every index.
    const { doc, tableName } = await platformTable();
    const stored = (
      await doc.send(
        new GetCommand({
          TableName: tableName,
          Key: keyOf('objectRecord', { workspaceId: t.workspaceId, type: 'repair_job', recordId: id }),
          ConsistentRead: true,
        }),
      )
    ).Item;
    expect(stored).toMatchObject({ id, data: { title: 'Doomed', state: 'open' }, deletedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(Object.keys(stored!).filter((k) => /^gsi\d(pk|sk)$/.test(k))).toEqual([]);
  });

  it('lists with sort orders, f_ filters (AND), memberId, q, offset/limit and a total of all matches', async () => {
    const tt = await tenant('objects-list');
    const m = await newMember(tt.key);
    expect((await putType(tt, 'repair_job', repairJob)).status).toBe(200);
    const titles = ['delta', 'Alpha', 'charlie', 'bravo', 'echo'];
    const ids: string[] = [];
    for (const [i, title] of titles.entries()) {
      const res = await create(
        { title, state: i % 2 ? 'done' : 'open', cost: i, customer: i < 2 ? m.id : undefined, contact: `${title.toLowerCase()}@shop.example` },
        tt,
      );
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    const list = async (qs: string) => (await call('GET', `${records()}?${qs}`, { token: tt.key })).body;
    expect((await list('sortBy=created_asc')).data.map((r: { id: string }) => r.id)).toEqual(ids);
    expect((await list('')).data.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
    expect((await list('sortBy=title_asc')).data.map((r: { data: { title: string } }) => r.data.title)).toEqual(['Alpha', 'bravo', 'charlie', 'delta', 'echo']);
    await call('PATCH', `${records()}/${ids[2]}`, { token: tt.key, body: { data: { cost: 99 } } });
    expect((await list('sortBy=updated_desc')).data[0].id).toBe(ids[2]);
    const open = await list('f_state=open&sortBy=title_asc&limit=2');
    expect(open.total).toBe(3);
    expect(open.data.map((r: { data: { title: string } }) => r.data.title)).toEqual(['charlie', 'delta']);
    expect((await list('f_state=open&sortBy=title_asc&limit=2&offset=2')).data.map((r: { data: { title: string } }) => r.data.title)).toEqual(['echo']);
    expect((await list('f_state=open&f_cost=4')).data.map((r: { id: string }) => r.id)).toEqual([ids[4]]);
    expect((await list(`memberId=${m.id}`)).total).toBe(2);
    expect((await list('q=ALPHA')).data.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    expect((await list(`f_contact=${encodeURIComponent('bravo@shop.example')}`)).total).toBe(1);
    expect((await list('limit=2')).total).toBe(5);
    expect((await list('offset=4')).data).toHaveLength(1);
    const unknown = await call('GET', `${records()}?f_colour=red`, { token: tt.key });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details[0].field).toBe('f_colour');
    expect((await call('GET', `${records()}?limit=201`, { token: tt.key })).status).toBe(422);
    expect((await call('GET', `${records()}?sortBy=random`, { token: tt.key })).status).toBe(422);
    expect((await call('GET', `${records()}?f_cost=abc`, { token: tt.key })).status).toBe(422);
  });

  it('totals filtered by a counted field (enum, boolean, member) stay exact through patches, replaces, deletes and races', async () => {
    const tt = await tenant('objects-counts');
    const [m1, m2] = [await newMember(tt.key), await newMember(tt.key)];
    expect((await putType(tt, 'repair_job', repairJob)).status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await create({ title: `r${i}`, state: ['open', 'done'][i % 2], paid: i < 3, customer: i < 4 ? m1.id : m2.id }, tt)).body.data.id);
    const patch = (id: string, body: unknown) => call('PATCH', `${records()}/${id}`, { token: tt.key, body });
    await patch(ids[0]!, { data: { state: 'in_progress' } });
    await patch(ids[1]!, { data: { paid: null, customer: m2.id } });
    await patch(ids[2]!, { replace: true, data: { title: 'replaced', state: 'done' } });
    await call('DELETE', `${records()}/${ids[3]}`, { token: tt.key });
    // Racing patches of one counted field: whatever wins, the counters must agree with the records.
    await Promise.all(['open', 'done', 'in_progress', 'open'].map((state) => patch(ids[4]!, { data: { state } })));
    const all = (await call('GET', `${records()}?limit=200`, { token: tt.key })).body.data as { data: Record<string, unknown> }[];
    const expectCount = async (qs: string, predicate: (d: Record<string, unknown>) => boolean) => {
      const res = await call('GET', `${records()}?${qs}`, { token: tt.key });
      expect(res.body.total, qs).toBe(all.filter((r) => predicate(r.data)).length);
      expect(res.body.data.length, qs).toBe(all.filter((r) => predicate(r.data)).length);
    };
    for (const state of ['open', 'done', 'in_progress']) await expectCount(`f_state=${state}`, (d) => d.state === state);
    await expectCount('f_paid=true', (d) => d.paid === true);
    await expectCount('f_paid=false', (d) => d.paid === false);
    await expectCount(`memberId=${m1.id}`, (d) => d.customer === m1.id);
    await expectCount(`f_customer=${m2.id}`, (d) => d.customer === m2.id);
    await expectCount('f_state=done&f_paid=true', (d) => d.state === 'done' && d.paid === true);
  });

  it('a key without objects:write gets 403; objects:read reads', async () => {
    const reader = await createKey(t.token, { name: 'reader', scopes: ['objects:read'] });
    const res = await call('POST', records(), { token: reader.key, body: { data: { title: 'x', state: 'open' } } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('objects:write');
    expect((await call('GET', records(), { token: reader.key })).status).toBe(200);
    const writer = await createKey(t.token, { name: 'writer', scopes: ['objects:write'] });
    expect((await call('GET', records(), { token: writer.key })).status).toBe(403);
  });
});
