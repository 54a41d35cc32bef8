import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { documentClientFor, runtimeOf } from '../support/platform';

/**
 * The points report over HTTP: the worked example of the program guide's Finance section played on a
 * sandbox clock (orders, a welcome campaign, a goodwill credit, a coupon bought with points, a
 * refund, a support deduction, an expiry, an order still pending) and its report compared with the
 * documented numbers; the period's bounds; who may read it.
 */

const DAY = 86_400_000;

async function sandbox(label: string): Promise<Tenant> {
  const t = await tenant(label, { sandbox: true });
  const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
  const res = await call('PUT', '/api/flash/program', {
    token: t.token,
    body: {
      earn: current.earn,
      tiers: current.tiers,
      points: { expiry: { policy: 'fixed_days', days: 60 }, warnDays: [], pendingDays: 14 },
      timeZone: 'UTC',
      pointValue: { EUR: 0.01 },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return t;
}

async function clockOf(t: Tenant): Promise<number> {
  const res = await call('GET', '/api/flash/clock', { token: t.token });
  expect(res.status).toBe(200);
  return Date.parse(res.body.data.now);
}

async function advance(t: Tenant, days: number) {
  const res = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function order(t: Tenant, memberId: string, total: number) {
  const externalOrderId = orderId('FIN');
  const occurredAt = new Date(await clockOf(t)).toISOString();
  const res = await call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId, memberId, currency: 'EUR', total, occurredAt } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return externalOrderId;
}

async function points(t: Tenant, memberId: string, type: 'earn' | 'deduct', amount: number) {
  const res = await call('POST', `/api/v2/members/${memberId}/points`, { token: t.key, body: { type, amount, reason: `${type} ${amount}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** The months of the workspace's points day items still stored (what no fold took yet), over its 8 shards. */
async function unfoldedMonths(t: Tenant): Promise<Set<string>> {
  const runtime = await runtimeOf(inject('dataDir'));
  const doc = documentClientFor(runtime);
  const pages = await Promise.all(
    Array.from({ length: 8 }, (_, shard) =>
      doc.send(
        new QueryCommand({
          TableName: runtime.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :day)',
          ExpressionAttributeValues: { ':pk': `WS#${t.workspaceId}#POINTS#${shard}`, ':day': 'DAY#' },
        }),
      ),
    ),
  );
  return new Set(pages.flatMap((p) => (p.Items ?? []).map((i) => String(i.day).slice(0, 7))));
}

const report = (t: Tenant, query: string) => call('GET', `/api/flash/reports/points?${query}`, { token: t.token });
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('the worked example of docs/program.md (Finance)', () => {
  it('reports what the ledger did: issued, redeemed, reversed, expired, deducted, pending, outstanding and its value', async () => {
    const t = await sandbox('finance-example');
    const start = await clockOf(t);
    const welcome = await call('POST', '/api/flash/campaigns', {
      token: t.token,
      body: { status: 'active', name: 'Welcome', trigger: { type: 'member_created' }, effect: { type: 'bonus_points', points: 50 } },
    });
    expect(welcome.status, JSON.stringify(welcome.body)).toBe(201);
    const pool = await call('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'Ten off', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 10, pointsCost: 120 },
    });
    expect(pool.status, JSON.stringify(pool.body)).toBe(201);

    // Day 0: Ada and Ben join (50 each), order for 200 and 100 EUR (pending 14 days); Ben gets 30 for goodwill.
    const ada = (await newMember(t.key)).id;
    const ben = (await newMember(t.key)).id;
    await order(t, ada, 200);
    const bens = await order(t, ben, 100);
    await points(t, ben, 'earn', 30);
    // Day 14: the orders' 300 points activate. Ada buys the coupon (120), Ben returns 40 EUR of his order, support takes 10 from Ada.
    await advance(t, 14);
    const coupon = await call('POST', '/api/v2/coupons/issue', { token: t.key, body: { poolId: pool.body.data.id, memberId: ada } });
    expect(coupon.status, JSON.stringify(coupon.body)).toBe(201);
    const refund = await call('POST', `/api/v2/orders/${bens}/refund`, { token: t.key, body: { amount: 40 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    await points(t, ada, 'deduct', 10);
    // Day 61: the day-0 lots that are left (Ben's welcome 50 and goodwill 30) expired on day 60. Carol joins and orders for 80 EUR.
    await advance(t, 47);
    // The advance ran the due work as the schedule does, month folds included: before any report
    // is read, the months that closed more than a day ago are in roll-ups, not in day items.
    const openFrom = day((await clockOf(t)) - DAY).slice(0, 7);
    expect(day(start).slice(0, 7) < openFrom).toBe(true);
    expect([...(await unfoldedMonths(t))].filter((m) => m < openFrom)).toEqual([]);
    const carol = (await newMember(t.key)).id;
    await order(t, carol, 80);

    const end = await clockOf(t);
    const res = await report(t, `from=${day(start)}&to=${day(end)}&granularity=month`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.data;
    expect(r.totals).toEqual({
      opening: 0,
      issued: { base: 300, campaign: 150, manual: 30, total: 480 },
      redeemed: 120,
      reversed: 40,
      expired: 80,
      deducted: 10,
      outstanding: 230,
      pending: 80,
    });
    expect(r.rates.period).toEqual({ redemption: 0.25, breakage: 0.1667 });
    expect(r.value).toEqual([{ currency: 'EUR', pointValue: 0.01, amount: 2.3 }]);
    // Ada's 120 and Ben's 60 left of the order lots of day 14 expire on day 74, Carol's 50 on day 121.
    const month = (d: number) => day(start + d * DAY - 1).slice(0, 7);
    const expected = new Map<string, number>();
    expected.set(month(74), 180);
    expected.set(month(121), (expected.get(month(121)) ?? 0) + 50);
    expect(r.liabilityByExpiry).toEqual([...expected].map(([m, p]) => ({ month: m, points: p })));
    // The buckets add up to the totals, and the last one closes at the outstanding points.
    expect(r.buckets.reduce((s: number, b: any) => s + b.issued.total, 0)).toBe(480);
    expect(r.buckets.at(-1)).toMatchObject({ outstanding: 230, pending: 80 });

    // The members' balances are the outstanding points.
    const balances = await Promise.all([ada, ben, carol].map(async (id) => (await call('GET', `/api/v2/members/${id}`, { token: t.key })).body.data.points));
    expect(balances.map((b: any) => b.balance)).toEqual([120, 60, 50]);

    // By day: the activation on day 14 and the expiry on day 60, each on its own day.
    const days = (await report(t, `from=${day(start)}&to=${day(end)}&granularity=day`)).body.data;
    expect(days.buckets.find((b: any) => b.start === day(start + 14 * DAY))).toMatchObject({
      issued: { base: 300 },
      redeemed: 120,
      reversed: 40,
      deducted: 10,
    });
    expect(days.buckets.find((b: any) => b.start === day(start + 60 * DAY))).toMatchObject({ expired: 80 });
    // A later period opens with the outstanding points.
    const later = (await report(t, `from=${day(start + 61 * DAY)}&to=${day(end)}`)).body.data;
    expect(later.totals).toMatchObject({ opening: 180, outstanding: 230, issued: { campaign: 50, total: 50 } });
    // The overview's points redeemed are the redemptions only (not the reversal, the deduction or the expiry).
    const overview = (await call('GET', '/api/flash/overview', { token: t.token })).body.data;
    expect(overview).toMatchObject({ pointsIssued: 480, pointsRedeemed: 120, orders: 3 });

    // The welcome campaign's cost: three rewards of 50; the period before the story had nothing.
    expect(r.campaigns).toEqual([{ campaignId: welcome.body.data.id, name: 'Welcome', points: 150, rewards: 3, previousPoints: 0 }]);
    expect(r.previous.totals).toMatchObject({ opening: 0, outstanding: 0, issued: { total: 0 }, expired: 0 });
    // Day 61 against day 60: the expiry of 80 that left 180 outstanding.
    expect(later.previous).toMatchObject({ from: day(start + 60 * DAY), to: day(start + 60 * DAY) });
    expect(later.previous.totals).toMatchObject({ opening: 260, expired: 80, outstanding: 180, issued: { total: 0 } });
    expect(later.campaigns).toEqual([{ campaignId: welcome.body.data.id, name: 'Welcome', points: 50, rewards: 1, previousPoints: 0 }]);
  });
});

describe('campaigns by cost', () => {
  it('lists the campaigns whose rewards credited the most points in the period, with the period before, a deleted one without its name', async () => {
    const [t, other] = await Promise.all([sandbox('report-campaigns'), sandbox('report-campaigns-other')]);
    const campaign = async (name: string, pts: number) => {
      const res = await call('POST', '/api/flash/campaigns', {
        token: t.token,
        body: { status: 'active', name, trigger: { type: 'member_created' }, effect: { type: 'bonus_points', points: pts } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    const small = await campaign('Small welcome', 30);
    const big = await campaign('Big welcome', 70);
    const first = day(await clockOf(t));
    await newMember(t.key);
    await advance(t, 1);
    const second = day(await clockOf(t));
    await newMember(t.key);
    await newMember(t.key);
    expect((await call('DELETE', `/api/flash/campaigns/${small}`, { token: t.token })).status).toBe(204);

    const r = (await report(t, `from=${second}&to=${second}`)).body.data;
    expect(r.campaigns).toEqual([
      { campaignId: big, name: 'Big welcome', points: 140, rewards: 2, previousPoints: 70 },
      { campaignId: small, name: null, points: 60, rewards: 2, previousPoints: 30 },
    ]);
    expect(r.totals.issued.campaign).toBe(200);
    expect(r.previous).toMatchObject({ from: first, to: first, totals: { issued: { campaign: 100 } } });
    const both = (await report(t, `from=${first}&to=${second}`)).body.data;
    expect(both.campaigns.map((c: any) => [c.points, c.rewards])).toEqual([
      [210, 3],
      [90, 3],
    ]);
    // Another workspace's campaigns are its own.
    expect((await report(other, `from=${first}&to=${second}`)).body.data.campaigns).toEqual([]);
  });
});

describe('GET /api/flash/reports/points', () => {
  it('defaults to this month, refuses a period the wrong way round or too long, and is for owners and admins of the workspace only', async () => {
    const [t, other] = await Promise.all([tenant('report-bounds'), tenant('report-other')]);
    const m = await newMember(t.key);
    await points(t, m.id, 'earn', 25);
    const today = new Date().toISOString().slice(0, 10);
    const res = await report(t, '');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      from: `${today.slice(0, 7)}-01`,
      to: today,
      granularity: 'day',
      totals: { issued: { manual: 25 }, outstanding: 25 },
    });
    expect(res.body.data.rates.period).toEqual({ redemption: 0, breakage: 0 });
    expect((await report(other, '')).body.data.totals).toMatchObject({ outstanding: 0, issued: { total: 0 } });
    expect((await report(other, '')).body.data.rates.period).toEqual({ redemption: null, breakage: null });

    const wrong = await report(t, 'from=2026-03-02&to=2026-03-01');
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details).toEqual([expect.objectContaining({ in: 'query', field: 'from' })]);
    expect((await report(t, 'from=2025-01-01&to=2026-03-01&granularity=day')).status).toBe(422);
    expect((await report(t, 'from=2025-01-01&to=2026-03-01&granularity=month')).status).toBe(200);
    expect((await report(t, 'granularity=week')).status).toBe(422);
    expect((await call('GET', '/api/flash/reports/points', { token: t.key })).status).toBe(403);
  });
});
