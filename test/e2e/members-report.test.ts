import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { addUser } from '../support/table';

/**
 * The members report over HTTP: members by tier moved by enrolments, orders, point changes and a
 * refund that takes a tier back; distinct active members of a period and of the period before,
 * played on a sandbox clock; another workspace's figures apart; who may read it.
 */

async function sandbox(label: string): Promise<Tenant> {
  const t = await tenant(label, { sandbox: true });
  const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
  const res = await call('PUT', '/api/flash/program', {
    token: t.token,
    body: { earn: current.earn, tiers: current.tiers, points: { expiry: { policy: 'none' }, warnDays: [], pendingDays: 0 }, timeZone: 'UTC' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return t;
}

const today = async (t: Tenant) => (await call('GET', '/api/flash/clock', { token: t.token })).body.data.now.slice(0, 10) as string;

async function advance(t: Tenant, days: number) {
  const res = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function order(t: Tenant, memberId: string, total: number) {
  const externalOrderId = orderId('MBR');
  const occurredAt = (await call('GET', '/api/flash/clock', { token: t.token })).body.data.now;
  const res = await call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId, memberId, currency: 'EUR', total, occurredAt } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return externalOrderId;
}

async function earn(t: Tenant, memberId: string, amount: number) {
  const res = await call('POST', `/api/v2/members/${memberId}/points`, { token: t.key, body: { type: 'earn', amount, reason: 'goodwill' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const report = async (t: Tenant, query = '') => {
  const res = await call('GET', `/api/flash/reports/members${query ? `?${query}` : ''}`, { token: t.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

const tiersOf = (data: { tiers: { tier: string; name: string; members: number }[] }) => data.tiers.map((t) => `${t.name}:${t.members}`);

describe('GET /api/flash/reports/members', () => {
  it('counts members by tier and the distinct members active in a period and the one before, exactly', async () => {
    const [t, other] = await Promise.all([sandbox('members-report'), sandbox('members-report-other')]);
    const day0 = await today(t);
    const ada = (await newMember(t.key)).id;
    const ben = (await newMember(t.key)).id;
    const cy = (await newMember(t.key)).id;
    let r = await report(t);
    expect(r).toMatchObject({ members: 3, active: 0, timeZone: 'UTC' });
    expect(tiersOf(r)).toEqual(['Bronze:3', 'Silver:0', 'Gold:0', 'Platinum:0']);

    // Day 0: Ada earns her way to silver, twice the same day (one active member); Ben orders for 2,500 EUR: gold.
    await earn(t, ada, 300);
    await earn(t, ada, 300);
    const bens = await order(t, ben, 2500);
    r = await report(t, `from=${day0}&to=${day0}`);
    expect(r.active).toBe(2);
    expect(tiersOf(r)).toEqual(['Bronze:1', 'Silver:1', 'Gold:1', 'Platinum:0']);

    // Day 10: Ben's order is refunded in full (back to bronze); Cy orders for the first time; Ada again.
    await advance(t, 10);
    const day10 = await today(t);
    const refund = await call('POST', `/api/v2/orders/${bens}/refund`, { token: t.key, body: { amount: 2500 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    await order(t, cy, 40);
    await earn(t, ada, 5);
    r = await report(t, `from=${day10}&to=${day10}`);
    expect(r.active).toBe(3);
    expect(tiersOf(r)).toEqual(['Bronze:2', 'Silver:1', 'Gold:0', 'Platinum:0']);
    // The period of equal length before day 10 is day 9: nobody.
    expect(r.previous).toEqual({ from: previousDay(day10), to: previousDay(day10), active: 0 });

    // Day 0 to day 10: each member once. The 11 days before: nobody. Day 5 to 10: all three (day 10 only).
    r = await report(t, `from=${day0}&to=${day10}`);
    expect(r.active).toBe(3);
    expect(r.previous.active).toBe(0);
    const day5 = plusDays(day0, 5);
    expect((await report(t, `from=${day5}&to=${day10}`)).active).toBe(3);
    // Day 1 to day 9: nobody; its previous period (day -8 to day 0) has Ada and Ben.
    r = await report(t, `from=${plusDays(day0, 1)}&to=${plusDays(day0, 9)}`);
    expect(r.active).toBe(0);
    expect(r.previous).toEqual({ from: plusDays(day0, -8), to: day0, active: 2 });

    // Longer than 92 days: not counted.
    expect((await report(t, `from=${plusDays(day10, -92)}&to=${day10}`)).active).toBeNull();
    expect((await report(t, `from=${plusDays(day10, -91)}&to=${day10}`)).active).toBe(3);

    // Another workspace's figures are its own.
    const o = await report(other);
    expect(o).toMatchObject({ members: 0, active: 0 });
    expect(tiersOf(o)).toEqual(['Bronze:0', 'Silver:0', 'Gold:0', 'Platinum:0']);
  });

  it('refuses a period that ends before it starts, an API key and a role without reports', async () => {
    const t = await tenant('members-report-access');
    const bad = await call('GET', '/api/flash/reports/members?from=2026-02-01&to=2026-01-31', { token: t.token });
    expect(bad.status).toBe(422);
    expect((await call('GET', '/api/flash/reports/members', { token: t.key })).status).toBe(403);
    const member = await addUser(t.workspaceId, 'support');
    const token = (await call('POST', '/api/v2/auth/login', { body: { email: member.email, password: member.password } })).body.data.session.token;
    expect((await call('GET', '/api/flash/reports/members', { token })).status).toBe(403);
  });
});

function plusDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

const previousDay = (day: string) => plusDays(day, -1);
