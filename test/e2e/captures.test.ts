import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { call, createKey, uniqueEmail } from '../support/api';
import { newMember, tenant } from '../support/fixtures';
import { outboxEvents, platformTable, scanItems, workspaceItems } from '../support/table';

const eventsOf = outboxEvents;
const itemsOf = workspaceItems;

const capture = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call('POST', '/api/v2/captures', { token: key, body: { source: 'footer_form', consents: { marketingEmail: true }, ...body }, headers });

const memberIds = async (key: string) =>
  (await call('GET', '/api/v2/members?limit=200', { token: key })).body.data.map((m: { id: string }) => m.id) as string[];

describe('captures', () => {
  it('creates a member for a new lead and emits member.created and capture.created in one outbox item', async () => {
    const t = await tenant('cap');
    const email = uniqueEmail('lead');
    const res = await capture(t.key, {
      email: email.toUpperCase(),
      phone: '+49 30 1234567',
      firstName: 'Lea',
      source: 'popup:summer',
      consents: { marketingEmail: true, terms: true },
      attributes: { favouriteColour: 'green', age: 31 },
    });
    expect(res.status).toBe(201);
    const c = res.body.data;
    expect(c).toMatchObject({
      memberOutcome: 'created',
      matchedBy: null,
      duplicate: false,
      source: 'popup:summer',
      email,
      phone: '+49 30 1234567',
      firstName: 'Lea',
      lastName: null,
      consents: { marketingEmail: true, marketingSms: null, terms: true },
      attributes: { favouriteColour: 'green', age: 31 },
      referral: null,
    });
    expect(c.id).toMatch(/^cap_[0-9a-z]{26}$/);
    const member = (await call('GET', `/api/v2/members/${c.memberId}`, { token: t.key })).body.data;
    expect(member).toMatchObject({ email, phone: '+49 30 1234567', firstName: 'Lea', customAttributes: { favouriteColour: 'green', age: 31 } });

    const outbox = await itemsOf(t.workspaceId, 'outbox');
    expect(outbox).toHaveLength(1);
    expect(outbox[0].events.map((e: { type: string; data: unknown }) => [e.type, e.data])).toEqual([
      ['member.created', { resource_id: c.memberId, member_ref: c.memberId, tier: 'bronze' }],
      ['capture.created', { resource_id: c.id, member_ref: c.memberId }],
    ]);
    expect(JSON.stringify(outbox)).not.toMatch(/lead-|Lea|1234567|green/);
  });

  it('matches an existing member by e-mail without changing it, and emits member.created only for new members', async () => {
    const t = await tenant('cap-match');
    const m = await newMember(t.key, { firstName: 'Original' });
    const res = await capture(t.key, { email: m.email.toUpperCase(), firstName: 'Other', attributes: { x: 1 } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ memberId: m.id, memberOutcome: 'matched', matchedBy: 'email', duplicate: false });
    const after = (await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data;
    expect(after.firstName).toBe('Original');
    expect(after.customAttributes).toEqual({});
    expect(await memberIds(t.key)).toEqual([m.id]);
    expect(await eventsOf(t.workspaceId, 'member.created')).toHaveLength(1); // the enrolment, not the capture
    expect((await eventsOf(t.workspaceId, 'capture.created')).map((e) => e.data)).toEqual([{ resource_id: res.body.data.id, member_ref: m.id }]);
  });

  it('answers a repeat of the same identity and source within the window with the first capture (duplicate: true)', async () => {
    const t = await tenant('cap-dedupe');
    const email = uniqueEmail('twice');
    const first = await capture(t.key, { email });
    const again = await capture(t.key, { email: ` ${email.toUpperCase()} `, consents: { marketingEmail: false } });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first.body.data, duplicate: true });
    // Another source is another capture (of the same, now known, member).
    const elsewhere = await capture(t.key, { email, source: 'checkout' });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.data).toMatchObject({ memberId: first.body.data.memberId, memberOutcome: 'matched', duplicate: false });
    expect(await memberIds(t.key)).toEqual([first.body.data.memberId]);
    expect(await eventsOf(t.workspaceId, 'member.created')).toHaveLength(1);
    expect(await eventsOf(t.workspaceId, 'capture.created')).toHaveLength(2);
    expect(await itemsOf(t.workspaceId, 'capture')).toHaveLength(2);

    // Once the window has passed, the same submission is a new capture of the member.
    const { doc, tableName } = await platformTable();
    // The window item carries no workspace id, so it is found by its capture.
    const Items = await scanItems('entity = :e AND captureId = :c', { ':e': 'captureWindow', ':c': first.body.data.id });
    expect(Items).toHaveLength(1);
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: Items[0]!.pk, sk: Items[0]!.sk },
        UpdateExpression: 'SET windowEndsAt = :past',
        ExpressionAttributeValues: { ':past': '2020-01-01T00:00:00.000Z' },
      }),
    );
    const later = await capture(t.key, { email });
    expect(later.status).toBe(201);
    expect(later.body.data).toMatchObject({ memberId: first.body.data.memberId, memberOutcome: 'matched', duplicate: false });
    expect(later.body.data.id).not.toBe(first.body.data.id);
  });

  it('concurrent identical submissions record one capture and one member', async () => {
    const t = await tenant('cap-race');
    const email = uniqueEmail('race');
    const answers = await Promise.all(Array.from({ length: 6 }, () => capture(t.key, { email })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200 && a.body.data.duplicate)).toHaveLength(5);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(await memberIds(t.key)).toHaveLength(1);
    expect(await eventsOf(t.workspaceId, 'member.created')).toHaveLength(1);
    expect(await eventsOf(t.workspaceId, 'capture.created')).toHaveLength(1);

    // Concurrent captures of one new person from different sources enrol them once.
    const other = uniqueEmail('race2');
    const sources = await Promise.all(['a', 'b', 'c', 'd'].map((source) => capture(t.key, { email: other, source })));
    expect(sources.map((s) => s.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(sources.map((s) => s.body.data.memberId)).size).toBe(1);
    expect(sources.filter((s) => s.body.data.memberOutcome === 'created')).toHaveLength(1);
    expect(await eventsOf(t.workspaceId, 'member.created')).toHaveLength(2);
  });

  it('matches phone-only leads by a phone captured before', async () => {
    const t = await tenant('cap-phone');
    const first = await capture(t.key, { phone: '+44 (20) 7946-0958', consents: { marketingSms: true } });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ memberOutcome: 'created', email: null, phone: '+44 (20) 7946-0958' });
    const second = await capture(t.key, { phone: '+442079460958', source: 'sms_keyword' });
    expect(second.body.data).toMatchObject({ memberId: first.body.data.memberId, memberOutcome: 'matched', matchedBy: 'phone' });
    // With an e-mail, the e-mail decides: a new e-mail is a new member even with a known phone.
    const withEmail = await capture(t.key, { phone: '+442079460958', email: uniqueEmail('phone'), source: 'third' });
    expect(withEmail.body.data.memberOutcome).toBe('created');
    // A member whose phone changed no longer matches by the old one.
    await call('PATCH', `/api/v2/members/${first.body.data.memberId}`, { token: t.key, body: { phone: '+1 555 0100' } });
    const stale = await capture(t.key, { phone: '+442079460958', source: 'fourth' });
    expect(stale.body.data.memberOutcome).toBe('created');
    expect(stale.body.data.memberId).not.toBe(first.body.data.memberId);
    expect((await capture(t.key, { phone: '+442079460958', source: 'fifth' })).body.data.memberId).toBe(stale.body.data.memberId);
  });

  it('links a new member to the ambassador of a referral code; unknown codes do not fail the capture', async () => {
    const t = await tenant('cap-ref');
    const amb = await newMember(t.key);
    const code: string = (await call('POST', `/api/v2/ambassador/members/${amb.id}/issue-code`, { token: t.key })).body.data.code;
    const linked = await capture(t.key, { email: uniqueEmail('ref'), referralCode: ` ${code.toLowerCase()} ` });
    expect(linked.body.data.referral).toEqual({ code, outcome: 'linked', referrerId: amb.id });
    const unknown = await capture(t.key, { email: uniqueEmail('ref'), referralCode: 'ZZZZ9999' });
    expect(unknown.status).toBe(201);
    expect(unknown.body.data).toMatchObject({ memberOutcome: 'created', referral: { code: 'ZZZZ9999', outcome: 'unknown_code', referrerId: null } });
    const metrics = await call('GET', '/api/v2/ambassador/metrics', { token: t.key });
    expect(metrics.body.data.referredSignups).toBe(1);
  });

  it('validates the body and writes nothing on a 422', async () => {
    const t = await tenant('cap-val');
    const bad: Record<string, unknown>[] = [
      { source: 'x', consents: {} },
      { email: 'nope', source: 'x', consents: {} },
      { email: uniqueEmail('v'), source: 'Bad Source', consents: {} },
      { email: uniqueEmail('v'), source: 'x' },
      { email: uniqueEmail('v'), source: 'x', consents: { marketingEmail: 'yes' } },
      { email: uniqueEmail('v'), source: 'x', consents: {}, referralCode: 'no!' },
      { email: uniqueEmail('v'), source: 'x', consents: {}, attributes: { 'bad key': 1 } },
      { phone: 'call me', source: 'x', consents: {} },
      { email: uniqueEmail('v'), source: 'x', consents: {}, extra: true },
    ];
    for (const body of bad) {
      const res = await call('POST', '/api/v2/captures', { token: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect(await memberIds(t.key)).toEqual([]);
    expect(await itemsOf(t.workspaceId, 'capture')).toEqual([]);
    expect(await itemsOf(t.workspaceId, 'outbox')).toEqual([]);
  });

  it("never matches another workspace's member or referral code", async () => {
    const [a, b] = await Promise.all([tenant('cap-a'), tenant('cap-b')]);
    const m = await newMember(a.key);
    const code: string = (await call('POST', `/api/v2/ambassador/members/${m.id}/issue-code`, { token: a.key })).body.data.code;
    const res = await capture(b.key, { email: m.email, referralCode: code });
    expect(res.status).toBe(201);
    expect(res.body.data.memberOutcome).toBe('created');
    expect(res.body.data.memberId).not.toBe(m.id);
    expect(res.body.data.referral).toEqual({ code, outcome: 'unknown_code', referrerId: null });
    expect((await call('GET', `/api/v2/members/${res.body.data.memberId}`, { token: a.key })).status).toBe(404);
    expect(await memberIds(a.key)).toEqual([m.id]);
    expect((await call('GET', '/api/v2/ambassador/metrics', { token: a.key })).body.data.referredSignups).toBe(0);
  });

  it('replays an Idempotency-Key answer and needs members:write', async () => {
    const t = await tenant('cap-scope');
    const headers = { 'idempotency-key': `cap-${Date.now()}` };
    const email = uniqueEmail('idem');
    const a = await capture(t.key, { email }, headers);
    const b = await capture(t.key, { email }, headers);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);

    const noWrite = await createKey(t.token, { name: 'no write', scopes: SCOPES.filter((s) => s !== 'members:write') });
    const res = await capture(noWrite.key, { email: uniqueEmail('x') });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('members:write');
    expect(await memberIds(t.key)).toHaveLength(1);
  });
});
