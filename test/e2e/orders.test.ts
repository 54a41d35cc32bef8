import { describe, expect, it } from 'vitest';
import { call, uniqueEmail } from '../support/api';
import { balanceOf, newMember, newOrder, orderId, tenant } from '../support/fixtures';

const order = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call('POST', '/api/v2/orders', { token: key, body: { currency: 'EUR', occurredAt: '2026-11-02T09:30:00Z', ...body }, headers });
const refund = (key: string, ext: string, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  call('POST', `/api/v2/orders/${encodeURIComponent(ext)}/refund`, { token: key, body, headers });

describe('orders', () => {
  it('awards points by the program rules: the order shows them and the member balance and order count include them', async () => {
    const t = await tenant('orders');
    const m = await newMember(t.key);
    const res = await order(t.key, { externalOrderId: orderId(), memberId: m.id, total: 59.9, items: [{ sku: 'CAP-1', quantity: 2, unitPrice: 29.95 }] });
    expect(res.status).toBe(201);
    expect(res.body.duplicate).toBe(false);
    expect(res.body.data).toMatchObject({
      memberId: m.id,
      total: 59.9,
      currency: 'EUR',
      status: 'completed',
      refundStatus: 'none',
      points: { earned: 59, reversed: 0, net: 59, pending: false },
    });
    expect(res.body.data.id).toMatch(/^ord_/);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 59, pending: 0, lifetime: 59 });
    const member = await call('GET', `/api/v2/members/${m.id}`, { token: t.key });
    expect(member.body.data.orderCount).toBe(1);
  });

  it('finds the member by e-mail or externalId; an unknown member is 404', async () => {
    const t = await tenant('lookup');
    const email = uniqueEmail('buyer');
    const m = await newMember(t.key, { email, externalId: 'CRM-42' });
    const byEmail = await order(t.key, { externalOrderId: orderId(), member: { email: email.toUpperCase() }, total: 10 });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body.data.memberId).toBe(m.id);
    const byExt = await order(t.key, { externalOrderId: orderId(), member: { externalId: 'CRM-42' }, total: 10 });
    expect(byExt.body.data.memberId).toBe(m.id);
    expect((await order(t.key, { externalOrderId: orderId(), member: { email: uniqueEmail('nobody') }, total: 10 })).status).toBe(404);
    expect((await order(t.key, { externalOrderId: orderId(), memberId: 'mbr_nope', total: 10 })).status).toBe(404);
    const both = await order(t.key, { externalOrderId: orderId(), memberId: m.id, member: { email }, total: 10 });
    expect(both.status).toBe(422);
  });

  it('refuses more decimals than the currency has, and a foreign store', async () => {
    const t = await tenant('decimals');
    const m = await newMember(t.key);
    const res = await order(t.key, { externalOrderId: orderId(), memberId: m.id, total: 10.999 });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('total');
    const yen = await order(t.key, { externalOrderId: orderId(), memberId: m.id, total: 1500, currency: 'JPY' });
    expect(yen.status).toBe(201);
    expect((await order(t.key, { externalOrderId: orderId(), memberId: m.id, total: 10, storeId: 'sto_01m7xj3s3d3k3hjqhj5027fa7k' })).status).toBe(404);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 1500 });
  });

  it('a timestamp whose offset carries it outside the years 0000-9999 is a 422 (was stored as -000001-... and answered off the document)', async () => {
    const t = await tenant('orders-years');
    const m = await newMember(t.key);
    for (const occurredAt of ['0000-01-01T00:00:00+01:00', '9999-12-31T23:00:00-05:00']) {
      const res = await call('POST', '/api/v2/orders', {
        token: t.key,
        body: { externalOrderId: orderId(), memberId: m.id, currency: 'EUR', total: 1, occurredAt },
      });
      expect(res.status, occurredAt).toBe(422);
      expect(res.body.error.details).toEqual([{ in: 'body', field: 'occurredAt', message: 'must lie between 0000-01-01 and 9999-12-31 in UTC' }]);
      const list = await call('GET', `/api/v2/orders?to=${encodeURIComponent(occurredAt)}`, { token: t.key });
      expect(list.status, occurredAt).toBe(422);
      expect(list.body.error.details[0].field).toBe('to');
      const pool = await call('POST', '/api/v2/coupons/pools', {
        token: t.key,
        body: { name: 'P', discount: { type: 'percent', value: 5 }, codeConfig: { mode: 'generated' }, stock: 1, validUntil: occurredAt },
      });
      expect(pool.status, occurredAt).toBe(422);
      expect(pool.body.error.details[0].field).toBe('validUntil');
    }
    // The first instants themselves are fine; the last one passes the format's bound but is refused as
    // an order placed in the future (an order's time is at most the program's now plus the clock skew).
    for (const occurredAt of ['0000-01-01T00:00:00Z', '0000-01-01T00:59:00+00:59']) {
      const res = await call('POST', '/api/v2/orders', {
        token: t.key,
        body: { externalOrderId: orderId(), memberId: m.id, currency: 'EUR', total: 1, occurredAt },
      });
      expect(res.status, occurredAt).toBe(201);
    }
    const last = await call('POST', '/api/v2/orders', {
      token: t.key,
      body: { externalOrderId: orderId(), memberId: m.id, currency: 'EUR', total: 1, occurredAt: '9999-12-31T23:59:59.999Z' },
    });
    expect(last.status).toBe(422);
    expect(last.body.error.details[0]).toMatchObject({ field: 'occurredAt', message: expect.stringMatching(/^is in the future/) });
    expect((await call('GET', '/api/v2/orders?to=9999-12-31T23:59:59.999Z', { token: t.key })).status).toBe(200);
    expect((await call('GET', '/api/v2/orders', { token: t.key })).body.data.map((o: { occurredAt: string }) => o.occurredAt)).toEqual([
      '0000-01-01T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
    ]);
  });

  it('a repeated externalOrderId is not a second award: the recorded order comes back marked duplicate', async () => {
    const t = await tenant('dup');
    const m = await newMember(t.key);
    const ext = orderId();
    const first = await order(t.key, { externalOrderId: ext, memberId: m.id, total: 80 });
    const again = await order(t.key, { externalOrderId: ext, memberId: m.id, total: 999 });
    expect(again.status).toBe(200);
    expect(again.body.duplicate).toBe(true);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.total).toBe(80);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 80 });
  });

  it('20 parallel POSTs of one externalOrderId award once', async () => {
    const t = await tenant('dup-race');
    const m = await newMember(t.key);
    const ext = orderId('RACE');
    const results = await Promise.all(Array.from({ length: 20 }, () => order(t.key, { externalOrderId: ext, memberId: m.id, total: 100 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200 && r.body.duplicate === true)).toHaveLength(19);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 100, pending: 0, lifetime: 100 });
  });

  it('pending orders hold pending points that are not spendable', async () => {
    const t = await tenant('pending');
    const m = await newMember(t.key);
    const res = await order(t.key, { externalOrderId: orderId(), memberId: m.id, total: 40, status: 'pending' });
    expect(res.body.data.points).toMatchObject({ earned: 40, net: 40, pending: true });
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 40, lifetime: 0 });
  });

  it('lists orders with filters and pagination; receipts are the member’s orders', async () => {
    const t = await tenant('list');
    const [m1, m2] = [await newMember(t.key), await newMember(t.key)];
    const store = (await call('POST', '/api/v2/stores', { token: t.key, body: { name: 'S' } })).body.data;
    await newOrder(t.key, m1.id, { occurredAt: '2026-01-10T00:00:00Z', storeId: store.id });
    await newOrder(t.key, m1.id, { occurredAt: '2026-02-10T00:00:00Z' });
    await newOrder(t.key, m2.id, { occurredAt: '2026-03-10T00:00:00Z', status: 'pending' });
    const all = await call('GET', '/api/v2/orders', { token: t.key });
    expect(all.body.data.map((o: { occurredAt: string }) => o.occurredAt)).toEqual([
      '2026-03-10T00:00:00.000Z',
      '2026-02-10T00:00:00.000Z',
      '2026-01-10T00:00:00.000Z',
    ]);
    expect((await call('GET', `/api/v2/orders?memberId=${m1.id}`, { token: t.key })).body.data).toHaveLength(2);
    expect((await call('GET', `/api/v2/orders?storeId=${store.id}`, { token: t.key })).body.data).toHaveLength(1);
    expect((await call('GET', '/api/v2/orders?status=pending', { token: t.key })).body.data).toHaveLength(1);
    const range = await call('GET', '/api/v2/orders?from=2026-01-15T00:00:00Z&to=2026-03-10T00:00:00Z', { token: t.key });
    expect(range.body.data.map((o: { occurredAt: string }) => o.occurredAt)).toEqual(['2026-02-10T00:00:00.000Z']);
    // One bound alone, an empty range, and bounds the wrong way round (a 500 from the store once).
    const since = await call('GET', '/api/v2/orders?from=2026-02-10T00:00:00Z', { token: t.key });
    expect(since.body.data.map((o: { occurredAt: string }) => o.occurredAt)).toEqual(['2026-03-10T00:00:00.000Z', '2026-02-10T00:00:00.000Z']);
    const until = await call('GET', '/api/v2/orders?to=2026-02-10T00:00:00Z', { token: t.key });
    expect(until.body.data.map((o: { occurredAt: string }) => o.occurredAt)).toEqual(['2026-01-10T00:00:00.000Z']);
    expect((await call('GET', `/api/v2/orders?memberId=${m1.id}&from=2026-02-10T00:00:00Z`, { token: t.key })).body.data).toHaveLength(1);
    expect((await call('GET', '/api/v2/orders?from=9999-01-01T00:00:00Z', { token: t.key })).body.data).toEqual([]);
    const empty = await call('GET', '/api/v2/orders?from=2026-02-10T00:00:00Z&to=2026-02-10T00:00:00Z', { token: t.key });
    expect(empty.body).toEqual({ data: [], nextCursor: null });
    const inverted = await call('GET', '/api/v2/orders?from=2026-03-01T00:00:00Z&to=2026-02-01T00:00:00Z', { token: t.key });
    expect(inverted.status).toBe(422);
    expect(inverted.body.error.details).toEqual([{ in: 'query', field: 'from', message: 'must not be after to' }]);
    const page1 = await call('GET', '/api/v2/orders?limit=2', { token: t.key });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await call('GET', `/api/v2/orders?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { token: t.key });
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.nextCursor).toBeNull();
    const receipts = await call('GET', `/api/v2/members/${m1.id}/receipts`, { token: t.key });
    expect(receipts.status).toBe(200);
    expect(receipts.body.data).toHaveLength(2);
    expect(receipts.body.data[0].points.net).toBe(100);
  });
});

describe('refunds', () => {
  it('partial refunds that add up to the total reverse exactly the awarded points', async () => {
    const t = await tenant('refund');
    const m = await newMember(t.key);
    const o = await newOrder(t.key, m.id, { total: 99.99 });
    expect(o.points.earned).toBe(99);
    const amounts = [33.33, 33.33, 33.33];
    const reversed: number[] = [];
    for (const amount of amounts) {
      const r = await refund(t.key, o.externalOrderId, { amount, reason: 'returned item' });
      expect(r.status).toBe(200);
      reversed.push(r.body.data.refund.pointsReversed);
    }
    expect(reversed.reduce((a, b) => a + b, 0)).toBe(99);
    const last = await refund(t.key, o.externalOrderId, { amount: 0.01 });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('REFUND_EXCEEDS_REMAINING');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });
    const ledger = await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key });
    expect(ledger.body.data.entries.filter((e: { type: string }) => e.type === 'refund_reversal')).toHaveLength(3);
  });

  it('a refund never exceeds what is left; without an amount it refunds the rest', async () => {
    const t = await tenant('refund-cap');
    const m = await newMember(t.key);
    const o = await newOrder(t.key, m.id, { total: 50 });
    expect((await refund(t.key, o.externalOrderId, { amount: 50.01 })).status).toBe(409);
    const rest = await refund(t.key, o.externalOrderId, {});
    expect(rest.status).toBe(200);
    expect(rest.body.data.order).toMatchObject({ refundedTotal: 50, refundStatus: 'full', points: { net: 0, reversed: 50 } });
    expect((await refund(t.key, o.externalOrderId, {})).status).toBe(409);
    expect((await refund(t.key, 'NO-SUCH-ORDER', { amount: 1 })).status).toBe(404);
  });

  it('the same Idempotency-Key does not reverse twice; a different body with it is 422', async () => {
    const t = await tenant('refund-idem');
    const m = await newMember(t.key);
    const o = await newOrder(t.key, m.id, { total: 100 });
    const headers = { 'idempotency-key': `refund-${o.externalOrderId}` };
    const first = await refund(t.key, o.externalOrderId, { amount: 40 }, headers);
    const second = await refund(t.key, o.externalOrderId, { amount: 40 }, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 60 });
    const other = await refund(t.key, o.externalOrderId, { amount: 10 }, headers);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 60 });
  });

  it('points the member already spent are still taken back: the balance goes negative', async () => {
    const t = await tenant('clawback');
    const m = await newMember(t.key);
    const o = await newOrder(t.key, m.id, { total: 100 });
    await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'deduct', amount: 90, reason: 'reward' } });
    const r = await refund(t.key, o.externalOrderId, {});
    expect(r.status).toBe(200);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: -90, pending: 0, lifetime: 0 });
    // The debt is paid off by the next earnings.
    await newOrder(t.key, m.id, { total: 100 });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 10 });
  });
});
