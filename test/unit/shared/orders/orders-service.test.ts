import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/platform/errors';
import { createOrder, reconcileOrder, refundOrder } from '../../../../shared/orders/service';
import type { CreateOrderInput } from '../../../../shared/orders/schemas';
import { MemoryOrdersStore } from '../../../support/memory-stores';

/** The order service (points awarded and taken back with the order) on its narrow store interface, in memory. */

const WS = 'ws_01j9z3k4m5n6p7q8r9s0t1v2w3';
const MEMBER = 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3';
const NOW = new Date('2026-03-01T10:00:00Z');

const setup = () => {
  const store = new MemoryOrdersStore();
  store.ledger.addMember({ id: MEMBER, workspaceId: WS, tier: 'bronze', email: 'ada@example.com' });
  return store;
};

const order = (o: Partial<CreateOrderInput> = {}): CreateOrderInput =>
  ({
    externalOrderId: 'ext-1',
    memberId: MEMBER,
    currency: 'EUR',
    total: 120.5,
    status: 'completed',
    occurredAt: '2026-02-28T09:00:00Z',
    ...o,
  }) as CreateOrderInput;

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );
const member = (store: MemoryOrdersStore) => store.ledger.members.get(MEMBER)!;

describe('orders (in-memory store)', () => {
  it('an order earns its points (1 per EUR, floored) with the order in one transaction; a repeat awards nothing', async () => {
    const store = setup();
    const first = await createOrder(WS, order(), {}, NOW, store);
    expect(first).toMatchObject({ duplicate: false, order: { points: { earned: 120, reversed: 0, net: 120 } } });
    expect(member(store)).toMatchObject({ balance: 120, lifetime: 120, orderCount: 1 });
    const again = await createOrder(WS, order({ total: 999 }), {}, NOW, store);
    expect(again).toMatchObject({ duplicate: true, order: { id: first.order.id, total: 120.5 } });
    expect(member(store).balance).toBe(120);
    expect(store.ledger.eventTypes()).toEqual(['order.created', 'loyalty.points_earned']);
  });

  it("campaign grants of a completed order: each its own entry after the order's, balance and lifetime include them; a pending order gets none", async () => {
    const store = setup();
    const source = (campaignId: string) => ({ type: 'campaign' as const, orderId: null, externalOrderId: 'ext-1', apiKeyId: null, campaignId });
    store.grants.push(
      { campaignId: 'cmp_a', points: 50, reason: 'A: 50 bonus points', source: source('cmp_a') },
      { campaignId: 'cmp_b', points: 120, reason: 'B: 2x', source: source('cmp_b') },
    );
    const before = member(store).rev;
    await createOrder(WS, order(), {}, NOW, store);
    expect(member(store)).toMatchObject({ balance: 290, lifetime: 290, orderCount: 1, rev: before + 3 });
    expect(store.ledger.entries.map((e) => [e.rev - before, e.type, e.amount, e.balanceAfter, e.reason, e.source.campaignId ?? null])).toEqual([
      [1, 'earn', 120, 120, 'Order ext-1', null],
      [2, 'campaign', 50, 170, 'A: 50 bonus points', 'cmp_a'],
      [3, 'campaign', 120, 290, 'B: 2x', 'cmp_b'],
    ]);
    expect(store.ledger.eventTypes()).toEqual(['order.created', 'loyalty.points_earned', 'campaign.reward_granted', 'campaign.reward_granted']);
    await createOrder(WS, order({ externalOrderId: 'ext-2', status: 'pending' }), {}, NOW, store);
    expect(member(store)).toMatchObject({ balance: 290, pending: 120, lifetime: 290 });
    expect(store.ledger.entries).toHaveLength(3);
  });

  it('a pending order holds its points as pending; an unknown store or member is NOT_FOUND and writes nothing', async () => {
    const store = setup();
    await createOrder(WS, order({ status: 'pending' }), {}, NOW, store);
    expect(member(store)).toMatchObject({ balance: 0, pending: 120, orderCount: 0 });
    expect(await code(createOrder(WS, order({ externalOrderId: 'ext-2', storeId: 'sto_01j9z3k4m5n6p7q8r9s0t1v2w3' }), {}, NOW, store))).toBe('NOT_FOUND');
    expect(await code(createOrder(WS, order({ externalOrderId: 'ext-3', memberId: undefined, member: { email: 'nobody@example.com' } }), {}, NOW, store))).toBe(
      'NOT_FOUND',
    );
    expect(store.orders.size).toBe(1);
  });

  it('refunds take back their share of the points, cumulatively, and never more than what is left to refund', async () => {
    const store = setup();
    await createOrder(WS, order({ total: 100 }), {}, NOW, store);
    const part = await refundOrder(WS, 'ext-1', { amount: 25 }, {}, NOW, store);
    expect(part.refund).toMatchObject({ amount: 25, pointsReversed: 25 });
    expect(part.order).toMatchObject({ refundedTotal: 25, refundStatus: 'partial' });
    expect(member(store).balance).toBe(75);
    expect(await code(refundOrder(WS, 'ext-1', { amount: 75.01 }, {}, NOW, store))).toBe('REFUND_EXCEEDS_REMAINING');
    const rest = await refundOrder(WS, 'ext-1', {}, {}, NOW, store);
    expect(rest.refund).toMatchObject({ amount: 75, pointsReversed: 75 });
    expect(rest.order.refundStatus).toBe('full');
    expect(await code(refundOrder(WS, 'ext-1', { amount: 1 }, {}, NOW, store))).toBe('REFUND_EXCEEDS_REMAINING');
    expect(store.refunds.map((r) => r.amountMinor)).toEqual([2500, 7500]);
    expect(member(store)).toMatchObject({ balance: 0, lifetime: 0 });
  });

  it('a refund takes back points already spent (the balance goes negative); a cancelled order has nothing to refund', async () => {
    const store = setup();
    await createOrder(WS, order({ total: 50 }), {}, NOW, store);
    member(store).balance = 10; // 40 points spent meanwhile
    await refundOrder(WS, 'ext-1', {}, {}, NOW, store);
    expect(member(store).balance).toBe(-40);
    await reconcileOrder(WS, { ...order({ externalOrderId: 'ext-c', total: 20 }), status: 'cancelled' } as never, NOW, store);
    expect(await code(refundOrder(WS, 'ext-c', {}, {}, NOW, store))).toBe('CONFLICT');
    expect(await code(refundOrder(WS, 'ext-unknown', {}, {}, NOW, store))).toBe('NOT_FOUND');
  });

  it('reconciliation moves only the difference in points, and leaves an order in line untouched', async () => {
    const store = setup();
    await createOrder(WS, order({ total: 100 }), {}, NOW, store);
    const input = { ...order({ total: 130 }), status: 'completed' } as never;
    expect(await reconcileOrder(WS, input, NOW, store)).toMatchObject({ outcome: 'updated', pointsDelta: 30 });
    expect(member(store).balance).toBe(130);
    expect(await reconcileOrder(WS, input, NOW, store)).toMatchObject({ outcome: 'unchanged', pointsDelta: 0 });
    expect(store.ledger.committed.length).toBe(2);
  });
});

