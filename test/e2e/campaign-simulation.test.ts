import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, nextWeekday, orderId, tenant, type Tenant } from '../support/fixtures';

/**
 * The simulation is the grant engine: it takes an order as POST /api/v2/orders takes it, counts
 * what a real grant counts (the member's grants so far, budgets, pool stock) without writing, and
 * lists every order campaign with why it granted or not. Also: an order item's brand, and day
 * names checked when a campaign is saved.
 */

async function created(t: Tenant, body: Record<string, unknown>) {
  const res = await call('POST', '/api/flash/campaigns', { token: t.token, body: { status: 'active', trigger: { type: 'order' }, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const simulate = (t: Tenant, body: Record<string, unknown>) => call('POST', '/api/flash/campaigns/simulate', { token: t.token, body });

type Listed = { campaignId: string; outcome: string; granted: boolean; points: number; reason: string; condition: unknown };
const outcomes = (data: { campaigns: Listed[] }) => Object.fromEntries(data.campaigns.map((c) => [c.campaignId, c.outcome]));

describe('campaign simulation lists why each campaign granted or not, as a real order would find it', () => {
  it('a real order body is simulated; limits, budgets and pool stock count as in the grant that follows; nothing is stored', async () => {
    const t = await tenant('simulation-engine');
    const m = await newMember(t.key);
    const pool = await call('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'Gift', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 1 },
    });
    expect(pool.status, JSON.stringify(pool.body)).toBe(201);
    const brand = await created(t, {
      name: 'Acme week',
      priority: 9,
      conditions: [{ field: 'order.items.brand', op: 'contains', value: 'Acme' }],
      effect: { type: 'bonus_points', points: 5 },
    });
    const gold = await created(t, {
      name: 'Gold only',
      priority: 8,
      conditions: [{ field: 'member.tier', op: 'eq', value: 'gold' }],
      effect: { type: 'bonus_points', points: 100 },
    });
    const once = await created(t, { name: 'Once', priority: 7, limits: { perMember: 1, totalPoints: null }, effect: { type: 'bonus_points', points: 3 } });
    const budget = await created(t, { name: 'Budget', priority: 6, limits: { perMember: null, totalPoints: 4 }, effect: { type: 'bonus_points', points: 4 } });
    const gift = await created(t, { name: 'Gift', priority: 5, effect: { type: 'coupon', poolId: pool.body.data.id } });
    const alone = await created(t, { name: 'Alone', priority: 1, stackable: false, effect: { type: 'bonus_points', points: 1000 } });
    const draft = await created(t, { name: 'Draft', status: 'draft', priority: 4, effect: { type: 'bonus_points', points: 1000 } });
    const later = await created(t, { name: 'Later', startsAt: '2099-01-01T00:00:00Z', priority: 3, effect: { type: 'bonus_points', points: 1000 } });
    await created(t, { name: 'Welcome', trigger: { type: 'member_created' }, effect: { type: 'bonus_points', points: 1000 } });

    const occurredAt = new Date().toISOString();
    const body = {
      externalOrderId: orderId('SIM'),
      member: { email: m.email },
      currency: 'EUR',
      total: 50,
      status: 'completed',
      items: [{ sku: 'KETTLE', name: 'Kettle', quantity: 1, unitPrice: 50, category: 'kitchen', brand: ' Acme ' }],
      occurredAt,
    };
    // The order exactly as POST /api/v2/orders takes it, the member found by e-mail.
    const before = await simulate(t, { order: body });
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.data).toMatchObject({ basePoints: 50, totalPoints: 62, memberId: m.id, occurredAt });
    expect(outcomes(before.body.data)).toEqual({
      [brand.id]: 'granted',
      [gold.id]: 'condition_failed',
      [once.id]: 'granted',
      [budget.id]: 'granted',
      [gift.id]: 'granted',
      [draft.id]: 'not_live',
      [later.id]: 'outside_window',
      [alone.id]: 'not_stackable',
    });
    expect(before.body.data.campaigns.map((c: Listed) => c.campaignId)).toEqual([brand.id, gold.id, once.id, budget.id, gift.id, draft.id, later.id, alone.id]);
    expect(before.body.data.campaigns[1]).toMatchObject({
      granted: false,
      points: 0,
      reason: 'Gold only: member.tier eq "gold" does not hold (member.tier: "bronze")',
      condition: { index: 0, field: 'member.tier', op: 'eq', value: 'gold' },
    });
    expect(before.body.data.campaigns[7].reason).toBe('Alone: applies alone, and Acme week, Once, Budget, Gift granted first');
    // Nothing stored by the simulation.
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });

    // The real order grants what the simulation said, each grant a ledger entry (the coupon an issue).
    const real = await call('POST', '/api/v2/orders', { token: t.key, body });
    expect(real.status, JSON.stringify(real.body)).toBe(201);
    expect(real.body.data.items[0].brand).toBe('Acme');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 62, pending: 0, lifetime: 62 });
    const coupons = await call('GET', `/api/v2/members/${m.id}/coupons`, { token: t.key });
    expect(coupons.body.data.map((c: { poolId: string }) => c.poolId)).toEqual([pool.body.data.id]);

    // Now the member has had Once, Budget is spent and the pool is empty: the simulation says so, and grants only the brand bonus.
    const after = await simulate(t, { order: { ...body, externalOrderId: orderId('SIM') } });
    expect(outcomes(after.body.data)).toMatchObject({
      [brand.id]: 'granted',
      [once.id]: 'member_limit',
      [budget.id]: 'budget_spent',
      [gift.id]: 'pool_empty',
      [alone.id]: 'not_stackable',
    });
    expect(after.body.data).toMatchObject({ basePoints: 50, totalPoints: 55, grants: [{ campaignId: brand.id, points: 5 }] });
    // The same order for a member with no history: Once would grant, the budget and pool are spent for everyone.
    const fresh = await simulate(t, { order: { total: 50, currency: 'EUR', items: [{ brand: 'Acme' }], occurredAt } });
    expect(fresh.body.data.memberId).toBeNull();
    expect(outcomes(fresh.body.data)).toMatchObject({ [once.id]: 'granted', [budget.id]: 'budget_spent', [gift.id]: 'pool_empty' });
    // A second real order gets what the simulation said.
    const second = await call('POST', '/api/v2/orders', { token: t.key, body: { ...body, externalOrderId: orderId('SIM') } });
    expect(second.status).toBe(201);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 117, pending: 0, lifetime: 117 });
  });

  it('picks the member by id or e-mail, refuses two different members and an unknown one', async () => {
    const t = await tenant('simulation-member');
    const [a, b] = [await newMember(t.key), await newMember(t.key)];
    const order = { total: 1, currency: 'EUR' };
    expect((await simulate(t, { order: { ...order, member: { email: a.email } }, memberId: a.id })).body.data.memberId).toBe(a.id);
    expect((await simulate(t, { order: { ...order, memberId: b.id } })).body.data.memberId).toBe(b.id);
    const both = await simulate(t, { order: { ...order, memberId: b.id }, memberId: a.id });
    expect(both.status).toBe(422);
    expect(both.body.error.details).toEqual([expect.objectContaining({ field: 'memberId' })]);
    expect((await simulate(t, { order: { ...order, member: { email: 'nobody@example.test' } } })).status).toBe(404);
    expect((await simulate(t, { order: { ...order, member: { email: a.email, externalId: 'x' } } })).status).toBe(422);
  });
});

