import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, newOrder, tenant } from '../support/fixtures';
import { addUser } from '../support/table';

const rules = (pointsPerUnit: number, extra: Record<string, unknown> = {}) => ({
  earn: { pointsPerUnit, rounding: 'floor', currencyOverrides: {} },
  tiers: {
    metric: 'lifetime_points',
    levels: [
      { key: 'member', name: 'Member', threshold: 0 },
      { key: 'vip', name: 'VIP', threshold: 1000 },
    ],
  },
  ...extra,
});

describe('program rules (/api/flash/program)', () => {
  it('starts with documented defaults at version 0', async () => {
    const t = await tenant('program');
    const res = await call('GET', '/api/flash/program', { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ version: 0, updatedAt: null, earn: { pointsPerUnit: 1, rounding: 'floor' }, tiers: { metric: 'lifetime_points' } });
    expect(res.body.data.tiers.levels.map((l: { key: string }) => l.key)).toEqual(['bronze', 'silver', 'gold', 'platinum']);
  });

  it('a rule change applies to new orders and never rewrites recorded ones', async () => {
    const t = await tenant('program-history');
    const m = await newMember(t.key);
    const old = await newOrder(t.key, m.id, { total: 100 });
    const put = await call('PUT', '/api/flash/program', { token: t.token, body: rules(2.5, { version: 0 }) });
    expect(put.status).toBe(200);
    expect(put.body.data.version).toBe(1);
    const fresh = await newOrder(t.key, m.id, { total: 100 });
    expect(fresh.points.earned).toBe(250);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 350 });
    // Refunding the old order takes back at its own rate (1/unit), not the new one.
    const refund = await call('POST', `/api/v2/orders/${old.externalOrderId}/refund`, { token: t.key, body: { amount: 50 } });
    expect(refund.body.data.refund.pointsReversed).toBe(50);
    const listed = await call('GET', `/api/v2/orders?memberId=${m.id}`, { token: t.key });
    expect(listed.body.data.find((o: { id: string }) => o.id === old.id).points.earned).toBe(100);
    // The new ladder applies at the member's next points change.
    await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 1, reason: 'x' } });
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.tier).toBe('member');
  });

  it('per-currency overrides and rounding', async () => {
    const t = await tenant('program-rounding');
    const body = rules(1);
    body.earn = { pointsPerUnit: 1, rounding: 'ceil', currencyOverrides: { JPY: 0.01 } } as never;
    expect((await call('PUT', '/api/flash/program', { token: t.token, body })).status).toBe(200);
    const m = await newMember(t.key);
    expect((await newOrder(t.key, m.id, { total: 10.01 })).points.earned).toBe(11);
    expect((await newOrder(t.key, m.id, { total: 1234, currency: 'JPY' })).points.earned).toBe(13);
  });

  it('validates the ladder and refuses a stale version', async () => {
    const t = await tenant('program-val');
    const bad = await call('PUT', '/api/flash/program', {
      token: t.token,
      body: {
        earn: { pointsPerUnit: 1.00001, rounding: 'up' },
        tiers: {
          metric: 'lifetime_points',
          levels: [
            { key: 'a', name: 'A', threshold: 5 },
            { key: 'a', name: 'B', threshold: 1 },
          ],
        },
      },
    });
    expect(bad.status).toBe(422);
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['earn.pointsPerUnit', 'earn.rounding', 'tiers.levels.0.threshold', 'tiers.levels.1.key']));
    expect((await call('PUT', '/api/flash/program', { token: t.token, body: rules(1, { version: 0 }) })).status).toBe(200);
    const stale = await call('PUT', '/api/flash/program', { token: t.token, body: rules(3, { version: 0 }) });
    expect(stale.status).toBe(409);
  });

  it('tier windows, retention and downgrade: defaults to lifetime without retention, one detail per field, nothing changed on a refusal', async () => {
    const t = await tenant('program-tier-policy');
    const start = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    expect(start.tiers).toMatchObject({ window: 'lifetime', retainDays: 0, downgrade: 'to_qualified' });
    const body = rules(1);
    const bad = await call('PUT', '/api/flash/program', {
      token: t.token,
      body: { ...body, tiers: { ...body.tiers, window: 'monthly', retainDays: 3651, downgrade: 'two_levels' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['tiers.downgrade', 'tiers.retainDays', 'tiers.window']);
    const fraction = await call('PUT', '/api/flash/program', { token: t.token, body: { ...body, tiers: { ...body.tiers, retainDays: 1.5 } } });
    expect(fraction.body.error.details.map((d: { field: string }) => d.field)).toEqual(['tiers.retainDays']);
    expect((await call('GET', '/api/flash/program', { token: t.token })).body.data.version).toBe(0);
    const good = { ...body, tiers: { ...body.tiers, window: 'calendar_year', retainDays: 365, downgrade: 'one_level' } };
    const put = await call('PUT', '/api/flash/program', { token: t.token, body: good });
    expect(put.status).toBe(200);
    expect(put.body.data.tiers).toMatchObject({ window: 'calendar_year', retainDays: 365, downgrade: 'one_level' });
    expect((await call('GET', '/api/flash/program', { token: t.token })).body.data.tiers).toMatchObject({ window: 'calendar_year', retainDays: 365 });
  });

  it('a reached tier is kept through its retention: a refund below it leaves the tier, GET tier says until when', async () => {
    const t = await tenant('program-retention');
    const body = rules(1);
    const put = await call('PUT', '/api/flash/program', { token: t.token, body: { ...body, tiers: { ...body.tiers, retainDays: 90 } } });
    expect(put.status).toBe(200);
    const m = await newMember(t.key);
    const before = Date.now();
    const o = await newOrder(t.key, m.id, { total: 1200 });
    const after = Date.now();
    const refunded = await call('POST', `/api/v2/orders/${o.externalOrderId}/refund`, { token: t.key, body: { amount: 600 } });
    expect(refunded.status).toBe(200);
    const tier = (await call('GET', `/api/v2/members/${m.id}/tier`, { token: t.key })).body.data;
    expect(tier).toMatchObject({ current: { key: 'vip' }, window: 'lifetime', value: 600, next: null, remaining: null });
    // 90 days after the order reached the tier.
    const until = Date.parse(tier.retainedUntil);
    expect(until).toBeGreaterThanOrEqual(before + 90 * 86_400_000);
    expect(until).toBeLessThanOrEqual(after + 90 * 86_400_000);
  });

  it('is for owners and admins only: a member session and an API key are refused', async () => {
    const t = await tenant('program-auth');
    const member = await addUser(t.workspaceId, 'member');
    const login = await call('POST', '/api/v2/auth/login', { body: member });
    expect((await call('GET', '/api/flash/program', { token: login.body.data.session.token })).status).toBe(403);
    expect((await call('GET', '/api/flash/program', { token: t.key })).status).toBe(403);
    expect((await call('GET', '/api/flash/program')).status).toBe(401);
  });
});
