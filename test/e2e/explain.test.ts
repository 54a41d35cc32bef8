import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';

/**
 * `GET /api/v2/members/{id}/explain` over HTTP on a sandbox clock: a member's points, lots and tier
 * explained at each past moment equal what the member read answered at that moment (a year of
 * program run through clock advances: pending points waiting and activating, spends, expiry, a
 * refund, a tier reached in a rolling window and lost when the window moved on).
 */

async function sandbox(label: string): Promise<Tenant> {
  const t = await tenant(label, { sandbox: true });
  const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
  const tiers = {
    ...current.tiers,
    window: 'rolling_365_days',
    levels: [
      { key: 'bronze', name: 'Bronze', threshold: 0 },
      { key: 'silver', name: 'Silver', threshold: 100 },
    ],
  };
  const points = { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [], pendingDays: 14 };
  const res = await call('PUT', '/api/flash/program', { token: t.token, body: { earn: current.earn, tiers, points, timeZone: 'UTC' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return t;
}

async function advance(t: Tenant, days: number) {
  const res = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function clockOf(t: Tenant): Promise<string> {
  const res = await call('GET', '/api/flash/clock', { token: t.token });
  expect(res.status).toBe(200);
  return res.body.data.now;
}

interface Snapshot {
  at: string;
  points: { balance: number; pending: number; lifetime: number };
  tier: string;
  expiring: { points: number; expiresAt: string }[];
}

/** What the member read answers now, at the clock's now. */
async function snapshot(t: Tenant, memberId: string): Promise<Snapshot> {
  const [member, points] = await Promise.all([
    call('GET', `/api/v2/members/${memberId}`, { token: t.key }),
    call('GET', `/api/v2/members/${memberId}/points`, { token: t.key }),
  ]);
  expect(member.status).toBe(200);
  return { at: await clockOf(t), points: member.body.data.points, tier: member.body.data.tier, expiring: points.body.data.expiring };
}

const explain = async (t: Tenant, memberId: string, at?: string, token = t.key, prefix = '/api/v2') => {
  const res = await call('GET', `${prefix}/members/${memberId}/explain${at ? `?at=${encodeURIComponent(at)}` : ''}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

/** Lots per expiry date, as `GET .../points` answers `expiring`. */
const byDate = (lots: { points: number; expiresAt: string | null }[]) => {
  const m = new Map<string, number>();
  for (const l of lots) if (l.expiresAt) m.set(l.expiresAt, (m.get(l.expiresAt) ?? 0) + l.points);
  return [...m].sort(([a], [b]) => a.localeCompare(b)).map(([expiresAt, points]) => ({ points, expiresAt }));
};

describe('a balance explained at any moment', () => {
  it('equals what the member read answered at that moment: pending, activation, spends, expiry, refund and tier', async () => {
    const t = await sandbox('explain');
    const m = await newMember(t.key);
    const seen: Snapshot[] = [await snapshot(t, m.id)];
    const earn = await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 50, reason: 'welcome' } });
    expect(earn.status).toBe(201);
    seen.push(await snapshot(t, m.id));
    const ext = orderId('EXPL');
    const created = await call('POST', '/api/v2/orders', {
      token: t.key,
      body: { externalOrderId: ext, memberId: m.id, currency: 'EUR', total: 120, occurredAt: new Date().toISOString() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    seen.push(await snapshot(t, m.id)); // 50 spendable, 120 waiting
    await advance(t, 5);
    seen.push(await snapshot(t, m.id));
    await advance(t, 10); // the order's points activate: 170, silver
    seen.push(await snapshot(t, m.id));
    expect((await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'deduct', amount: 30, reason: 'spend' } })).status).toBe(201);
    seen.push(await snapshot(t, m.id));
    await advance(t, 20); // the welcome lot's 20 left expire at day 30
    seen.push(await snapshot(t, m.id));
    const refund = await call('POST', `/api/v2/orders/${ext}/refund`, { token: t.key, body: { amount: 60 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    seen.push(await snapshot(t, m.id));
    await advance(t, 40); // the order's lot expires at day 44
    seen.push(await snapshot(t, m.id));
    await advance(t, 400); // the rolling window moved past every earn: back to bronze
    seen.push(await snapshot(t, m.id));

    expect(seen.map((s) => s.points.balance)).toEqual([0, 50, 50, 50, 170, 140, 120, 60, 0, 0]);
    expect(seen.map((s) => s.points.pending)).toEqual([0, 0, 120, 120, 0, 0, 0, 0, 0, 0]);
    expect(seen.map((s) => s.tier)).toEqual(['bronze', 'bronze', 'bronze', 'bronze', 'silver', 'silver', 'silver', 'silver', 'silver', 'bronze']);
    for (const s of seen) {
      const x = await explain(t, m.id, s.at);
      expect({ at: s.at, points: x.points, tier: x.tier.key, expiring: byDate(x.lots) }).toEqual({
        at: s.at,
        points: s.points,
        tier: s.tier,
        expiring: s.expiring,
      });
      expect(x.lots.reduce((n: number, l: { points: number }) => n + l.points, 0)).toBe(s.points.balance);
    }

    // Waiting points are shown with the moment they became spendable; lots with their expiry.
    const waiting = await explain(t, m.id, seen[3]!.at);
    expect(waiting.waiting).toEqual([{ orderId: created.body.data.id, points: 120, activatesAt: expect.any(String) }]);
    expect(Date.parse(waiting.waiting[0].activatesAt) - Date.parse(seen[2]!.at)).toBeLessThanOrEqual(14 * 86_400_000);
    expect(waiting.lots).toEqual([
      { entryId: expect.stringMatching(/^ple_/), points: 50, earnedAt: expect.any(String), expiresAt: expect.any(String), orderId: null },
    ]);
    const active = await explain(t, m.id, seen[5]!.at);
    expect(active.lots.map((l: { points: number; orderId: string | null }) => [l.points, l.orderId])).toEqual([
      [20, null],
      [120, created.body.data.id],
    ]);
    expect(active.tier).toMatchObject({ key: 'silver', metric: 'lifetime_points', window: 'rolling_365_days', value: 170 });
    expect(Date.parse(active.tier.windowFrom)).toBe(Date.parse(seen[5]!.at) - 365 * 86_400_000);
    expect(active.ledger).toMatchObject({ replayed: 3, truncated: false });

    // Now, by default; and the console's twin answers the same.
    const now = await explain(t, m.id);
    expect(now.points).toEqual(seen.at(-1)!.points);
    expect((await explain(t, m.id, seen[4]!.at, t.token, '/api/flash')).points).toEqual(seen[4]!.points);
  });

  it('refuses a moment after now (422 naming at), an unknown member (404) and a key without members:read', async () => {
    const t = await tenant('explain-refusals');
    const m = await newMember(t.key);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const future = await call('GET', `/api/v2/members/${m.id}/explain?at=${encodeURIComponent(later)}`, { token: t.key });
    expect(future.status).toBe(422);
    expect(future.body.error.details).toEqual([expect.objectContaining({ in: 'query', field: 'at' })]);
    const bad = await call('GET', `/api/v2/members/${m.id}/explain?at=yesterday`, { token: t.key });
    expect(bad.status).toBe(422);
    expect((await call('GET', '/api/v2/members/mbr_00000000000000000000000000/explain', { token: t.key })).status).toBe(404);
    const narrow = await call('POST', '/api/v2/api-keys', { token: t.token, body: { name: 'orders only', scopes: ['orders:read'] } });
    expect(narrow.status, JSON.stringify(narrow.body)).toBe(201);
    expect((await call('GET', `/api/v2/members/${m.id}/explain`, { token: narrow.body.data.key })).status).toBe(403);
  });
});
