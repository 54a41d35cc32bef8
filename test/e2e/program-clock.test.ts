import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { eventually, startReceiver } from '../support/receiver';

/**
 * The program engine over HTTP on the local runtime: a sandbox workspace and its clock, points lots
 * that expire (oldest-expiring spent first), expiry warnings, pending points that wait, and the
 * balance explained. A year of program runs in seconds through `POST /api/flash/clock/advance`.
 */
const DAY = 86_400_000;
const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

const sandbox = (label: string) => tenant(label, { sandbox: true });

async function advance(t: Tenant, days: number, headers: Record<string, string> = {}) {
  const res = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days }, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Date.parse(res.body.data.now);
}

async function clockOf(t: Tenant): Promise<number> {
  const res = await call('GET', '/api/flash/clock', { token: t.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Date.parse(res.body.data.now);
}

async function setPoints(t: Tenant, points: Record<string, unknown>, timeZone = 'UTC') {
  const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
  const res = await call('PUT', '/api/flash/program', { token: t.token, body: { earn: current.earn, tiers: current.tiers, points, timeZone } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const change = (t: Tenant, memberId: string, type: 'earn' | 'deduct', amount: number) =>
  call('POST', `/api/v2/members/${memberId}/points`, { token: t.key, body: { type, amount, reason: `${type} ${amount}` } });

async function pointsOf(t: Tenant, memberId: string) {
  const res = await call('GET', `/api/v2/members/${memberId}/points?limit=100`, { token: t.key });
  expect(res.status).toBe(200);
  return res.body.data as { balance: number; pending: number; lifetime: number; expiring: { points: number; expiresAt: string }[]; entries: any[] };
}

/** The ledger and the balance agree: the entries sum to it. */
async function ledgerAgrees(t: Tenant, memberId: string) {
  const p = await pointsOf(t, memberId);
  expect(p.entries.reduce((s, e) => s + e.amount, 0)).toBe(p.balance);
  return p;
}

async function order(t: Tenant, memberId: string, total: number) {
  const externalOrderId = orderId('PRG');
  const res = await call('POST', '/api/v2/orders', {
    token: t.key,
    body: { externalOrderId, memberId, currency: 'EUR', total, occurredAt: new Date().toISOString() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return externalOrderId;
}

async function receiverFor(t: Tenant, eventTypes: string[]) {
  const r = await startReceiver();
  receivers.push(r);
  const res = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: r.url, description: 'program events', eventTypes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { types: () => r.received.map((x) => JSON.parse(x.body)), waitFor: r.waitFor };
}

describe('sandbox workspaces and their clock', () => {
  it('a sandbox has fl_test_ keys and a clock an admin moves ahead; the move is audited and idempotent', async () => {
    const t = await sandbox('clock');
    expect(t.key).toMatch(/^fl_test_[A-Za-z0-9_-]{43}$/);
    expect((await call('GET', '/api/v2/members', { token: t.key })).status).toBe(200);
    const me = await call('GET', '/api/v2/auth/profile', { token: t.token });
    expect(me.body.data.workspace.sandbox).toBe(true);

    const before = await clockOf(t);
    expect(Math.abs(before - Date.now())).toBeLessThan(60_000);
    const headers = { 'idempotency-key': 'advance-30' };
    const moved = await advance(t, 30, headers);
    expect(moved - before).toBeGreaterThanOrEqual(30 * DAY);
    expect(moved - before).toBeLessThan(30 * DAY + 60_000);
    // The same key answers the same time; the clock moved once.
    expect(await advance(t, 30, headers)).toBe(moved);
    const now = await clockOf(t);
    expect(now - moved).toBeGreaterThanOrEqual(0);
    expect(now - moved).toBeLessThan(60_000);

    const audit = await call('GET', '/api/flash/audit?action=program.clock_advanced', { token: t.token });
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({ action: 'program.clock_advanced', target: { type: 'workspace', id: t.workspaceId } });
  });

  it('days are whole, 1 to 3650: the clock never moves back; a live workspace refuses both routes', async () => {
    const t = await sandbox('clock-invalid');
    for (const days of [0, -1, 1.5, 3651]) {
      const res = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([expect.objectContaining({ in: 'body', field: 'days' })]);
    }
    expect((await call('GET', '/api/flash/audit?action=program.clock_advanced', { token: t.token })).body.data).toHaveLength(0);

    const live = await tenant('clock-live');
    expect(live.key).toMatch(/^fl_live_/);
    expect((await call('GET', '/api/flash/clock', { token: live.token })).status).toBe(409);
    expect((await call('POST', '/api/flash/clock/advance', { token: live.token, body: { days: 1 } })).status).toBe(409);
    // API keys are not admin sessions.
    expect((await call('POST', '/api/flash/clock/advance', { token: t.key, body: { days: 1 } })).status).toBe(403);
  });
});

describe('campaign simulation on the sandbox clock', () => {
  it('an order without occurredAt is simulated at the clock now, not at real time', async () => {
    const t = await sandbox('clock-simulate');
    const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
    const created = await call('POST', '/api/flash/campaigns', {
      token: t.token,
      body: {
        name: 'Next month',
        status: 'active',
        startsAt: at(30),
        endsAt: at(60),
        trigger: { type: 'order' },
        effect: { type: 'bonus_points', points: 10 },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const simulate = async (order: Record<string, unknown>) => {
      const res = await call('POST', '/api/flash/campaigns/simulate', { token: t.token, body: { order: { total: 20, currency: 'EUR', ...order } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.grants.map((g: { campaignId: string; points: number }) => [g.campaignId, g.points]);
    };
    // Before the campaign starts, on either clock.
    expect(await simulate({})).toEqual([]);
    await advance(t, 40);
    expect(await simulate({})).toEqual([[created.body.data.id, 10]]);
    // A given time still decides: real time now is before the campaign.
    expect(await simulate({ occurredAt: new Date().toISOString() })).toEqual([]);
  });
});

describe('points lots and expiry', () => {
  it('rules validate one detail per field; earned lots keep their expiry when the rules change', async () => {
    const t = await sandbox('rules');
    const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    expect(current.points).toEqual({ expiry: { policy: 'none' }, warnDays: [], pendingDays: 0 });
    const bad = await call('PUT', '/api/flash/program', {
      token: t.token,
      body: {
        earn: current.earn,
        tiers: current.tiers,
        points: { expiry: { policy: 'fixed_days', days: 0 }, warnDays: [7, 7], pendingDays: 3651 },
        timeZone: 'Mars/Olympus',
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'points.expiry.days',
      'points.pendingDays',
      'points.warnDays',
      'timeZone',
    ]);
    expect((await call('GET', '/api/flash/program', { token: t.token })).body.data.version).toBe(0);

    await setPoints(t, { expiry: { policy: 'fixed_days', days: 30 } });
    const m = await newMember(t.key);
    const start = await clockOf(t);
    expect((await change(t, m.id, 'earn', 100)).status).toBe(201);
    await setPoints(t, { expiry: { policy: 'fixed_days', days: 365 } });
    const [lot] = (await pointsOf(t, m.id)).expiring;
    expect(lot!.points).toBe(100);
    expect(Date.parse(lot!.expiresAt) - start).toBeGreaterThanOrEqual(30 * DAY);
    expect(Date.parse(lot!.expiresAt) - start).toBeLessThan(30 * DAY + 60_000);
  });

  it('a member earns, spends from the lot that expires first, the clock moves and lots expire: ledger and balance agree', async () => {
    const t = await sandbox('expiry');
    const events = await receiverFor(t, ['points.expiring_soon', 'points.expired']);
    await setPoints(t, { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [7] });
    const m = await newMember(t.key);
    const start = await clockOf(t);
    expect((await change(t, m.id, 'earn', 100)).status).toBe(201);
    await advance(t, 10);
    expect((await change(t, m.id, 'earn', 50)).status).toBe(201);
    expect((await change(t, m.id, 'deduct', 30)).status).toBe(201);

    let p = await ledgerAgrees(t, m.id);
    expect(p.balance).toBe(120);
    // The spend took from the first lot (it expires first): 70 left of it, the second whole.
    expect(p.expiring.map((e) => e.points)).toEqual([70, 50]);
    expect(Date.parse(p.expiring[0]!.expiresAt) - start).toBeLessThan(30 * DAY + 60_000);
    expect(Date.parse(p.expiring[1]!.expiresAt) - Date.parse(p.expiring[0]!.expiresAt)).toBeGreaterThanOrEqual(10 * DAY);

    await advance(t, 25); // day 35: the first lot expired at day 30 (warned at day 23)
    p = await ledgerAgrees(t, m.id);
    expect(p.balance).toBe(50);
    expect(p.entries[0]).toMatchObject({ type: 'expire', amount: -70, balanceAfter: 50, source: { type: 'program' } });
    // Dated at the moment the lot expired (day 30), not at the advance.
    expect(Date.parse(p.entries[0].createdAt) - start).toBeGreaterThanOrEqual(30 * DAY);
    expect(Date.parse(p.entries[0].createdAt) - start).toBeLessThan(30 * DAY + 60_000);
    expect(p.expiring.map((e) => e.points)).toEqual([50]);

    await advance(t, 10); // day 45: the second lot expired at day 40 (warned at day 33)
    p = await ledgerAgrees(t, m.id);
    expect(p.balance).toBe(0);
    expect(p.expiring).toEqual([]);
    expect(p.entries.filter((e) => e.type === 'expire').map((e) => e.amount)).toEqual([-50, -70]);
    expect(p.lifetime).toBe(150);

    await events.waitFor(4);
    const received = events.types();
    expect(received.map((b) => b.type).sort()).toEqual(['points.expired', 'points.expired', 'points.expiring_soon', 'points.expiring_soon']);
    const expiredIds = p.entries.filter((e) => e.type === 'expire').map((e) => e.id);
    for (const b of received.filter((x) => x.type === 'points.expired')) expect(expiredIds).toContain(b.data.resource_id);
    for (const b of received) expect(b.data.member_ref).toBe(m.id);
    expect(received.find((b) => b.type === 'points.expiring_soon').data).toEqual({ resource_id: m.id, member_ref: m.id, tier: 'bronze' });
  });

  it('end_of_month expires at the month end in the program time zone; inactivity_days counts from the last earn or spend', async () => {
    const t = await sandbox('month-end');
    await setPoints(t, { expiry: { policy: 'end_of_month', days: 1 } }, 'Europe/Berlin');
    const m = await newMember(t.key);
    await change(t, m.id, 'earn', 10);
    const [lot] = (await pointsOf(t, m.id)).expiring;
    const local = new Date(Date.parse(lot!.expiresAt)).toLocaleString('en-GB', { timeZone: 'Europe/Berlin', hour12: false });
    expect(local).toMatch(/^01\/\d\d\/\d{4}, 00:00:00$/);

    const u = await sandbox('inactivity');
    await setPoints(u, { expiry: { policy: 'inactivity_days', days: 20 } });
    const n = await newMember(u.key);
    await change(u, n.id, 'earn', 40);
    await advance(u, 15);
    await change(u, n.id, 'deduct', 5); // activity: everything now expires 20 days after this spend
    await advance(u, 15);
    expect((await ledgerAgrees(u, n.id)).balance).toBe(35);
    await advance(u, 6);
    const p = await ledgerAgrees(u, n.id);
    expect(p.balance).toBe(0);
    expect(p.entries[0]).toMatchObject({ type: 'expire', amount: -35 });
  });
});

describe('pending points', () => {
  it("an order's points wait pendingDays, are not spendable, and activate with their event; a refund during the wait cancels them", async () => {
    const t = await sandbox('pending');
    const events = await receiverFor(t, ['points.activated']);
    await setPoints(t, { expiry: { policy: 'none' }, pendingDays: 14 });
    const m = await newMember(t.key);
    await order(t, m.id, 100);
    let p = await ledgerAgrees(t, m.id);
    expect(p).toMatchObject({ balance: 0, pending: 100, lifetime: 0 });
    expect((await change(t, m.id, 'deduct', 50)).status).toBe(409);

    const refunded = await order(t, m.id, 40);
    expect((await pointsOf(t, m.id)).pending).toBe(140);
    const refund = await call('POST', `/api/v2/orders/${refunded}/refund`, { token: t.key, body: {} });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    p = await ledgerAgrees(t, m.id);
    expect(p).toMatchObject({ balance: 0, pending: 100 });
    expect(p.entries).toEqual([]);

    await advance(t, 13);
    expect((await pointsOf(t, m.id)).pending).toBe(100);
    await advance(t, 1);
    p = await ledgerAgrees(t, m.id);
    expect(p).toMatchObject({ balance: 100, pending: 0, lifetime: 100 });
    expect(p.entries).toEqual([expect.objectContaining({ type: 'earn', amount: 100, balanceAfter: 100 })]);
    expect((await change(t, m.id, 'deduct', 50)).status).toBe(201);

    const [activated] = await events.waitFor(1);
    const body = JSON.parse(activated!.body);
    expect(body).toMatchObject({ type: 'points.activated', data: { resource_id: p.entries[0].id, member_ref: m.id } });
    await eventually(async () => ((await pointsOf(t, m.id)).balance === 50 ? true : undefined));
  });
});

describe('tier retention through the clock', () => {
  it('a tier with retainDays is kept below its threshold until the retention ends; the clock advance past it downgrades (loyalty.tier_downgraded)', async () => {
    const t = await sandbox('tier-retention');
    const events = await receiverFor(t, ['loyalty.tier_downgraded']);
    const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    const put = await call('PUT', '/api/flash/program', { token: t.token, body: { earn: current.earn, tiers: { ...current.tiers, retainDays: 30 } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const m = await newMember(t.key);
    const start = await clockOf(t);
    const o = await order(t, m.id, 700); // 700 points: silver (500)
    const tierOf = async () => (await call('GET', `/api/v2/members/${m.id}/tier`, { token: t.key })).body.data;
    expect((await tierOf()).current.key).toBe('silver');
    // Back below silver (450): kept, since the retention has 30 days to run.
    expect((await call('POST', `/api/v2/orders/${o}/refund`, { token: t.key, body: { amount: 250 } })).status).toBe(200);
    let tier = await tierOf();
    expect(tier).toMatchObject({ current: { key: 'silver' }, value: 450 });
    expect(Date.parse(tier.retainedUntil) - start).toBeGreaterThanOrEqual(30 * DAY);
    expect(Date.parse(tier.retainedUntil) - start).toBeLessThan(30 * DAY + 60_000);

    await advance(t, 29);
    expect((await tierOf()).current.key).toBe('silver');
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.tier).toBe('silver');

    await advance(t, 2); // day 31: the retention ended at day 30, the daily review drops the tier
    tier = await tierOf();
    expect(tier).toMatchObject({ current: { key: 'bronze' }, value: 450, retainedUntil: null });
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.tier).toBe('bronze');
    const [downgraded] = await events.waitFor(1);
    expect(JSON.parse(downgraded!.body)).toMatchObject({ type: 'loyalty.tier_downgraded', data: { resource_id: m.id, member_ref: m.id, tier: 'bronze' } });
    expect(events.types()).toHaveLength(1);
  });
});
