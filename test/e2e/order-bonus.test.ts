import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { startReceiver } from '../support/receiver';

/**
 * Campaign points granted on an order follow the order over HTTP on a sandbox clock: they wait out
 * the order's pending period, and its refunds and cancellation take them back in proportion, in
 * the refund's own transaction; the refund answer and `order.refunded` say what went back.
 */

async function sandbox(label: string, pendingDays: number): Promise<Tenant> {
  const t = await tenant(label, { sandbox: true });
  const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
  const points = { expiry: { policy: 'none' }, warnDays: [], pendingDays };
  const res = await call('PUT', '/api/flash/program', { token: t.token, body: { earn: current.earn, tiers: current.tiers, points, timeZone: 'UTC' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return t;
}

async function campaign(t: Tenant, effect: Record<string, unknown>) {
  const res = await call('POST', '/api/flash/campaigns', { token: t.token, body: { name: 'Bonus', status: 'active', trigger: { type: 'order' }, effect } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string };
}

async function order(t: Tenant, memberId: string, total: number) {
  const externalOrderId = orderId('BON');
  const now = (await call('GET', '/api/flash/clock', { token: t.token })).body.data.now;
  const res = await call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId, memberId, currency: 'EUR', total, occurredAt: now } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return externalOrderId;
}

async function refund(t: Tenant, externalOrderId: string, amount?: number) {
  const res = await call('POST', `/api/v2/orders/${externalOrderId}/refund`, { token: t.key, body: amount === undefined ? {} : { amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.refund as { pointsReversed: number; basePointsReversed: number; bonusPointsReversed: number };
}

async function entries(t: Tenant, memberId: string) {
  const res = await call('GET', `/api/v2/members/${memberId}/points?limit=100`, { token: t.key });
  const data = res.body.data as { balance: number; entries: { type: string; amount: number; source: { campaignId?: string } }[] };
  expect(data.entries.reduce((s, e) => s + e.amount, 0)).toBe(data.balance);
  return [...data.entries].reverse().map((e) => [e.type, e.amount, e.source.campaignId ?? null]);
}

const advance = async (t: Tenant, days: number) =>
  expect((await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } })).status).toBe(200);

describe('campaign points follow their order', () => {
  it('wait out the pending period with the order and activate as a campaign entry', async () => {
    const t = await sandbox('bonus-pending', 14);
    const double = await campaign(t, { type: 'multiplier', factor: 2 });
    const m = await newMember(t.key);
    await order(t, m.id, 100);
    // Nothing spendable yet: the order's 100 and the campaign's 100 both wait.
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 200, lifetime: 0 });
    expect(await entries(t, m.id)).toEqual([]);
    await advance(t, 14);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 200, pending: 0, lifetime: 200 });
    expect((await entries(t, m.id)).sort()).toEqual([
      ['campaign', 100, double.id],
      ['earn', 100, null],
    ]);
  });

  it('a refund during the wait cancels both parts in proportion; nothing is written to the ledger', async () => {
    const t = await sandbox('bonus-pending-refund', 14);
    await campaign(t, { type: 'bonus_points', points: 25 });
    const m = await newMember(t.key);
    const o = await order(t, m.id, 100);
    expect(await refund(t, o, 40)).toEqual(expect.objectContaining({ pointsReversed: 50, basePointsReversed: 40, bonusPointsReversed: 10 }));
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 75, lifetime: 0 });
    await advance(t, 14);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 75, pending: 0, lifetime: 75 });
  });

  it('partial refunds take back the rounded-down share, the last one the rest; the answer and order.refunded say how much of each', async () => {
    const t = await sandbox('bonus-refunds', 0);
    const bonus = await campaign(t, { type: 'bonus_points', points: 7 });
    const receiver = await startReceiver();
    try {
      const hook = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['order.refunded'] } });
      expect(hook.status).toBe(201);
      const m = await newMember(t.key);
      const o = await order(t, m.id, 100);
      expect(await balanceOf(t.key, m.id)).toEqual({ balance: 107, pending: 0, lifetime: 107 });
      // A third of the order: floor(7 / 3) = 2 of the bonus, 33 of the base.
      expect(await refund(t, o, 33.34)).toEqual(expect.objectContaining({ pointsReversed: 35, basePointsReversed: 33, bonusPointsReversed: 2 }));
      expect(await refund(t, o, 33.33)).toEqual(expect.objectContaining({ basePointsReversed: 33, bonusPointsReversed: 2 }));
      expect(await balanceOf(t.key, m.id)).toEqual({ balance: 37, pending: 0, lifetime: 37 });
      // The rest of the order: everything left, 3 of the 7.
      expect(await refund(t, o)).toEqual(expect.objectContaining({ basePointsReversed: 34, bonusPointsReversed: 3 }));
      expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });
      expect(await entries(t, m.id)).toEqual([
        ['earn', 100, null],
        ['campaign', 7, bonus.id],
        ['refund_reversal', -33, null],
        ['refund_reversal', -2, bonus.id],
        ['refund_reversal', -33, null],
        ['refund_reversal', -2, bonus.id],
        ['refund_reversal', -34, null],
        ['refund_reversal', -3, bonus.id],
      ]);
      await receiver.waitFor(3);
      const data = receiver.received.map((r) => JSON.parse(r.body).data);
      expect(data.map((d) => [d.base_points_reversed, d.bonus_points_reversed]).sort()).toEqual([
        [33, 2],
        [33, 2],
        [34, 3],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('points already spent are taken back all the same: the balance goes below zero, as for the order’s own', async () => {
    const t = await sandbox('bonus-spent', 0);
    await campaign(t, { type: 'multiplier', factor: 2 });
    const m = await newMember(t.key);
    const o = await order(t, m.id, 50);
    const spend = await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'deduct', amount: 100, reason: 'reward' } });
    expect(spend.status).toBe(201);
    expect(await refund(t, o)).toEqual(expect.objectContaining({ pointsReversed: 100, basePointsReversed: 50, bonusPointsReversed: 50 }));
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: -100, pending: 0, lifetime: 0 });
  });

  it('an order reconciled back to pending takes its campaign points to pending with its own; completed again, they come back once', async () => {
    const t = await sandbox('bonus-reopen', 0);
    const bonus = await campaign(t, { type: 'bonus_points', points: 30 });
    const m = await newMember(t.key);
    const o = await order(t, m.id, 80);
    const reconcile = async (status: string) => {
      const now = (await call('GET', '/api/flash/clock', { token: t.token })).body.data.now;
      const body = { orders: [{ externalOrderId: o, memberId: m.id, currency: 'EUR', total: 80, status, occurredAt: now }] };
      const res = await call('POST', '/api/v2/orders/batch', { token: t.key, body });
      expect(res.body.data.results[0], JSON.stringify(res.body)).toMatchObject({ outcome: 'updated' });
    };
    await reconcile('pending');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 110, lifetime: 0 });
    await reconcile('completed');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 110, pending: 0, lifetime: 110 });
    expect((await entries(t, m.id)).slice(2)).toEqual([
      ['adjustment', -80, null],
      ['adjustment', -30, bonus.id],
      ['earn', 80, null],
      ['campaign', 30, bonus.id],
    ]);
    // Given back, not granted again: the campaign counts the one grant.
    const counted = (await call('GET', `/api/flash/campaigns/${bonus.id}`, { token: t.token })).body.data;
    expect(counted).toMatchObject({ grants: 1, pointsGranted: 30 });
    // Back to pending and cancelled there: nothing is left anywhere.
    await reconcile('pending');
    await reconcile('cancelled');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });
  });

  it('campaign points waiting with an order that goes back to pending do not activate while it is pending', async () => {
    const t = await sandbox('bonus-reopen-wait', 14);
    await campaign(t, { type: 'multiplier', factor: 2 });
    const m = await newMember(t.key);
    const o = await order(t, m.id, 50);
    const reconcile = async (status: string) => {
      const now = (await call('GET', '/api/flash/clock', { token: t.token })).body.data.now;
      const body = { orders: [{ externalOrderId: o, memberId: m.id, currency: 'EUR', total: 50, status, occurredAt: now }] };
      expect((await call('POST', '/api/v2/orders/batch', { token: t.key, body })).status).toBe(200);
    };
    await reconcile('pending');
    await advance(t, 14);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 100, lifetime: 0 });
    // Completed: both parts wait out the period again and activate together.
    await reconcile('completed');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 100, lifetime: 0 });
    await advance(t, 14);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 100, pending: 0, lifetime: 100 });
  });

  it('campaign.reward_granted once per share: not again when points an order took back to pending come back', async () => {
    const t = await sandbox('bonus-announced', 14);
    const bonus = await campaign(t, { type: 'bonus_points', points: 30 });
    const receiver = await startReceiver();
    try {
      const hook = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['campaign.reward_granted'] } });
      expect(hook.status).toBe(201);
      const m = await newMember(t.key);
      const o = await order(t, m.id, 80);
      const reconcile = async (status: string) => {
        const now = (await call('GET', '/api/flash/clock', { token: t.token })).body.data.now;
        const body = { orders: [{ externalOrderId: o, memberId: m.id, currency: 'EUR', total: 80, status, occurredAt: now }] };
        expect((await call('POST', '/api/v2/orders/batch', { token: t.key, body })).status).toBe(200);
      };
      await advance(t, 14); // activated: announced
      await reconcile('pending');
      await reconcile('completed');
      await advance(t, 14); // given back after its wait: not announced again
      expect(await balanceOf(t.key, m.id)).toEqual({ balance: 110, pending: 0, lifetime: 110 });
      // A second order's share, announced when it activates, closes the sequence.
      await order(t, m.id, 10);
      await advance(t, 14);
      const campaignEntries = async () => {
        const res = await call('GET', `/api/v2/members/${m.id}/points?limit=100`, { token: t.key });
        return (res.body.data.entries as { id: string; type: string; amount: number }[]).filter((e) => e.type === 'campaign').reverse();
      };
      const [first, givenBack, second] = await campaignEntries();
      expect([first?.amount, givenBack?.amount, second?.amount]).toEqual([30, 30, 30]);
      await receiver.waitFor(2);
      await new Promise((r) => setTimeout(r, 1_000));
      const announced = receiver.received.map((r) => JSON.parse(r.body).data);
      expect(announced.map((d) => d.resource_id).sort()).toEqual([first!.id, second!.id].sort());
      expect(announced.every((d) => d.campaign_id === bonus.id)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('a pending order refunded before it completes earns its campaign points less the share refunded', async () => {
    const t = await sandbox('bonus-refunded-pending', 0);
    const bonus = await campaign(t, { type: 'bonus_points', points: 30 });
    const m = await newMember(t.key);
    const now = (await call('GET', '/api/flash/clock', { token: t.token })).body.data.now;
    const pendingOrder = async (total: number) => {
      const externalOrderId = orderId('BON');
      const body = { externalOrderId, memberId: m.id, currency: 'EUR', total, status: 'pending', occurredAt: now };
      expect((await call('POST', '/api/v2/orders', { token: t.key, body })).status).toBe(201);
      return externalOrderId;
    };
    const complete = async (externalOrderId: string, total: number) => {
      const body = { orders: [{ externalOrderId, memberId: m.id, currency: 'EUR', total, status: 'completed', occurredAt: now }] };
      expect((await call('POST', '/api/v2/orders/batch', { token: t.key, body })).status).toBe(200);
    };
    const half = await pendingOrder(100);
    await refund(t, half, 50);
    await complete(half, 100);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 65, pending: 0, lifetime: 65 });
    expect(await entries(t, m.id)).toEqual([
      ['earn', 50, null],
      ['campaign', 30, bonus.id],
      ['adjustment', -15, bonus.id],
    ]);
    // Refunded in full while pending: its completion leaves nothing of the campaign standing.
    const all = await pendingOrder(80);
    await refund(t, all);
    await complete(all, 80);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 65, pending: 0, lifetime: 65 });
  });

  it('a cancellation by reconciliation takes back the campaign points with the order’s', async () => {
    const t = await sandbox('bonus-cancel', 0);
    const bonus = await campaign(t, { type: 'bonus_points', points: 30 });
    const m = await newMember(t.key);
    const o = await order(t, m.id, 80);
    const now = (await call('GET', '/api/flash/clock', { token: t.token })).body.data.now;
    const res = await call('POST', '/api/v2/orders/batch', {
      token: t.key,
      body: { orders: [{ externalOrderId: o, memberId: m.id, currency: 'EUR', total: 80, status: 'cancelled', occurredAt: now }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.results[0]).toMatchObject({ outcome: 'updated' });
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });
    expect((await entries(t, m.id)).slice(2)).toEqual([
      ['adjustment', -80, null],
      ['adjustment', -30, bonus.id],
    ]);
  });
});
