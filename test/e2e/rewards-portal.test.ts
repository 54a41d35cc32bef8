import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, tenant, type Tenant } from '../support/fixtures';
import { memberWith, newPool, newReward, redeemed } from '../support/rewards';

/**
 * The rewards a member sees and redeems through a member portal session (`fl_cs_...`), as the
 * embed on a merchant's site calls them: the member comes from the session only, CORS by the
 * workspace's allowed origins.
 */

async function sessionOf(t: Tenant, memberId: string): Promise<string> {
  const res = await call('POST', `/api/v2/members/${memberId}/portal-sessions`, { token: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.token;
}

const asMember = (session: string, method: string, path: string, headers: Record<string, string> = {}) => call(method, path, { token: session, headers });
const myRewards = async (session: string): Promise<any[]> => {
  const res = await asMember(session, 'GET', '/api/consumer/rewards?limit=200');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const shop = (label: string) => `https://${label}-${randomUUID().slice(0, 8)}.shop.example`;

describe('the rewards a member may redeem', () => {
  it('lists active rewards in their window, for the tier, with stock and limit left, each saying whether affordable', async () => {
    const t = await tenant('portal-list');
    // 400 lifetime points: bronze (silver starts at 500).
    const m = await memberWith(t, 400);
    const cheap = await newReward(t, { name: 'Cheap', pointsCost: 100, perMemberLimit: 1 });
    const dear = await newReward(t, { name: 'Dear', pointsCost: 401 });
    const bronze = await newReward(t, { name: 'Bronze only', allowedTiers: ['bronze'] });
    for (const hidden of [
      { status: 'draft' },
      { status: 'paused' },
      { allowedTiers: ['gold'] },
      { stock: 0 },
      { availableFrom: '2099-01-01T00:00:00Z' },
      { availableUntil: '2001-01-01T00:00:00Z' },
    ]) {
      await newReward(t, { name: JSON.stringify(hidden), ...hidden });
    }
    const session = await sessionOf(t, m.id);
    const listed = await myRewards(session);
    expect(listed.map((r) => [r.name, r.affordable])).toEqual([
      ['Bronze only', true],
      ['Dear', false],
      ['Cheap', true],
    ]);
    expect(listed[2]).toEqual({
      id: cheap.id,
      name: 'Cheap',
      description: null,
      imageUrl: null,
      pointsCost: 100,
      benefit: cheap.benefit,
      minimumSpend: null,
      validityDays: null,
      availableUntil: null,
      affordable: true,
    });
    // At its per-member limit the reward is no longer offered; the balance moves what is affordable.
    await redeemed(t, cheap.id, m.id);
    expect((await myRewards(session)).map((r) => [r.id, r.affordable])).toEqual([
      [bronze.id, true],
      [dear.id, false],
    ]);
  });

  it('pages: a page may hold fewer than the limit, and the cursor leads on', async () => {
    const t = await tenant('portal-pages');
    const m = await memberWith(t, 0);
    const a = await newReward(t, { name: 'A' });
    await newReward(t, { name: 'hidden', status: 'paused' });
    await newReward(t, { name: 'hidden 2', allowedTiers: ['gold'] });
    const session = await sessionOf(t, m.id);
    const first = await asMember(session, 'GET', '/api/consumer/rewards?limit=1');
    expect(first.body.data).toEqual([]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await asMember(session, 'GET', `/api/consumer/rewards?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.data.map((r: any) => r.id)).toEqual([a.id]);
  });
});

describe('redeeming as the member', () => {
  it('redeems for the session’s member under the same rules, once per Idempotency-Key, and lists their own redemptions and codes', async () => {
    const t = await tenant('portal-redeem');
    const pool = await newPool(t);
    const reward = await newReward(t, { couponPoolId: pool.id, pointsCost: 150 });
    const m = await memberWith(t, 400);
    const session = await sessionOf(t, m.id);
    const headers = { 'Idempotency-Key': 'portal-redeem-1' };
    const first = await asMember(session, 'POST', `/api/consumer/rewards/${reward.id}/redemptions`, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({
      memberId: m.id,
      rewardId: reward.id,
      pointsSpent: 150,
      status: 'issued',
      couponCode: expect.stringMatching(/^RW-/),
    });
    const again = await asMember(session, 'POST', `/api/consumer/rewards/${reward.id}/redemptions`, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 250 });
    // The ledger entry names no API key: the member acted.
    const ledger = await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key });
    expect(ledger.body.data.entries[0]).toMatchObject({ type: 'redemption', source: { type: 'reward', apiKeyId: null, redemptionId: first.body.data.id } });

    const second = await asMember(session, 'POST', `/api/consumer/rewards/${reward.id}/redemptions`);
    expect(second.status).toBe(201);
    const short = await asMember(session, 'POST', `/api/consumer/rewards/${reward.id}/redemptions`);
    expect(short.status).toBe(409);
    expect(short.body.error.code).toBe('INSUFFICIENT_POINTS');
    const paused = await newReward(t, { status: 'paused' });
    expect((await asMember(session, 'POST', `/api/consumer/rewards/${paused.id}/redemptions`)).body.error.code).toBe('REWARD_NOT_AVAILABLE');

    const mine = await asMember(session, 'GET', '/api/consumer/redemptions');
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((r: any) => r.id)).toEqual([second.body.data.id, first.body.data.id]);
    expect(mine.body.data[1].couponCode).toBe(first.body.data.couponCode);
    expect((await asMember(session, 'GET', '/api/consumer/redemptions?status=voided')).body.data).toEqual([]);
  });

  it('a session reaches its own member only: nothing of member B through A’s session, and an API key is not a session', async () => {
    const t = await tenant('portal-isolation');
    const reward = await newReward(t, { pointsCost: 100 });
    const a = await memberWith(t, 300);
    const b = await memberWith(t, 300);
    const bRedemption = await redeemed(t, reward.id, b.id);
    const sessionA = await sessionOf(t, a.id);
    const sessionB = await sessionOf(t, b.id);

    // The member comes from the session: A's list holds none of B's, and A redeems only for A.
    expect((await asMember(sessionA, 'GET', '/api/consumer/redemptions')).body.data).toEqual([]);
    const headers = { 'Idempotency-Key': 'same-key-for-both' };
    const mine = await asMember(sessionA, 'POST', `/api/consumer/rewards/${reward.id}/redemptions`, headers);
    expect(mine.body.data.memberId).toBe(a.id);
    // B using the same key is a request of B's own, never A's answer replayed.
    const bs = await asMember(sessionB, 'POST', `/api/consumer/rewards/${reward.id}/redemptions`, headers);
    expect(bs.status).toBe(201);
    expect(bs.headers.get('idempotent-replayed')).toBeNull();
    expect(bs.body.data.memberId).toBe(b.id);
    expect(await balanceOf(t.key, a.id)).toMatchObject({ balance: 200 });
    expect(await balanceOf(t.key, b.id)).toMatchObject({ balance: 100 });
    expect((await asMember(sessionA, 'GET', '/api/consumer/redemptions')).body.data.map((r: any) => r.id)).toEqual([mine.body.data.id]);
    expect((await asMember(sessionB, 'GET', '/api/consumer/redemptions')).body.data.map((r: any) => r.id)).toEqual([bs.body.data.id, bRedemption.id]);

    // No consumer route takes a member id, and the API routes refuse a session.
    for (const [method, path] of [
      ['GET', `/api/v2/members/${b.id}/redemptions`],
      ['POST', `/api/v2/redemptions/${bRedemption.id}/void`],
      ['GET', '/api/v2/rewards'],
    ] as const) {
      expect((await asMember(sessionA, method, path)).status, path).toBe(403);
    }
    // Another workspace's reward is unknown to the session.
    const other = await tenant('portal-isolation-other');
    const foreign = await newReward(other);
    expect((await asMember(sessionA, 'POST', `/api/consumer/rewards/${foreign.id}/redemptions`)).status).toBe(404);
    // An API key is no member session.
    expect((await call('GET', '/api/consumer/rewards', { token: t.key })).status).toBe(403);
    expect((await call('GET', '/api/consumer/rewards')).status).toBe(401);
  });
});

describe('CORS for the embed', () => {
  it('a preflight from an allowed origin is answered; a refused origin gets no CORS header, on the preflight or the answer', async () => {
    const t = await tenant('portal-cors');
    const allowed = shop('rewards');
    const refused = shop('elsewhere');
    const saved = await call('PUT', '/api/flash/settings/cors', { token: t.token, body: { allowedOrigins: [allowed] } });
    expect(saved.status).toBe(200);
    const m = await memberWith(t, 100);
    const session = await sessionOf(t, m.id);
    // Raw fetch: a preflight is no operation of the OpenAPI document.
    const preflight = (origin: string, path: string, method: string) =>
      fetch(inject('baseUrl') + path, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, idempotency-key' },
      });
    for (const [path, method] of [
      ['/api/consumer/rewards', 'GET'],
      ['/api/consumer/rewards/rwd_01jpz8h7k9m1p3r5t7v9x1z3bc/redemptions', 'POST'],
      ['/api/consumer/redemptions', 'GET'],
    ] as const) {
      const ok = await preflight(allowed, path, method);
      expect(ok.status, path).toBe(204);
      expect(ok.headers.get('access-control-allow-origin'), path).toBe(allowed);
      expect(ok.headers.get('access-control-allow-methods'), path).toBe(method);
      expect(ok.headers.get('access-control-allow-headers'), path).toBe('authorization, content-type, idempotency-key');
      const no = await preflight(refused, path, method);
      expect(no.status, path).toBe(204);
      expect(no.headers.get('access-control-allow-origin'), path).toBeNull();
    }
    const answer = await asMember(session, 'GET', '/api/consumer/rewards', { origin: allowed });
    expect(answer.headers.get('access-control-allow-origin')).toBe(allowed);
    // The embed reads where the workspace's request budget stands.
    expect(answer.headers.get('ratelimit-limit')).toMatch(/^[1-9]\d*$/);
    const foreign = await asMember(session, 'GET', '/api/consumer/rewards', { origin: refused });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});
