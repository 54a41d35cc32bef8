import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { startReceiver } from '../support/receiver';

/**
 * A coupon a campaign granted on an order goes with the order: the refund that refunds it in full
 * (or its cancellation) voids the coupon if unused, and says so; a coupon already redeemed stays
 * redeemed, and the refund answer and `order.refunded` name it as used.
 */

async function couponCampaign(t: Tenant) {
  const pool = await call('POST', '/api/v2/coupons/pools', {
    token: t.key,
    body: { name: 'Thank you', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 10 },
  });
  expect(pool.status, JSON.stringify(pool.body)).toBe(201);
  const body = { name: 'Coupon on orders', status: 'active', trigger: { type: 'order' }, effect: { type: 'coupon', poolId: pool.body.data.id } };
  expect((await call('POST', '/api/flash/campaigns', { token: t.token, body })).status).toBe(201);
}

async function orderWithCoupon(t: Tenant, memberId: string) {
  const externalOrderId = orderId('CPN');
  const res = await call('POST', '/api/v2/orders', {
    token: t.key,
    body: { externalOrderId, memberId, currency: 'EUR', total: 50, occurredAt: new Date().toISOString() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const coupons = await call('GET', `/api/v2/coupons?memberId=${memberId}`, { token: t.key });
  return { externalOrderId, couponId: coupons.body.data[0].id as string };
}

const couponOf = async (t: Tenant, memberId: string) => (await call('GET', `/api/v2/coupons?memberId=${memberId}`, { token: t.key })).body.data[0];

describe('campaign coupons follow their order', () => {
  it('a full refund voids the unused coupon (a partial one does not); a voided coupon cannot be redeemed', async () => {
    const t = await tenant('bonus-coupon-void');
    await couponCampaign(t);
    const m = await newMember(t.key);
    const { externalOrderId, couponId } = await orderWithCoupon(t, m.id);
    const part = await call('POST', `/api/v2/orders/${externalOrderId}/refund`, { token: t.key, body: { amount: 20 } });
    expect(part.body.data.refund.coupons).toEqual({ voided: [], used: [] });
    expect((await couponOf(t, m.id)).status).toBe('issued');
    const rest = await call('POST', `/api/v2/orders/${externalOrderId}/refund`, { token: t.key, body: {} });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.data.refund.coupons).toEqual({ voided: [couponId], used: [] });
    expect((await couponOf(t, m.id)).status).toBe('voided');
    const voided = await call('GET', `/api/v2/coupons?memberId=${m.id}&status=voided`, { token: t.key });
    expect(voided.body.data.map((c: { id: string }) => c.id)).toEqual([couponId]);
    const redeem = await call('POST', `/api/v2/coupons/${couponId}/redeem`, { token: t.key, body: {} });
    expect(redeem.status).toBe(409);
    expect(redeem.body.error.message).toMatch(/voided/);
  });

  it('a coupon already redeemed stays redeemed: the refund and order.refunded say it was used', async () => {
    const t = await tenant('bonus-coupon-used');
    await couponCampaign(t);
    const receiver = await startReceiver();
    try {
      expect((await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['order.refunded'] } })).status).toBe(201);
      const m = await newMember(t.key);
      const { externalOrderId, couponId } = await orderWithCoupon(t, m.id);
      expect((await call('POST', `/api/v2/coupons/${couponId}/redeem`, { token: t.key, body: {} })).status).toBe(200);
      const res = await call('POST', `/api/v2/orders/${externalOrderId}/refund`, { token: t.key, body: {} });
      expect(res.body.data.refund.coupons).toEqual({ voided: [], used: [couponId] });
      expect((await couponOf(t, m.id)).status).toBe('redeemed');
      await receiver.waitFor(1);
      expect(JSON.parse(receiver.received[0]!.body).data).toMatchObject({ coupons_used: [couponId] });
    } finally {
      await receiver.close();
    }
  });

  it('a cancellation by reconciliation voids the unused coupon too', async () => {
    const t = await tenant('bonus-coupon-cancel');
    await couponCampaign(t);
    const m = await newMember(t.key);
    const { externalOrderId } = await orderWithCoupon(t, m.id);
    const res = await call('POST', '/api/v2/orders/batch', {
      token: t.key,
      body: { orders: [{ externalOrderId, memberId: m.id, currency: 'EUR', total: 50, status: 'cancelled', occurredAt: new Date().toISOString() }] },
    });
    expect(res.body.data.results[0]).toMatchObject({ outcome: 'updated' });
    expect((await couponOf(t, m.id)).status).toBe('voided');
  });
});