describe('date.weekday values are day names', () => {
  it('a misspelt day is a 422 naming the value, on create and on change; day names in any case are stored in lower case', async () => {
    const t = await tenant('campaign-weekday');
    const weekday = (op: string, value: unknown) => ({ conditions: [{ field: 'date.weekday', op, value }] });
    const bad = await call('POST', '/api/flash/campaigns', {
      token: t.token,
      body: { name: 'Weekend', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 1 }, ...weekday('in', ['Saturday', 'Sundy']) },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'conditions.0.value', message: expect.stringContaining('Sundy') })]);
    expect((await call('GET', '/api/flash/campaigns', { token: t.token })).body.data).toEqual([]);

    const c = await created(t, { name: 'Weekend', effect: { type: 'bonus_points', points: 1 }, ...weekday('in', ['Saturday', 'SUNDAY']) });
    expect(c.conditions).toEqual([{ field: 'date.weekday', op: 'in', value: ['saturday', 'sunday'] }]);
    // A Saturday order (UTC) earns it: the coming Saturday (a past one may be older than the backdating limit).
    const saturday = await simulate(t, { order: { total: 1, currency: 'EUR', occurredAt: nextWeekday(6, 12) } });
    expect(outcomes(saturday.body.data)).toEqual({ [c.id]: 'granted' });

    const misspelt = await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: weekday('eq', 'Fryday') });
    expect(misspelt.status).toBe(422);
    expect(misspelt.body.error.details).toEqual([expect.objectContaining({ field: 'conditions.0.value' })]);
    const changed = await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: weekday('eq', 'Friday') });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.conditions).toEqual([{ field: 'date.weekday', op: 'eq', value: 'friday' }]);
  });
});
