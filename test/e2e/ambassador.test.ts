import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { call, createKey, uniqueEmail } from '../support/api';
import { newMember, newOrder, tenant } from '../support/fixtures';
import { outboxEvents as eventsOf } from '../support/table';

const keyWithout = async (token: string, scope: string) => (await createKey(token, { name: `no ${scope}`, scopes: SCOPES.filter((s) => s !== scope) })).key;
const issue = (key: string, memberId: string) => call('POST', `/api/v2/ambassador/members/${memberId}/issue-code`, { token: key });
const capture = (key: string, body: Record<string, unknown>) =>
  call('POST', '/api/v2/captures', { token: key, body: { source: 'test', consents: {}, ...body } });

describe('ambassador program', () => {
  it('issues one code per member: 201 once, then 200 with the same code; one event', async () => {
    const t = await tenant('amb');
    const m = await newMember(t.key);
    const first = await issue(t.key, m.id);
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({ memberId: m.id, code: expect.stringMatching(/^[A-HJKMNP-Z2-9]{8}$/), issuedAt: expect.any(String), referredSignups: 0 });
    const second = await issue(t.key, m.id);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect((await eventsOf(t.workspaceId, 'ambassador.code_issued')).map((e) => e.data)).toEqual([{ resource_id: m.id, member_ref: m.id }]);
  });

  it('concurrent issues for one member agree on one code; codes are unique across members', async () => {
    const t = await tenant('amb-race');
    const m = await newMember(t.key);
    const answers = await Promise.all(Array.from({ length: 6 }, () => issue(t.key, m.id)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(new Set(answers.map((a) => a.body.data.code)).size).toBe(1);
    expect(await eventsOf(t.workspaceId, 'ambassador.code_issued')).toHaveLength(1);

    const others = await Promise.all(Array.from({ length: 15 }, () => newMember(t.key)));
    const codes = await Promise.all(others.map(async (o) => (await issue(t.key, o.id)).body.data.code as string));
    expect(new Set([...codes, answers[0]!.body.data.code]).size).toBe(16);
    expect((await call('GET', '/api/v2/ambassador/metrics', { token: t.key })).body.data.codesIssued).toBe(16);
  });

  it('refuses a code to an unenrolled member, and unknown or malformed ids are 404', async () => {
    const t = await tenant('amb-unenrolled');
    const m = await newMember(t.key);
    await call('PATCH', `/api/v2/members/${m.id}`, { token: t.key, body: { status: 'unenrolled' } });
    expect((await issue(t.key, m.id)).status).toBe(409);
    expect((await issue(t.key, 'mbr_0123456789abcdefghjkmnpqrs')).status).toBe(404);
    expect((await issue(t.key, 'not-an-id')).status).toBe(404);
    expect((await call('POST', `/api/v2/ambassador/members/${m.id}/issue-code?force=true`, { token: t.key })).status).toBe(422);
    expect(await eventsOf(t.workspaceId, 'ambassador.code_issued')).toEqual([]);
  });

  it('lists candidates by lifetime points or completed orders, with their code once issued', async () => {
    const t = await tenant('amb-cand');
    const pointsy = await newMember(t.key, { firstName: 'Pointsy' });
    await call('POST', `/api/v2/members/${pointsy.id}/points`, { token: t.key, body: { type: 'earn', amount: 600, reason: 'x' } });
    const shopper = await newMember(t.key);
    for (let i = 0; i < 3; i++) await newOrder(t.key, shopper.id, { total: 5 });
    await newMember(t.key); // qualifies for nothing
    const gone = await newMember(t.key);
    await call('POST', `/api/v2/members/${gone.id}/points`, { token: t.key, body: { type: 'earn', amount: 900, reason: 'x' } });
    await call('PATCH', `/api/v2/members/${gone.id}`, { token: t.key, body: { status: 'unenrolled' } });
    const code = (await issue(t.key, pointsy.id)).body.data.code;

    const res = await call('GET', '/api/v2/ambassador/candidates', { token: t.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        memberId: shopper.id,
        orderCount: 3,
        lifetimePoints: 15,
        qualifiesBy: ['order_count'],
        referralCode: null,
        referredSignups: 0,
      }),
      expect.objectContaining({
        memberId: pointsy.id,
        firstName: 'Pointsy',
        lifetimePoints: 600,
        qualifiesBy: ['lifetime_points'],
        referralCode: code,
        tier: 'silver',
      }),
    ]);
    const strict = await call('GET', '/api/v2/ambassador/candidates?minLifetimePoints=1000&minOrderCount=4', { token: t.key });
    expect(strict.body.data).toEqual([]);
    const loose = await call('GET', '/api/v2/ambassador/candidates?minLifetimePoints=10&limit=1', { token: t.key });
    expect(loose.body.data.map((c: { memberId: string }) => c.memberId)).toEqual([shopper.id]);
    expect(loose.body.data[0].qualifiesBy).toEqual(['lifetime_points', 'order_count']);
    const next = await call('GET', `/api/v2/ambassador/candidates?minLifetimePoints=10&limit=1&cursor=${encodeURIComponent(loose.body.nextCursor)}`, {
      token: t.key,
    });
    expect(next.body.data.map((c: { memberId: string }) => c.memberId)).toEqual([pointsy.id]);

    for (const qs of ['?minLifetimePoints=-1', '?limit=500', '?minOrderCount=abc', '?unknown=1']) {
      expect((await call('GET', `/api/v2/ambassador/candidates${qs}`, { token: t.key })).status, qs).toBe(422);
    }
  });

  it('metrics count codes and referred sign-ups, and sum the completed orders of referred members', async () => {
    const t = await tenant('amb-metrics');
    const empty = await call('GET', '/api/v2/ambassador/metrics', { token: t.key });
    expect(empty.body.data).toEqual({ codesIssued: 0, referredSignups: 0, referredRevenue: [], referredRevenueComplete: true });

    const amb = await newMember(t.key);
    const code: string = (await issue(t.key, amb.id)).body.data.code;
    const referred = await capture(t.key, { email: uniqueEmail('friend'), referralCode: code.toLowerCase() });
    expect(referred.status).toBe(201);
    expect(referred.body.data.referral).toEqual({ code, outcome: 'linked', referrerId: amb.id });
    const friend = referred.body.data.memberId;
    const o = await newOrder(t.key, friend, { total: 100 });
    await call('POST', `/api/v2/orders/${o.externalOrderId}/refund`, { token: t.key, body: { amount: 10 } });
    await newOrder(t.key, friend, { total: 20, currency: 'USD' });
    await newOrder(t.key, friend, { total: 50, status: 'pending' });
    await newOrder(t.key, amb.id, { total: 500 }); // not referred
    // Only new members count as referred.
    expect((await capture(t.key, { email: amb.email, referralCode: code })).body.data.referral.outcome).toBe('existing_member');

    const res = await call('GET', '/api/v2/ambassador/metrics', { token: t.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      codesIssued: 1,
      referredSignups: 1,
      referredRevenue: [
        { currency: 'EUR', amount: 90, orders: 1 },
        { currency: 'USD', amount: 20, orders: 1 },
      ],
      referredRevenueComplete: true,
    });
    expect((await issue(t.key, amb.id)).body.data.referredSignups).toBe(1);
    expect((await call('GET', '/api/v2/ambassador/metrics?from=2026-01-01', { token: t.key })).status).toBe(422);
  });

  it("another workspace's member is 404, and lists and metrics stay per workspace", async () => {
    const [a, b] = await Promise.all([tenant('amb-a'), tenant('amb-b')]);
    const m = await newMember(a.key);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: a.key, body: { type: 'earn', amount: 700, reason: 'x' } });
    const foreign = await issue(b.key, m.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await call('GET', '/api/v2/ambassador/metrics', { token: a.key })).body.data.codesIssued).toBe(0);
    expect((await call('GET', '/api/v2/ambassador/candidates', { token: b.key })).body.data).toEqual([]);
    expect((await issue(a.key, m.id)).status).toBe(201);
    expect((await call('GET', '/api/v2/ambassador/metrics', { token: b.key })).body.data.codesIssued).toBe(0);
  });

  it('needs ambassador:read to read and ambassador:write to issue', async () => {
    const t = await tenant('amb-scope');
    const m = await newMember(t.key);
    const [noRead, noWrite] = await Promise.all([keyWithout(t.token, 'ambassador:read'), keyWithout(t.token, 'ambassador:write')]);
    for (const [method, path, key, scope] of [
      ['GET', '/api/v2/ambassador/candidates', noRead, 'ambassador:read'],
      ['GET', '/api/v2/ambassador/metrics', noRead, 'ambassador:read'],
      ['POST', `/api/v2/ambassador/members/${m.id}/issue-code`, noWrite, 'ambassador:write'],
    ] as const) {
      const res = await call(method, path, { token: key });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.message).toContain(scope);
    }
    expect(await eventsOf(t.workspaceId, 'ambassador.code_issued')).toEqual([]);
  });
});
