import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { call, uniqueEmail } from '../support/api';
import { newMember, newOrder, tenant, type Tenant } from '../support/fixtures';
import { wholeTable } from '../support/table';
import { clientOf, portalSession, unpackPass } from '../support/wallet';

/**
 * The data-subject export and erasure (spec 2.6) against the running platform: the export holds the
 * member's data from every place it is stored and nobody else's; after an erasure a scan of the
 * whole table finds none of the erased values, balances still equal their ledger sums, and a
 * repeat changes nothing.
 */

/** A member with data in every place the platform stores member data, all values unique to it. */
async function richMember(t: Tenant) {
  const tag = randomUUID().slice(0, 8);
  const values = {
    email: uniqueEmail(`subject-${tag}`),
    firstName: `Firstname${tag}`,
    lastName: `Lastname${tag}`,
    phone: `+49301${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 90 + 10)}`,
    // Unique enough for a scan of the shared table: a random day of a random year.
    birthDate: `${1900 + Math.floor(Math.random() * 100)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`,
    attribute: `attr-${tag}`,
    captureAttribute: `capattr-${tag}`,
    trackingProperty: `prop-${tag}`,
    reason: `Goodwill for ${tag}`,
    recordNote: `ref-${tag}`,
  };
  const m = await newMember(t.key, {
    email: values.email,
    firstName: values.firstName,
    lastName: values.lastName,
    phone: values.phone,
    birthDate: values.birthDate,
    customAttributes: { favourite: values.attribute },
  });
  const capture = await call('POST', '/api/v2/captures', {
    token: t.key,
    body: {
      email: values.email,
      phone: values.phone,
      firstName: values.firstName,
      source: `form-${tag}`,
      consents: { marketingEmail: true },
      attributes: { note: values.captureAttribute },
    },
  });
  expect(capture.status, JSON.stringify(capture.body)).toBe(201);
  expect(capture.body.data.memberId).toBe(m.id);
  const tracked = await call('POST', '/api/v2/tracking/events', {
    token: t.key,
    body: {
      events: [
        { eventId: `ev-${tag}`, memberId: m.id, type: 'page.viewed', occurredAt: new Date().toISOString(), properties: { path: values.trackingProperty } },
      ],
    },
  });
  expect(tracked.body.data.results?.[0]?.status ?? tracked.body.data[0]?.status ?? 'accepted').toBe('accepted');
  expect((await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 30, reason: values.reason } })).status).toBe(201);
  await newOrder(t.key, m.id, { total: 80 });
  expect((await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['vip'] } })).status).toBe(200);
  expect(
    (
      await call('PUT', '/api/flash/objects/types/visit', {
        token: t.token,
        body: {
          label: 'Visit',
          status: 'published',
          apiVisible: true,
          fields: [
            { key: 'note', type: 'text' },
            { key: 'member', type: 'member_ref' },
          ],
        },
      })
    ).status,
  ).toBe(200);
  const record = await call('POST', '/api/v2/objects/visit/records', { token: t.key, body: { data: { note: values.recordNote, member: m.id } } });
  expect(record.status, JSON.stringify(record.body)).toBe(201);
  return { m, values };
}

