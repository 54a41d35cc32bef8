import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { startReceiver } from '../support/receiver';

/**
 * Campaign rewards beyond an order's points, over HTTP on the local runtime: the coupon effect,
 * and the triggers other than an order (a new member, a new tag, a birthday, an inactivity spell),
 * each granted once per occurrence, within its own workspace only.
 */
const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function campaign(t: Tenant, body: Record<string, unknown>) {
  const res = await call('POST', '/api/flash/campaigns', { token: t.token, body: { status: 'active', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const campaignOf = async (t: Tenant, id: string) => (await call('GET', `/api/flash/campaigns/${id}`, { token: t.token })).body.data;

async function pool(t: Tenant, stock: number) {
  const res = await call('POST', '/api/v2/coupons/pools', {
    token: t.key,
    body: { name: 'Thank you', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const couponsOf = async (t: Tenant, memberId: string) => (await call('GET', `/api/v2/members/${memberId}/coupons`, { token: t.key })).body.data as any[];

async function entriesOf(t: Tenant, memberId: string) {
  const res = await call('GET', `/api/v2/members/${memberId}/points?limit=100`, { token: t.key });
  expect(res.status).toBe(200);
  return [...res.body.data.entries].reverse() as any[];
}

async function order(t: Tenant, memberId: string, total: number, occurredAt = new Date().toISOString()) {
  const res = await call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId: orderId('TRG'), memberId, currency: 'EUR', total, occurredAt } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function receiverFor(t: Tenant, eventTypes: string[]) {
  const r = await startReceiver();
  receivers.push(r);
  const res = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: r.url, eventTypes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { events: () => r.received.map((x) => JSON.parse(x.body)), waitFor: r.waitFor };
}

describe('the coupon effect on orders', () => {
  it('issues one coupon of the pool with the order, writes no ledger entry, and emits campaign.reward_granted naming the coupon; an empty pool skips it', async () => {
    const t = await tenant('campaign-coupon');
    const hook = await receiverFor(t, ['campaign.reward_granted', 'coupon.issued']);
    const p = await pool(t, 1);
    const c = await campaign(t, { name: 'Coupon with every order', trigger: { type: 'order' }, effect: { type: 'coupon', poolId: p.id } });
    const [m, n] = await Promise.all([newMember(t.key), newMember(t.key)]);

    const first = await order(t, m.id, 50);
    const coupons = await couponsOf(t, m.id);
    expect(coupons).toEqual([expect.objectContaining({ poolId: p.id, memberId: m.id, status: 'issued' })]);
    // Only the order's own entry: a coupon is no points.
    expect((await entriesOf(t, m.id)).map((e) => [e.type, e.amount, e.source.externalOrderId])).toEqual([['earn', 50, first.externalOrderId]]);
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 1, pointsGranted: 0 });
    await hook.waitFor(2);
    const granted = hook.events().find((e) => e.type === 'campaign.reward_granted');
    expect(granted.data).toEqual({ resource_id: coupons[0].id, member_ref: m.id, campaign_id: c.id });
    expect(hook.events().find((e) => e.type === 'coupon.issued').data).toMatchObject({ resource_id: coupons[0].id, member_ref: m.id, pool_id: p.id });

    // The pool's only coupon is gone: the next order is recorded and earns its points, without a coupon.
    await order(t, n.id, 20);
    expect(await couponsOf(t, n.id)).toEqual([]);
    expect(await balanceOf(t.key, n.id)).toEqual({ balance: 20, pending: 0, lifetime: 20 });
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 1 });
  });
});
