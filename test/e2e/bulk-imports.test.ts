import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { newMember, newOrder, tenant, type Tenant } from '../support/fixtures';
import { apply, importJob, preview } from '../support/imports';

/**
 * Bulk jobs over HTTP on the import machinery: a points file (each row a signed change with its
 * reason) and a tags file previewed with their errors, applied, applied again without doubling and
 * undone; a tags job over a members filter touching exactly the members the filter matches.
 */

const points = async (t: Tenant, id: string) => (await call('GET', `/api/v2/members/${id}/points?limit=100`, { token: t.key })).body.data;
const tagsOf = async (t: Tenant, id: string): Promise<string[]> =>
  (await call('GET', `/api/v2/members/${id}/tags`, { token: t.key })).body.data.tags.map((x: { key: string }) => x.key).sort();
const earn = async (t: Tenant, id: string, amount: number) =>
  expect((await call('POST', `/api/v2/members/${id}/points`, { token: t.key, body: { type: 'earn', amount, reason: 'setup' } })).status).toBe(201);

async function undo(t: Tenant, id: string) {
  const res = await call('POST', `/api/v2/imports/${id}/undo`, { token: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.status).toBe('undone');
}

describe('bulk jobs', () => {
  it('points from a file: errors by line and field, applied once, applied again without doubling, undone exactly', { timeout: 120_000 }, async () => {
    const t = await tenant('bulk-points');
    const ada = await newMember(t.key, { externalId: 'crm-ada' });
    const bob = await newMember(t.key, { email: 'bob-bulk@example.test' });
    const cy = await newMember(t.key);
    await earn(t, bob.id, 100);
    const file = [
      'memberId,externalId,email,points,reason',
      `${ada.id},,,500,Launch gift`, // 2
      ',crm-ada,,-50,Duplicate order', // 3
      ',,BOB-bulk@example.test,-30,Goodwill taken back', // 4
      `${cy.id},,,0,Nothing`, // 5: zero
      ',crm-nobody,,10,Gift', // 6: no such member
      `${cy.id},,,abc,`, // 7: points and reason
      `${cy.id},,,-1000,Too much`, // 8: valid, refused on apply (the balance would go below zero)
    ].join('\n');
    const id = await importJob(t, 'points', 'csv', file);
    const p = await preview(t, id);
    expect(p.preview).toMatchObject({ rows: 7, valid: 4, invalid: 3, outcomes: { applied: 4, invalid: 3 } });
    expect(p.preview.errors).toEqual([
      { line: 5, field: 'points', message: 'must not be 0: give + to add, - to take away' },
      { line: 6, field: 'externalId', message: 'names no member of this workspace' },
      { line: 7, field: 'points', message: 'must be a whole number' },
      { line: 7, field: 'reason', message: 'is required' },
    ]);
    expect(p.preview.totals).toMatchObject({ points: 500, pointsRemoved: 1080, tagged: 0, untagged: 0 });
    expect((await points(t, ada.id)).balance).toBe(0);

    expect(await apply(t, id)).toMatchObject({ status: 'completed', progress: { rows: 7, done: 3, skipped: 0, failed: 4 } });
    const a = await points(t, ada.id);
    expect(a).toMatchObject({ balance: 450, lifetime: 500 });
    expect(a.entries.map((e: { type: string; amount: number; reason: string }) => [e.type, e.amount, e.reason])).toEqual([
      ['adjustment', -50, 'Duplicate order'],
      ['adjustment', 500, 'Launch gift'],
    ]);
    for (const e of a.entries) expect(e.source).toMatchObject({ type: 'import', importJobId: id, apiKeyId: expect.stringMatching(/^key_/) });
    expect(await points(t, bob.id)).toMatchObject({ balance: 70, lifetime: 100 });
    expect(await points(t, cy.id)).toMatchObject({ balance: 0 });

    expect(await apply(t, id)).toMatchObject({ status: 'completed', progress: { done: 0, skipped: 3, failed: 4 } });
    expect(await points(t, ada.id)).toMatchObject({ balance: 450, lifetime: 500 });
    expect((await points(t, ada.id)).entries).toHaveLength(2);

    await undo(t, id);
    expect(await points(t, ada.id)).toMatchObject({ balance: 0, lifetime: 0 });
    expect(await points(t, bob.id)).toMatchObject({ balance: 100, lifetime: 100 });
    const corrections = (await points(t, ada.id)).entries.filter((e: { type: string }) => e.type === 'correction');
    expect(corrections.map((e: { amount: number }) => e.amount).sort((x: number, y: number) => x - y)).toEqual([-500, 50]);
  });

  it('tags from a file: added and removed, a change that is none kept as none, undone back to each member as before', { timeout: 120_000 }, async () => {
    const t = await tenant('bulk-tags');
    const ada = await newMember(t.key, { externalId: 'tag-ada' });
    const bob = await newMember(t.key);
    expect((await call('POST', `/api/v2/members/${bob.id}/tags`, { token: t.key, body: { tags: ['vip', 'newsletter'] } })).status).toBe(200);
    const file = [
      JSON.stringify({ externalId: 'tag-ada', tag: 'vip', action: 'add' }),
      JSON.stringify({ memberId: bob.id, tag: 'vip', action: 'add' }), // had it already
      JSON.stringify({ memberId: bob.id, tag: 'newsletter', action: 'remove' }),
      JSON.stringify({ memberId: ada.id, tag: 'Not A Key', action: 'toggle', colour: 'red' }), // 4
    ].join('\n');
    const id = await importJob(t, 'tags', 'jsonl', file);
    const p = await preview(t, id);
    expect(p.preview).toMatchObject({ rows: 4, valid: 3, invalid: 1 });
    expect(p.preview.errors.map((e: { line: number; field: string }) => [e.line, e.field])).toEqual([
      [4, 'tag'],
      [4, 'action'],
      [4, 'colour'],
    ]);
    expect(p.preview.totals).toMatchObject({ tagged: 2, untagged: 1, points: 0 });
    expect(await tagsOf(t, ada.id)).toEqual([]);

    expect(await apply(t, id)).toMatchObject({ status: 'completed', progress: { done: 3, failed: 1 } });
    expect(await tagsOf(t, ada.id)).toEqual(['vip']);
    expect(await tagsOf(t, bob.id)).toEqual(['vip']);
    expect(await apply(t, id)).toMatchObject({ status: 'completed', progress: { done: 0, skipped: 3, failed: 1 } });

    await undo(t, id);
    expect(await tagsOf(t, ada.id)).toEqual([]);
    expect(await tagsOf(t, bob.id)).toEqual(['newsletter', 'vip']);
  });

  it('a tags job over a members filter touches exactly the matching members, in no other workspace', { timeout: 120_000 }, async () => {
    const t = await tenant('bulk-filter');
    const other = await tenant('bulk-filter-other');
    const tag = async (tt: Tenant, id: string, tags: string[]) =>
      expect((await call('POST', `/api/v2/members/${id}/tags`, { token: tt.key, body: { tags } })).status).toBe(200);
    const matching = [];
    for (let i = 0; i < 5; i++) {
      const m = await newMember(t.key, { firstName: `Vip ${i}` });
      await tag(t, m.id, ['vip']);
      matching.push(m.id);
    }
    const plain = await newMember(t.key, { firstName: 'Vip but untagged' });
    const elsewhere = await newMember(other.key);
    await tag(other, elsewhere.id, ['vip']);

    const created = await call('POST', '/api/v2/imports', {
      token: t.key,
      body: { kind: 'tags', filter: { tag: 'vip', q: 'vip' }, change: { tag: 'launch', action: 'add' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ kind: 'tags', filter: { tag: 'vip', q: 'vip' }, change: { tag: 'launch', action: 'add' }, upload: null });
    const id = created.body.data.id;
    const p = await preview(t, id);
    expect(p.preview).toMatchObject({ rows: 5, valid: 5, invalid: 0, totals: { tagged: 5 } });

    expect(await apply(t, id)).toMatchObject({ status: 'completed', progress: { rows: 5, done: 5, failed: 0 } });
    for (const m of matching) expect(await tagsOf(t, m)).toEqual(['launch', 'vip']);
    expect(await tagsOf(t, plain.id)).toEqual([]);
    expect(await tagsOf(other, elsewhere.id)).toEqual(['vip']);
    const launched = (await call('GET', '/api/v2/members?tag=launch', { token: t.key })).body.data.map((m: { id: string }) => m.id);
    expect(launched.sort()).toEqual([...matching].sort());

    // Applied again: the members listed when it first began, each once.
    await tag(t, plain.id, ['vip']);
    expect(await apply(t, id)).toMatchObject({ status: 'completed', progress: { done: 0, skipped: 5 } });
    expect(await tagsOf(t, plain.id)).toEqual(['vip']);
    await undo(t, id);
    for (const m of matching) expect(await tagsOf(t, m)).toEqual(['vip']);
  });

  it('a members job undone: the members it created removed if untouched since, the others kept and counted', { timeout: 120_000 }, async () => {
    const t = await tenant('bulk-members-undo');
    const existing = await newMember(t.key, { externalId: 'UNDO-0' });
    const rows = ['externalId,email,firstName,tags'];
    for (let i = 0; i <= 4; i++) rows.push(`UNDO-${i},undo-${i}@example.test,Name ${i},vip`);
    const id = await importJob(t, 'members', 'csv', `${rows.join('\n')}\n`);
    await preview(t, id);
    expect(await apply(t, id)).toMatchObject({ status: 'completed', progress: { done: 5 } });
    const idOf = async (x: string) => (await call('GET', `/api/v2/members?externalId=${x}`, { token: t.key })).body.data[0]?.id;
    // Touched since: a profile change, a points change, an order; UNDO-4 is left alone.
    expect((await call('PATCH', `/api/v2/members/${await idOf('UNDO-1')}`, { token: t.key, body: { firstName: 'Changed' } })).status).toBe(200);
    await earn(t, await idOf('UNDO-2'), 5);
    await newOrder(t.key, await idOf('UNDO-3'));
    const removed = await idOf('UNDO-4');
    const vip = async () => (await call('GET', '/api/v2/tags?prefix=vip', { token: t.key })).body.data[0]?.memberCount;
    expect(await vip()).toBe(5);

    const res = await call('POST', `/api/v2/imports/${id}/undo`, { token: t.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // UNDO-0 was matched (kept, nothing to remove); UNDO-1..3 were created and touched.
    expect(res.body.data).toMatchObject({ status: 'undone', undo: { undone: 2, kept: 3 } });
    expect(await idOf('UNDO-4')).toBeUndefined();
    expect((await call('GET', `/api/v2/members/${removed}`, { token: t.key })).status).toBe(404);
    for (const x of ['UNDO-0', 'UNDO-1', 'UNDO-2', 'UNDO-3']) expect(await idOf(x), x).toBeDefined();
    expect(await idOf('UNDO-0')).toBe(existing.id);
    expect(await vip()).toBe(4);
    // Its e-mail and externalId are free again.
    expect((await call('POST', '/api/v2/members', { token: t.key, body: { email: 'undo-4@example.test', externalId: 'UNDO-4' } })).status).toBe(201);
  });

  it('a filtered job takes a bulk kind and a change checked as a row', async () => {
    const t = await tenant('bulk-refusals');
    const refused = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/api/v2/imports', { token: t.key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      return res.body.error.details.map((d: { field: string }) => d.field);
    };
    expect(await refused({ kind: 'points', filter: { tier: 'gold' }, change: { points: 0 } })).toEqual(['change.points', 'change.reason']);
    expect(await refused({ kind: 'balances', filter: { tier: 'gold' }, change: {} })).toEqual(['kind']);
    expect(await refused({ kind: 'tags', filter: {} })).toEqual(['change']);
    expect(await refused({ kind: 'tags' })).toEqual(['format']);
  });
});