describe('data-subject export and erasure', () => {
  it("exports one member's data from everywhere it is stored, and nobody else's", async () => {
    const t = await tenant('privacy');
    const { m, values } = await richMember(t);
    const other = await richMember(t);
    const res = await call('GET', `/api/v2/members/${m.id}/personal-data`, { token: t.key });
    expect(res.status).toBe(200);
    const doc = res.body.data;
    const text = JSON.stringify(doc);
    for (const v of Object.values(values)) expect(text, v).toContain(v);
    for (const v of Object.values(other.values)) expect(text, v).not.toContain(v);
    expect(text).not.toContain(other.m.id);
    expect(doc.profile).toMatchObject({ id: m.id, email: values.email, customAttributes: { favourite: values.attribute } });
    expect(doc.orders).toHaveLength(1);
    expect(doc.captures).toHaveLength(1);
    expect(doc.trackingEvents).toHaveLength(1);
    expect(doc.tags.map((x: { key: string }) => x.key)).toEqual(['vip']);
    expect(doc.customObjectRecords).toEqual([expect.objectContaining({ type: 'visit', data: { note: values.recordNote, member: m.id } })]);
    expect(doc.pointsLedger.reduce((n: number, e: { amount: number }) => n + e.amount, 0)).toBe(doc.profile.points.balance + doc.profile.points.pending);
    expect(doc.erasedAt).toBeNull();
    // Another workspace's key: not found.
    const stranger = await tenant('privacy-other');
    expect((await call('GET', `/api/v2/members/${m.id}/personal-data`, { token: stranger.key })).status).toBe(404);
    const audit = await call('GET', '/api/flash/audit?action=member.personal_data_exported', { token: t.token });
    expect(audit.body.data.map((e: { target: { id: string } }) => e.target.id)).toContain(m.id);
  });

  it('erasure removes every erased value from the whole table, keeps balances equal to ledger sums, and is idempotent', async () => {
    const t = await tenant('erasure');
    const { m, values } = await richMember(t);
    const bystander = await richMember(t);
    const before = (await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key })).body.data;

    const first = await call('POST', `/api/v2/members/${m.id}/erasure`, { token: t.key });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ memberId: m.id, alreadyErased: false });
    const again = await call('POST', `/api/v2/members/${m.id}/erasure`, { token: t.key });
    expect(again.body.data).toEqual({ memberId: m.id, erasedAt: first.body.data.erasedAt, alreadyErased: true });

    const table = await wholeTable();
    for (const v of Object.values(values)) {
      if (v === values.recordNote) continue; // custom-object records are the workspace's own business data (kept; they reference the member id only)
      const hits = table.filter((i) => i.includes(v));
      expect(hits, `${v} still stored`).toEqual([]);
    }
    // The bystander keeps everything.
    expect(table.some((i) => i.includes(bystander.values.email))).toBe(true);

    const after = (await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key })).body.data;
    expect(after.balance).toBe(before.balance);
    expect(after.lifetime).toBe(before.lifetime);
    const profile = (await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data;
    expect(profile).toMatchObject({
      email: null,
      firstName: null,
      lastName: null,
      phone: null,
      birthDate: null,
      customAttributes: {},
      status: 'unenrolled',
      tier: before.tier ?? profile.tier,
    });
    const exported = (await call('GET', `/api/v2/members/${m.id}/personal-data`, { token: t.key })).body.data;
    expect(exported.erasedAt).toBe(first.body.data.erasedAt);
    const ledgerSum = exported.pointsLedger.reduce((n: number, e: { amount: number }) => n + e.amount, 0);
    expect(ledgerSum).toBe(exported.profile.points.balance + exported.profile.points.pending);
    expect(exported.orders[0].total).toBe(80);
    // One thin event, once; one audit entry, once.
    const outbox = table.filter((i) => i.includes('"entity":"outbox"') && i.includes('"member.erased"') && i.includes(m.id));
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).not.toContain('@');
    const audit = await call('GET', '/api/flash/audit?action=member.erased', { token: t.token });
    expect(audit.body.data.filter((e: { target: { id: string } }) => e.target.id === m.id)).toHaveLength(1);
    // The e-mail is free again: a new member may use it.
    expect((await call('POST', '/api/v2/members', { token: t.key, body: { email: values.email } })).status).toBe(201);
  });

  it('erasures of one member at once: every one answers 200 with the same erasedAt, one of them first', async () => {
    const t = await tenant('erasure-race');
    const m = await call('POST', '/api/v2/members', { token: t.key, body: { email: uniqueEmail('erase-race') } });
    expect(m.status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('POST', `/api/v2/members/${m.body.data.id}/erasure`, { token: t.key })));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((r) => r.body.data.erasedAt)).size).toBe(1);
    expect(answers.filter((r) => r.body.data.alreadyErased === false)).toHaveLength(1);
  });

  it('needs privacy:write to erase and privacy:read to export', async () => {
    const t = await tenant('privacy-scopes');
    const m = await newMember(t.key);
    const reader = await call('POST', '/api/v2/api-keys', { token: t.token, body: { name: 'read', scopes: ['privacy:read'] } });
    expect((await call('POST', `/api/v2/members/${m.id}/erasure`, { token: reader.body.data.key })).status).toBe(403);
    expect((await call('GET', `/api/v2/members/${m.id}/personal-data`, { token: reader.body.data.key })).status).toBe(200);
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.email).not.toBeNull();
  });
});

describe('wallet passes in the data-subject export and erasure', () => {
  it('the export lists the pass and its devices (no tokens); erasure makes the pass 410 and removes its registrations', async () => {
    const t = await tenant('privacy-wallet');
    const request = clientOf(inject('baseUrl'));
    const m = await newMember(t.key);
    const session = await portalSession(request, t.key, m.id);
    const issued = await request('POST', '/api/consumer/wallet/issue', { token: session, body: { platform: 'apple' } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const pass = JSON.parse(unpackPass(issued.body as Buffer).files['pass.json']!.toString('utf8'));
    const auth = { authorization: `ApplePass ${pass.authenticationToken}` };
    const deviceId = `device${randomUUID().replace(/-/g, '')}`;
    const pushToken = `${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '')}`;
    const registration = `/api/wallet/apple/v1/devices/${deviceId}/registrations/${pass.passTypeIdentifier}/${pass.serialNumber}`;
    expect((await request('POST', registration, { headers: auth, body: { pushToken } })).status).toBe(201);

    const exported = (await call('GET', `/api/v2/members/${m.id}/personal-data`, { token: t.key })).body.data;
    expect(exported.walletPasses).toEqual([
      expect.objectContaining({ platform: 'apple', serial: pass.serialNumber, devices: [expect.objectContaining({ deviceLibraryIdentifier: deviceId })] }),
    ]);
    expect(JSON.stringify(exported)).not.toContain(pushToken);
    expect(JSON.stringify(exported)).not.toContain(pass.authenticationToken);

    expect((await call('POST', `/api/v2/members/${m.id}/erasure`, { token: t.key })).status).toBe(200);
    expect((await request('GET', `/api/wallet/apple/v1/passes/${pass.passTypeIdentifier}/${pass.serialNumber}`, { headers: auth })).status).toBe(410);
    expect((await request('POST', registration, { headers: auth, body: { pushToken } })).status).toBe(410);
    expect((await wholeTable()).filter((i) => i.includes(pushToken))).toEqual([]);
    expect((await call('GET', `/api/v2/members/${m.id}/personal-data`, { token: t.key })).body.data.walletPasses[0].devices).toEqual([]);
  });
});
