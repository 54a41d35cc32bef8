import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';

/**
 * Expired points over HTTP on a sandbox clock: a spend racing the clock advance over an expiry date
 * takes only what is still valid, and a refund after the expiry does not take back the order's
 * expired points a second time (spent points still are).
 */

async function sandbox(label: string): Promise<Tenant> {
  const t = await tenant(label, { sandbox: true });
  const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
  const points = { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [], pendingDays: 0 };
  const res = await call('PUT', '/api/flash/program', { token: t.token, body: { earn: current.earn, tiers: current.tiers, points, timeZone: 'UTC' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return t;
}

async function advance(t: Tenant, days: number) {
  const res = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const change = (t: Tenant, memberId: string, type: 'earn' | 'deduct', amount: number) =>
  call('POST', `/api/v2/members/${memberId}/points`, { token: t.key, body: { type, amount, reason: `${type} ${amount}` } });

interface Entry {
  type: string;
  amount: number;
  balanceAfter: number;
  createdAt: string;
}

/** The balance, its lots and the whole ledger (oldest first); the entries sum to the balance. */
async function ledger(t: Tenant, memberId: string) {
  const res = await call('GET', `/api/v2/members/${memberId}/points?limit=100`, { token: t.key });
  expect(res.status).toBe(200);
  const data = res.body.data as { balance: number; lifetime: number; expiring: { points: number; expiresAt: string }[]; entries: Entry[] };
  expect(data.entries.reduce((s, e) => s + e.amount, 0)).toBe(data.balance);
  const sum = (type: string) => data.entries.filter((e) => e.type === type).reduce((s, e) => s - e.amount, 0);
  return { ...data, entries: [...data.entries].reverse(), spent: sum('deduct'), expired: sum('expire'), reversed: sum('refund_reversal') };
}

async function order(t: Tenant, memberId: string, total: number) {
  const externalOrderId = orderId('EXP');
  const res = await call('POST', '/api/v2/orders', {
    token: t.key,
    body: { externalOrderId, memberId, currency: 'EUR', total, occurredAt: new Date().toISOString() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return externalOrderId;
}

async function refund(t: Tenant, externalOrderId: string, amount?: number): Promise<number> {
  const res = await call('POST', `/api/v2/orders/${externalOrderId}/refund`, { token: t.key, body: amount === undefined ? {} : { amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.refund.pointsReversed;
}

describe('expired points are not spendable', () => {
  it('spends racing a clock advance over the expiry date take only the lots still valid; earned = spent + expired + held', async () => {
    const t = await sandbox('expiry-race');
    // Members whose lots expire before ours: the advance's due work settles them first, which keeps
    // the window between the clock's move and our member's expiry open long enough to race.
    for (let i = 0; i < 16; i += 8) {
      await Promise.all(Array.from({ length: 8 }, async () => change(t, (await newMember(t.key)).id, 'earn', 5)));
    }
    const m = await newMember(t.key);
    expect((await change(t, m.id, 'earn', 1000)).status).toBe(201); // lot A: expires at day 30
    await advance(t, 10);
    expect((await change(t, m.id, 'earn', 20)).status).toBe(201); // lot B: expires at day 40
    const expiresAt = Date.parse((await ledger(t, m.id)).expiring[0]!.expiresAt);

    let moved = false;
    const statuses = new Set<number>();
    const spends = async () => {
      let after = 0;
      // Spend until the advance answered and a few times after: no spend may take what expired.
      while (!moved || after++ < 3) statuses.add((await change(t, m.id, 'deduct', 10)).status);
    };
    await Promise.all([
      (async () => {
        await advance(t, 25); // day 35: lot A expired at day 30, lot B is valid until day 40
        moved = true;
      })(),
      spends(),
      spends(),
      spends(),
    ]);

    // Each spend was taken or refused for want of valid points (INSUFFICIENT_POINTS), nothing else.
    expect([...statuses].filter((s) => s !== 201 && s !== 409)).toEqual([]);
    const p = await ledger(t, m.id);
    expect(p.balance).toBeGreaterThanOrEqual(0);
    expect(p.spent + p.expired + p.balance).toBe(1020);
    const spentBefore = p.entries.filter((e) => e.type === 'deduct' && Date.parse(e.createdAt) < expiresAt).reduce((s, e) => s - e.amount, 0);
    const spentAfter = p.spent - spentBefore;
    // Spends before the expiry took from lot A (it expires first); all of its remainder expired, and
    // after the expiry only lot B's 20 points could be spent.
    expect(p.expired).toBe(1000 - spentBefore);
    expect(spentAfter).toBe(20);
    expect(p.balance).toBe(0);
    expect(p.expiring).toEqual([]);
    expect(p.entries.filter((e) => e.type === 'expire')).toEqual([expect.objectContaining({ amount: -(1000 - spentBefore) })]);
  });
});

describe('refunds after expiry', () => {
  it("a refund after the order's points expired takes nothing back: the member stays at 0, not -100", async () => {
    const t = await sandbox('refund-expired');
    const m = await newMember(t.key);
    const o = await order(t, m.id, 100);
    await advance(t, 31);
    expect(await ledger(t, m.id)).toMatchObject({ balance: 0, expired: 100, lifetime: 100 });

    expect(await refund(t, o)).toBe(0);
    const p = await ledger(t, m.id);
    expect(p).toMatchObject({ balance: 0, expired: 100, reversed: 0 });
    // The order's earning is still taken back from lifetime points (the tier metric).
    expect(p.lifetime).toBe(0);
    expect(p.entries.map((e) => e.type)).toEqual(['earn', 'expire']);
  });

  it('partial refunds after a partial expiry: the expired points are taken back first (not again), then the spent ones', async () => {
    const t = await sandbox('refund-partial');
    const m = await newMember(t.key);
    const o = await order(t, m.id, 100); // lot A: 100, expires at day 30
    expect((await change(t, m.id, 'deduct', 40)).status).toBe(201); // from lot A (it expires first)
    await advance(t, 10);
    await order(t, m.id, 50); // lot B: 50, expires at day 40
    await advance(t, 25); // day 35: what is left of lot A (60) expired
    expect(await ledger(t, m.id)).toMatchObject({ balance: 50, spent: 40, expired: 60 });

    // Half the order: its 50 points are among the 60 that already expired.
    expect(await refund(t, o, 50)).toBe(0);
    expect(await ledger(t, m.id)).toMatchObject({ balance: 50, reversed: 0 });
    // The other half: 10 more of it had expired; the 40 the member spent come back from lot B.
    expect(await refund(t, o, 50)).toBe(40);
    const p = await ledger(t, m.id);
    expect(p).toMatchObject({ balance: 10, spent: 40, expired: 60, reversed: 40, lifetime: 50 });
    expect(p.expiring.map((e) => e.points)).toEqual([10]);
    // earned = spent + expired + reversed + held
    expect(p.spent + p.expired + p.reversed + p.balance).toBe(150);
  });

  it('an order partly spent and partly expired, refunded whole: the spent points are still taken back (a debt), the expired ones not', async () => {
    const t = await sandbox('refund-spent-expired');
    const m = await newMember(t.key);
    const o = await order(t, m.id, 100);
    expect((await change(t, m.id, 'deduct', 30)).status).toBe(201);
    await advance(t, 31);
    expect(await ledger(t, m.id)).toMatchObject({ balance: 0, spent: 30, expired: 70 });

    expect(await refund(t, o)).toBe(30);
    const p = await ledger(t, m.id);
    expect(p).toMatchObject({ balance: -30, reversed: 30, lifetime: 0 });
    expect(p.entries.at(-1)).toMatchObject({ type: 'refund_reversal', amount: -30, balanceAfter: -30 });
  });
});
