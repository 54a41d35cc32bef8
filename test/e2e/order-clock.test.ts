import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';

/**
 * One clock per order (docs/decisions/0077-one-clock-per-order.md): campaign dates and the weekday
 * read the order's occurredAt, within the program's backdating limit; the ledger (lots, tiers)
 * books at the recording time; an order placed in the future is refused.
 */

const DAY = 86_400_000;

async function campaign(t: Tenant, body: Record<string, unknown>) {
  const res = await call('POST', '/api/flash/campaigns', { token: t.token, body: { status: 'active', trigger: { type: 'order' }, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const placeOrder = (t: Tenant, memberId: string, occurredAt: string, total = 10) =>
  call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId: orderId('CLK'), memberId, currency: 'EUR', total, occurredAt } });

/** The campaign points the member's ledger holds for one order. */
async function campaignPoints(t: Tenant, memberId: string, externalOrderId: string): Promise<number> {
  const entries = (await call('GET', `/api/v2/members/${memberId}/points?limit=100`, { token: t.key })).body.data.entries;
  return entries.filter((e: any) => e.type === 'campaign' && e.source.externalOrderId === externalOrderId).reduce((s: number, e: any) => s + e.amount, 0);
}

async function putRules(t: Tenant, change: Record<string, unknown>) {
  const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
  const { version: _v, updatedAt: _u, ...rules } = current;
  return call('PUT', '/api/flash/program', { token: t.token, body: { ...rules, ...change } });
}

describe('the backdating limit', () => {
  it('campaigns grant on an order sent up to 7 days (the default) after it occurred, not one second later; base points are earned either way', async () => {
    const t = await tenant('order-clock');
    const m = await newMember(t.key);
    await campaign(t, { name: 'Bonus', effect: { type: 'bonus_points', points: 5 } });
    expect((await call('GET', '/api/flash/program', { token: t.token })).body.data.orders).toEqual({ backdatingLimitDays: 7 });
    const now = Date.now();
    // Just inside the bound (a minute of margin for the request's own time), and one second past it.
    const inside = await placeOrder(t, m.id, new Date(now - 7 * DAY + 60_000).toISOString());
    expect(inside.status, JSON.stringify(inside.body)).toBe(201);
    const past = await placeOrder(t, m.id, new Date(now - 7 * DAY - 1000).toISOString());
    expect(past.status).toBe(201);
    expect([inside.body.data.points.earned, past.body.data.points.earned]).toEqual([10, 10]);
    expect(await campaignPoints(t, m.id, inside.body.data.externalOrderId)).toBe(5);
    expect(await campaignPoints(t, m.id, past.body.data.externalOrderId)).toBe(0);
    // The simulation says why.
    const sim = await call('POST', '/api/flash/campaigns/simulate', {
      token: t.token,
      body: { order: { total: 10, currency: 'EUR', occurredAt: new Date(now - 7 * DAY - 1000).toISOString() }, memberId: m.id },
    });
    expect(sim.body.data.campaigns.map((c: { outcome: string }) => c.outcome)).toEqual(['backdated']);

    // The limit is the workspace's: 30 days honours the same order; 0 honours only orders sent at once.
    const refused = await putRules(t, { orders: { backdatingLimitDays: -1 } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'orders.backdatingLimitDays' })]);
    expect((await putRules(t, { orders: { backdatingLimitDays: 30 } })).status).toBe(200);
    const month = await placeOrder(t, m.id, new Date(now - 7 * DAY - 1000).toISOString());
    expect(await campaignPoints(t, m.id, month.body.data.externalOrderId)).toBe(5);
    expect((await putRules(t, { orders: { backdatingLimitDays: 0 } })).status).toBe(200);
    const hourAgo = await placeOrder(t, m.id, new Date(Date.now() - 3_600_000).toISOString());
    expect(await campaignPoints(t, m.id, hourAgo.body.data.externalOrderId)).toBe(0);
  });

  it('an order placed more than 5 minutes in the future is refused naming occurredAt, by a create and by a reconciliation; within 5 minutes is clock skew', async () => {
    const t = await tenant('order-clock-future');
    const m = await newMember(t.key);
    const future = await placeOrder(t, m.id, new Date(Date.now() + 10 * 60_000).toISOString());
    expect(future.status).toBe(422);
    expect(future.body.error.details).toEqual([expect.objectContaining({ field: 'occurredAt', message: expect.stringContaining('in the future') })]);
    expect((await placeOrder(t, m.id, new Date(Date.now() + 60_000).toISOString())).status).toBe(201);
    const batch = await call('POST', '/api/v2/orders/batch', {
      token: t.key,
      body: {
        orders: [
          {
            externalOrderId: orderId('REC'),
            memberId: m.id,
            currency: 'EUR',
            total: 5,
            status: 'completed',
            occurredAt: new Date(Date.now() + DAY).toISOString(),
          },
        ],
      },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.data.results[0]).toMatchObject({ outcome: 'failed', error: { code: 'VALIDATION_FAILED' } });
  });
});

describe('a December order sent on 2 January', () => {
  it("earns December's campaign (its occurredAt) and counts in January's tier window (the recording time), with lots dated at the recording", async () => {
    const t = await tenant('order-clock-new-year', { sandbox: true });
    const m = await newMember(t.key);
    const tiers = {
      metric: 'lifetime_points',
      window: 'calendar_year',
      levels: [
        { key: 'bronze', name: 'Bronze', threshold: 0 },
        { key: 'silver', name: 'Silver', threshold: 100 },
      ],
    };
    expect((await putRules(t, { tiers })).status).toBe(200);
    // Move the sandbox clock to 2 January of next year.
    const today = new Date();
    const year = today.getUTCFullYear();
    const days = Math.round((Date.UTC(year + 1, 0, 2) - Date.UTC(year, today.getUTCMonth(), today.getUTCDate())) / DAY);
    const moved = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.now.slice(0, 10)).toBe(`${year + 1}-01-02`);
    const december = await campaign(t, {
      name: 'December double',
      startsAt: `${year}-12-01T00:00:00Z`,
      endsAt: `${year + 1}-01-01T00:00:00Z`,
      effect: { type: 'multiplier', factor: 2 },
    });

    const sent = await placeOrder(t, m.id, `${year}-12-31T20:00:00Z`, 60);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const entries = (await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key })).body.data.entries;
    expect(entries.map((e: any) => [e.type, e.amount, e.source.campaignId ?? null, e.createdAt.slice(0, 10)]).reverse()).toEqual([
      ['earn', 60, null, `${year + 1}-01-02`],
      ['campaign', 60, december.id, `${year + 1}-01-02`],
    ]);
    const tier = (await call('GET', `/api/v2/members/${m.id}/tier`, { token: t.key })).body.data;
    expect(tier).toMatchObject({ window: 'calendar_year', value: 120, current: { key: 'silver' } });
  });
});
