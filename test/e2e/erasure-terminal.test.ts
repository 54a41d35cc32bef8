import { describe, expect, inject, it } from 'vitest';
import { call, uniqueEmail } from '../support/api';
import { newMember, newOrder, orderId, tenant, type Tenant } from '../support/fixtures';
import { mcpClient, toolError } from '../support/mcp';
import { clientOf, portalSession } from '../support/wallet';

/**
 * Erasure is terminal, over HTTP against the running platform: every write to an erased member is
 * refused with 410 MEMBER_ERASED and changes nothing, whatever the route (profile, points, orders,
 * refunds, tags, coupons, wallet, portal sessions, MCP tools), and enrolling the same person again
 * (same e-mail and externalId) makes a new member.
 */

const expectErased = (res: { status: number; body: any }, what: string) => {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(410);
  expect(res.body.error.code, what).toBe('MEMBER_ERASED');
};

const erase = async (t: Tenant, memberId: string) => expect((await call('POST', `/api/v2/members/${memberId}/erasure`, { token: t.key })).status).toBe(200);

async function newPool(t: Tenant, over: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v2/coupons/pools', {
    token: t.key,
    body: { name: 'Erasure', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated', prefix: 'ERS-' }, stock: 50, ...over },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** A member with points, an order, a tag and two coupons, then erased. */
async function erasedMember(t: Tenant) {
  const email = uniqueEmail('terminal');
  const externalId = `ext-${email.slice(9, 17)}`;
  const m = await newMember(t.key, { email, externalId, firstName: 'Erin' });
  expect((await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 40, reason: 'welcome' } })).status).toBe(201);
  const order = await newOrder(t.key, m.id, { total: 20 });
  expect((await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['vip'] } })).status).toBe(200);
  const pool = await newPool(t);
  const coupons = [];
  for (let i = 0; i < 2; i++) {
    const issued = await call('POST', '/api/v2/coupons/issue', { token: t.key, body: { poolId: pool.id, memberId: m.id } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    coupons.push(issued.body.data);
  }
  await erase(t, m.id);
  const after = (await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data;
  return { m, email, externalId, order, pool, coupons, after };
}

describe('erasure is terminal', () => {
  it('refuses every REST write to an erased member with 410 MEMBER_ERASED and changes nothing', async () => {
    const t = await tenant('erasure-terminal');
    const { m, order, pool, coupons, after } = await erasedMember(t);
    const path = `/api/v2/members/${m.id}`;

    expectErased(await call('PATCH', path, { token: t.key, body: { email: uniqueEmail('revived'), firstName: 'Revived' } }), 'profile');
    expectErased(await call('PATCH', path, { token: t.key, body: { status: 'active' } }), 're-activation');
    expectErased(await call('POST', `${path}/points`, { token: t.key, body: { type: 'earn', amount: 10, reason: 'again' } }), 'earn');
    expectErased(await call('POST', `${path}/points`, { token: t.key, body: { type: 'deduct', amount: 1, reason: 'again' } }), 'deduct');
    expectErased(
      await call('POST', '/api/v2/orders', {
        token: t.key,
        body: { externalOrderId: orderId('ERASED'), memberId: m.id, total: 10, currency: 'EUR', occurredAt: new Date().toISOString() },
      }),
      'order',
    );
    expectErased(await call('POST', `/api/v2/orders/${encodeURIComponent(order.externalOrderId)}/refund`, { token: t.key, body: {} }), 'refund');
    expectErased(await call('POST', `${path}/tags`, { token: t.key, body: { tags: ['again'] } }), 'tag add');
    expectErased(await call('DELETE', `${path}/tags/vip`, { token: t.key }), 'tag remove');
    // Issued without a read of the member: the issue's own transaction refuses it.
    expectErased(await call('POST', '/api/v2/coupons/issue', { token: t.key, body: { poolId: pool.id, memberId: m.id } }), 'coupon issue');
    const costly = await newPool(t, { pointsCost: 5 });
    expectErased(await call('POST', '/api/v2/coupons/issue', { token: t.key, body: { poolId: costly.id, memberId: m.id } }), 'coupon issue for points');
    expectErased(await call('POST', `${path}/redeem-coupon`, { token: t.key, body: { code: coupons[0].code } }), 'redeem by code');
    // Redeemed by the coupon's id, the member is never read: the redemption's transaction refuses it.
    expectErased(await call('POST', `/api/v2/coupons/${coupons[1].id}/redeem`, { token: t.key, body: {} }), 'redeem by id');
    expectErased(await call('POST', `${path}/portal-sessions`, { token: t.key }), 'portal session');
    expectErased(await call('POST', `/api/v2/ambassador/members/${m.id}/issue-code`, { token: t.key }), 'referral code');

    // Nothing changed: the member, its points, tags and coupons are as the erasure left them.
    const now = (await call('GET', path, { token: t.key })).body.data;
    expect(now).toEqual(after);
    expect(now).toMatchObject({ email: null, firstName: null, status: 'unenrolled' });
    const held = (await call('GET', `/api/v2/coupons?memberId=${m.id}`, { token: t.key })).body.data;
    expect(held.map((c: { status: string }) => c.status)).toEqual(['issued', 'issued']);
    expect((await call('GET', `${path}/tags`, { token: t.key })).body.data.tags.map((x: { key: string }) => x.key)).toEqual(['vip']);
    // Reads still answer: the pseudonymous history stays.
    expect((await call('GET', `${path}/points`, { token: t.key })).status).toBe(200);
  });

  it("ends the member's portal sessions: the wallet and every consumer route answer 410 MEMBER_ERASED", async () => {
    const t = await tenant('erasure-wallet');
    const request = clientOf(inject('baseUrl'));
    const m = await newMember(t.key);
    const session = await portalSession(request, t.key, m.id);
    expect((await request('POST', '/api/consumer/wallet/issue', { token: session, body: { platform: 'apple' } })).status).toBe(200);
    await erase(t, m.id);
    const issued = await call('POST', '/api/consumer/wallet/issue', { token: session, body: { platform: 'apple' } });
    expectErased(issued, 'wallet issue');
    // Routes that take no consumer session document no 410: there the dead session is a plain 401, on
    // every kind of route (found by the fuzzer, which sends credentials of the wrong kind).
    for (const [method, path] of [
      ['GET', `/api/v2/members/${m.id}`],
      ['PATCH', '/api/flash/campaigns/cmp_01m97ghxrf9r4ncpk9tjkp5zza'],
      ['DELETE', '/api/v2/api-keys/key_01m97ghybssd7rfvhzhqmgkzkt'],
      ['GET', '/api/v2/auth/profile'],
    ] as const) {
      const res = await call(method, path, { token: session });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses MCP write tools on an erased member with the MEMBER_ERASED tool error', async () => {
    const t = await tenant('erasure-mcp');
    const m = await newMember(t.key, { email: uniqueEmail('mcp-erased') });
    await erase(t, m.id);
    const { client } = await mcpClient(inject('baseUrl'), t.key);
    const earn = toolError(await client.callTool({ name: 'earn_points', arguments: { memberId: m.id, amount: 5, reason: 'mcp' } }));
    expect(earn.code).toBe('MEMBER_ERASED');
    const update = toolError(await client.callTool({ name: 'update_member', arguments: { memberId: m.id, changes: { firstName: 'Back' } } }));
    expect(update.code).toBe('MEMBER_ERASED');
    const tag = toolError(await client.callTool({ name: 'tag_member', arguments: { memberId: m.id, tags: ['mcp'] } }));
    expect(tag.code).toBe('MEMBER_ERASED');
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data).toMatchObject({ firstName: null, points: { balance: 0 }, tags: [] });
  });

  it('enrolling the same person again (same e-mail and externalId) makes a new member, and the erased one stays erased', async () => {
    const t = await tenant('erasure-reenrol');
    const { m, email, externalId, after } = await erasedMember(t);
    // The lookups of the erased member are released: nothing finds it by its old identifiers.
    expect((await call('GET', `/api/v2/members?email=${encodeURIComponent(email)}`, { token: t.key })).body.data).toEqual([]);
    expect((await call('GET', `/api/v2/members?externalId=${encodeURIComponent(externalId)}`, { token: t.key })).body.data).toEqual([]);

    const again = await call('POST', '/api/v2/members', { token: t.key, body: { email, externalId, firstName: 'Erin' } });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.data.id).not.toBe(m.id);
    expect(again.body.data).toMatchObject({ email, externalId, status: 'active', points: { balance: 0, lifetime: 0 }, tags: [] });
    expect(
      (await call('POST', `/api/v2/members/${again.body.data.id}/points`, { token: t.key, body: { type: 'earn', amount: 7, reason: 'new start' } })).status,
    ).toBe(201);
    // An order naming the person by e-mail lands on the new member.
    const order = await call('POST', '/api/v2/orders', {
      token: t.key,
      body: { externalOrderId: orderId('REENROL'), member: { email }, total: 10, currency: 'EUR', occurredAt: new Date().toISOString() },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.data.memberId).toBe(again.body.data.id);
    expect((await call('GET', `/api/v2/members?email=${encodeURIComponent(email)}`, { token: t.key })).body.data.map((x: { id: string }) => x.id)).toEqual([
      again.body.data.id,
    ]);

    expectErased(await call('PATCH', `/api/v2/members/${m.id}`, { token: t.key, body: { firstName: 'Erin' } }), 'old member');
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data).toEqual(after);
  });
});
