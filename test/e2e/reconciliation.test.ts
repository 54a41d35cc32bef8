import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, newOrder, orderId, tenant } from '../support/fixtures';

const batch = (key: string, orders: unknown[]) => call('POST', '/api/v2/orders/batch', { token: key, body: { orders } });

describe('order reconciliation (POST /orders/batch)', () => {
  it('creates missing orders, corrects changed ones by the difference only, leaves equal ones', async () => {
    const t = await tenant('recon');
    const m = await newMember(t.key);
    const kept = await newOrder(t.key, m.id, { total: 100 });
    const grown = await newOrder(t.key, m.id, { total: 100 });
    const cancelled = await newOrder(t.key, m.id, { total: 100 });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 300, lifetime: 300 });
    const base = { memberId: m.id, currency: 'EUR', occurredAt: '2026-11-01T10:00:00Z' };
    const fresh = orderId('NEW');
    const orders = [
      { ...base, externalOrderId: kept.externalOrderId, total: 100, status: 'completed' },
      { ...base, externalOrderId: grown.externalOrderId, total: 150, status: 'completed' },
      { ...base, externalOrderId: cancelled.externalOrderId, total: 100, status: 'cancelled' },
      { ...base, externalOrderId: fresh, total: 20, status: 'pending' },
      { ...base, externalOrderId: orderId('BAD'), total: -1, status: 'completed' },
      { ...base, externalOrderId: orderId('GHOST'), memberId: 'mbr_01m7xj3rvfzrkph3m7kfz6rq3m', total: 5, status: 'completed' },
    ];
    const res = await batch(t.key, orders);
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r: { outcome: string }) => r.outcome)).toEqual(['unchanged', 'updated', 'updated', 'created', 'failed', 'failed']);
    expect(res.body.data.results.map((r: { pointsDelta: number }) => r.pointsDelta)).toEqual([0, 50, -100, 20, 0, 0]);
    expect(res.body.data.results[5].error.code).toBe('NOT_FOUND');
    expect(res.body.data.summary).toEqual({ created: 1, updated: 2, unchanged: 1, failed: 2 });
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 250, pending: 20, lifetime: 250 });

    // The same batch again changes nothing.
    const replay = await batch(t.key, orders);
    expect(replay.body.data.results.map((r: { outcome: string }) => r.outcome)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
      'failed',
      'failed',
    ]);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 250, pending: 20, lifetime: 250 });

    // Completing the pending order moves its points from pending to the balance.
    const done = await batch(t.key, [{ ...base, externalOrderId: fresh, total: 20, status: 'completed' }]);
    expect(done.body.data.results[0]).toMatchObject({ outcome: 'updated', pointsDelta: 0 });
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 270, pending: 0, lifetime: 270 });
  });

  it('aligns refunds with the system of record, reversing only the difference', async () => {
    const t = await tenant('recon-refund');
    const m = await newMember(t.key);
    const o = await newOrder(t.key, m.id, { total: 200 });
    await call('POST', `/api/v2/orders/${o.externalOrderId}/refund`, { token: t.key, body: { amount: 50 } });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 150 });
    const item = {
      externalOrderId: o.externalOrderId,
      memberId: m.id,
      currency: 'EUR',
      total: 200,
      status: 'completed',
      occurredAt: '2026-11-01T10:00:00Z',
      refundedTotal: 120,
    };
    const res = await batch(t.key, [item]);
    expect(res.body.data.results[0]).toMatchObject({ outcome: 'updated', pointsDelta: -70 });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 80 });
    expect((await batch(t.key, [item])).body.data.results[0].outcome).toBe('unchanged');
    const wrongCurrency = await batch(t.key, [{ ...item, currency: 'USD' }]);
    expect(wrongCurrency.body.data.results[0]).toMatchObject({ outcome: 'failed', error: { code: 'CONFLICT' } });
  });

  it('takes at most 500 orders', async () => {
    const t = await tenant('recon-cap');
    expect((await batch(t.key, new Array(501).fill({}))).status).toBe(422);
    expect((await batch(t.key, [])).status).toBe(422);
  });
});