describe('earning caps (in-memory store)', () => {
  const capped = (store: MemoryOrdersStore, baseDaily: number) => {
    store.ledger.rules = {
      ...store.ledger.rules,
      earn: { ...store.ledger.rules.earn, caps: { baseDaily, baseMonthly: null, campaignDaily: null, campaignMonthly: null } },
    };
  };

  it('an order counts what it earns on the counter, read and written in its change; none is read or written without caps', async () => {
    const store = setup();
    await createOrder(WS, order({ externalOrderId: 'free', total: 500 }), {}, NOW, store);
    expect(store.earnCaps.size).toBe(0);
    capped(store, 100);
    const first = await createOrder(WS, order({ externalOrderId: 'a', total: 70 }), {}, NOW, store);
    const second = await createOrder(WS, order({ externalOrderId: 'b', total: 70 }), {}, NOW, store);
    expect([first.order.points.earned, second.order.points.earned]).toEqual([70, 30]);
    expect(store.earnCaps.get(`${WS}/${MEMBER}`)).toEqual({
      day: '2026-03-01',
      month: '2026-03',
      dayBase: 100,
      monthBase: 100,
      dayCampaign: 0,
      monthCampaign: 0,
      version: 2,
    });
  });

  it('another writer counting between the read and the commit: the order is planned again on the fresh count', async () => {
    const store = setup();
    capped(store, 100);
    await createOrder(WS, order({ externalOrderId: 'a', total: 60 }), {}, NOW, store);
    // Another process records an order of 30 points after this order read the count (at 60), before it commits.
    store.ledger.interleave = () => {
      const key = `${WS}/${MEMBER}`;
      const c = store.earnCaps.get(key)!;
      store.earnCaps.set(key, { ...c, dayBase: c.dayBase + 30, monthBase: c.monthBase + 30, version: c.version + 1 });
    };
    const raced = await createOrder(WS, order({ externalOrderId: 'b', total: 60 }), {}, NOW, store);
    expect(raced.order.points.earned).toBe(10);
    expect(store.earnCaps.get(`${WS}/${MEMBER}`)).toMatchObject({ dayBase: 100, version: 3 });
  });
});
