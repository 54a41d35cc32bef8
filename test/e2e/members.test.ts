import { describe, expect, it } from 'vitest';
import { call, uniqueEmail } from '../support/api';
import { newMember, tenant } from '../support/fixtures';

describe('members', () => {
  it('enrols a member with lower-cased e-mail, starting tier and zero points; e-mail and externalId are unique', async () => {
    const t = await tenant('members');
    const email = uniqueEmail('ada');
    const res = await call('POST', '/api/v2/members', {
      token: t.key,
      body: { email: email.toUpperCase(), externalId: 'C-1', firstName: 'Ada', customAttributes: { shoeSize: 38 } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      email,
      externalId: 'C-1',
      firstName: 'Ada',
      status: 'active',
      tier: 'bronze',
      points: { balance: 0, pending: 0, lifetime: 0 },
      customAttributes: { shoeSize: 38 },
      tags: [],
    });
    expect(res.body.data.id).toMatch(/^mbr_[0-9a-z]{26}$/);
    expect((await call('POST', '/api/v2/members', { token: t.key, body: { email } })).status).toBe(409);
    expect((await call('POST', '/api/v2/members', { token: t.key, body: { externalId: 'C-1' } })).status).toBe(409);
    // Another workspace may use the same e-mail.
    const other = await tenant('members-other');
    expect((await call('POST', '/api/v2/members', { token: other.key, body: { email } })).status).toBe(201);
  });

  it('needs e-mail or externalId and validates every field', async () => {
    const t = await tenant('members-val');
    const none = await call('POST', '/api/v2/members', { token: t.key, body: { firstName: 'X' } });
    expect(none.status).toBe(422);
    const bad = await call('POST', '/api/v2/members', {
      token: t.key,
      body: { email: 'nope', birthDate: '1990-13-45', phone: 'call me', customAttributes: { 'bad key': 1 }, extra: 1 },
    });
    expect(bad.status).toBe(422);
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'birthDate', 'phone', 'extra']));
    expect(fields.some((f: string) => f.startsWith('customAttributes'))).toBe(true);
  });

  it('PATCH merges customAttributes key by key, null removes, and can change e-mail and status', async () => {
    const t = await tenant('patch');
    const m = await newMember(t.key, { customAttributes: { a: 1, b: 'x' } });
    const newEmail = uniqueEmail('moved');
    const res = await call('PATCH', `/api/v2/members/${m.id}`, {
      token: t.key,
      body: { email: newEmail, lastName: 'Lovelace', customAttributes: { b: null, c: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ email: newEmail, lastName: 'Lovelace', customAttributes: { a: 1, c: true } });
    expect(res.body.data.customAttributes).not.toHaveProperty('b');
    // The old e-mail is free again; the new one is taken.
    expect((await call('POST', '/api/v2/members', { token: t.key, body: { email: m.email } })).status).toBe(201);
    expect((await call('POST', '/api/v2/members', { token: t.key, body: { email: newEmail } })).status).toBe(409);
    const unenrol = await call('PATCH', `/api/v2/members/${m.id}`, { token: t.key, body: { status: 'unenrolled' } });
    expect(unenrol.body.data.status).toBe('unenrolled');
    expect((await call('PATCH', `/api/v2/members/${m.id}`, { token: t.key, body: {} })).status).toBe(422);
    expect((await call('GET', '/api/v2/members/mbr_doesnotexist', { token: t.key })).status).toBe(404);
  });

  it('lists with filters: email, externalId, tier, status, free text, and cursor pages', async () => {
    const t = await tenant('list');
    const ada = await newMember(t.key, { firstName: 'Ada', lastName: 'Lovelace', externalId: 'L-1' });
    const alan = await newMember(t.key, { firstName: 'Alan', lastName: 'Turing' });
    const grace = await newMember(t.key, { firstName: 'Grace', lastName: 'Hopper' });
    await call('POST', `/api/v2/members/${grace.id}/points`, { token: t.key, body: { type: 'earn', amount: 600, reason: 'x' } });
    await call('PATCH', `/api/v2/members/${alan.id}`, { token: t.key, body: { status: 'unenrolled' } });
    const ids = async (qs: string) => (await call('GET', `/api/v2/members${qs}`, { token: t.key })).body.data.map((m: { id: string }) => m.id);
    expect(await ids('')).toEqual([grace.id, alan.id, ada.id]);
    expect(await ids(`?email=${encodeURIComponent(ada.email.toUpperCase())}`)).toEqual([ada.id]);
    expect(await ids('?externalId=L-1')).toEqual([ada.id]);
    expect(await ids('?tier=silver')).toEqual([grace.id]);
    expect(await ids('?status=unenrolled')).toEqual([alan.id]);
    expect(await ids('?q=TURING')).toEqual([alan.id]);
    expect(await ids('?q=a&status=active')).toEqual([grace.id, ada.id]);
    const first = await call('GET', '/api/v2/members?limit=2', { token: t.key });
    expect(first.body.data).toHaveLength(2);
    const second = await call('GET', `/api/v2/members?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: t.key });
    expect(second.body.data.map((m: { id: string }) => m.id)).toEqual([ada.id]);
  });

  it('batch upserts by externalId then e-mail with one result per item; a replay changes nothing', async () => {
    const t = await tenant('batch');
    const existing = await newMember(t.key, { externalId: 'E-1', firstName: 'Old' });
    const byEmail = await newMember(t.key);
    const body = {
      members: [
        { externalId: 'E-1', firstName: 'New' },
        { email: byEmail.email, lastName: 'Updated' },
        { email: uniqueEmail('fresh'), externalId: 'E-2' },
        { email: 'broken' },
        { externalId: 'E-1', email: byEmail.email },
        { externalId: 'E-2', firstName: 'Second touch' },
      ],
    };
    const res = await call('POST', '/api/v2/members/batch', { token: t.key, body });
    expect(res.status).toBe(200);
    const outcomes = res.body.data.results.map((r: { outcome: string }) => r.outcome);
    expect(outcomes).toEqual(['updated', 'updated', 'created', 'failed', 'failed', 'updated']);
    expect(res.body.data.results[0].memberId).toBe(existing.id);
    expect(res.body.data.results[3].error.code).toBe('VALIDATION_FAILED');
    expect(res.body.data.results[4].error.code).toBe('CONFLICT');
    expect(res.body.data.summary).toEqual({ created: 1, updated: 3, unchanged: 0, failed: 2 });

    const replay = await call('POST', '/api/v2/members/batch', { token: t.key, body });
    expect(replay.body.data.results.map((r: { outcome: string }) => r.outcome)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'failed',
      'failed',
      'unchanged',
    ]);
    const after = await call('GET', `/api/v2/members/${existing.id}`, { token: t.key });
    expect(after.body.data.firstName).toBe('New');
    expect((await call('POST', '/api/v2/members/batch', { token: t.key, body: { members: new Array(501).fill({ externalId: 'x' }) } })).status).toBe(422);
  });
});
