import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, orderId, tenant, type Tenant } from '../support/fixtures';

/** Within the program's backdating limit, so order campaigns grant on it. */
const RECENT = new Date(Date.now() - 3_600_000).toISOString();

/**
 * Points on the right amounts, over HTTP on the local runtime: the program's basis (the total as
 * sent, or net of tax, shipping and discount), the lines it excludes, and the orders that send only
 * a total, which earn exactly as they always did.
 */
const order = (t: Tenant, body: Record<string, unknown>) =>
  call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId: orderId(), currency: 'EUR', occurredAt: RECENT, ...body } });

async function setEarn(t: Tenant, earn: Record<string, unknown>) {
  const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
  const res = await call('PUT', '/api/flash/program', { token: t.token, body: { earn: { ...current.earn, ...earn }, tiers: current.tiers } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

// 80.00 of shoes and a 50.00 gift card, 13.00 off the order, 4.90 shipping, 23.24 VAT on top: 145.14 to pay.
const basket = {
  total: 145.14,
  subtotal: 130,
  discount: 13,
  shipping: 4.9,
  tax: 23.24,
  items: [
    { sku: 'SHOE-1', category: 'shoes', brand: 'Acme', quantity: 2, unitPrice: 40 },
    { sku: 'GIFT-50', category: 'gift-cards', quantity: 1, unitPrice: 50 },
  ],
};

describe('what an order earns on', () => {
  it('by default the total as sent, whatever else the order says; an order with only a total earns it too', async () => {
    const t = await tenant('earn-total');
    const m = await newMember(t.key);
    const program = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    expect(program.earn).toMatchObject({
      basis: 'total',
      exclude: { skus: [], categories: [], discountedLines: false },
      caps: { baseDaily: null, baseMonthly: null, campaignDaily: null, campaignMonthly: null },
    });
    const full = await order(t, { memberId: m.id, ...basket });
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    expect(full.body.data).toMatchObject({ total: 145.14, earningAmount: 145.14, points: { earned: 145 } });
    const plain = await order(t, { memberId: m.id, total: 59.9, items: [{ sku: 'MUG', quantity: 2, unitPrice: 29.95 }] });
    expect(plain.body.data).toMatchObject({ total: 59.9, earningAmount: 59.9, points: { earned: 59 } });
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 204, pending: 0, lifetime: 204 });
  });

  it('net: subtotal - discount, without tax and shipping; a total-only order still earns its total', async () => {
    const t = await tenant('earn-net');
    const m = await newMember(t.key);
    await setEarn(t, { basis: 'net' });
    const res = await order(t, { memberId: m.id, ...basket });
    expect(res.body.data).toMatchObject({ total: 145.14, earningAmount: 117, points: { earned: 117 } });
    // Without a subtotal the priced items make it; without prices, the total less tax and shipping.
    const { subtotal: _s, ...fromItems } = basket;
    expect((await order(t, { memberId: m.id, ...fromItems })).body.data.points.earned).toBe(117);
    const unpriced = await order(t, { memberId: m.id, total: 145.14, tax: 23.24, shipping: 4.9, items: [{ sku: 'SHOE-1', quantity: 2 }] });
    expect(unpriced.body.data).toMatchObject({ earningAmount: 117, points: { earned: 117 } });
    const plain = await order(t, { memberId: m.id, total: 59.9 });
    expect(plain.body.data).toMatchObject({ earningAmount: 59.9, points: { earned: 59 } });
    expect((await balanceOf(t.key, m.id)).balance).toBe(117 * 3 + 59);
  });

  it("a refund takes back its share of the total of the order's points (a third of the total: a third of the points)", async () => {
    const t = await tenant('earn-refund');
    const m = await newMember(t.key);
    await setEarn(t, { basis: 'net' });
    const created = await order(t, { memberId: m.id, total: 150, subtotal: 120, tax: 30 });
    expect(created.body.data.points.earned).toBe(120);
    const ext = created.body.data.externalOrderId;
    const refund = await call('POST', `/api/v2/orders/${ext}/refund`, { token: t.key, body: { amount: 50 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body.data.refund.pointsReversed).toBe(40);
    expect((await balanceOf(t.key, m.id)).balance).toBe(80);
  });

  it('the amounts are checked together: 422 naming the field', async () => {
    const t = await tenant('earn-422');
    const m = await newMember(t.key);
    const items = [{ sku: 'A', quantity: 2, unitPrice: 10 }];
    const mismatch = await order(t, { memberId: m.id, total: 25, subtotal: 25, items });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.details).toEqual([expect.objectContaining({ field: 'subtotal', message: expect.stringContaining('2000 minor units') })]);
    const tooMuch = await order(t, { memberId: m.id, total: 0, subtotal: 20, discount: 21, items });
    expect(tooMuch.body.error.details).toEqual([expect.objectContaining({ field: 'discount', message: 'is more than the subtotal' })]);
    const decimals = await order(t, { memberId: m.id, total: 20, tax: 1.005 });
    expect(decimals.body.error.details).toEqual([expect.objectContaining({ field: 'tax', message: 'has more decimals than EUR allows' })]);
    const lineDiscount = await order(t, { memberId: m.id, total: 20, items: [{ sku: 'A', quantity: 1, unitPrice: 5, discount: 6 }] });
    expect(lineDiscount.body.error.details).toEqual([expect.objectContaining({ field: 'items.0.discount' })]);
    const brand = await order(t, { memberId: m.id, total: 20, items: [{ sku: 'A', quantity: 1, brand: '   ' }] });
    expect(brand.body.error.details).toEqual([expect.objectContaining({ field: 'items.0.brand' })]);
    expect((await balanceOf(t.key, m.id)).balance).toBe(0);
  });

  it('a reconciliation corrects the earning amount with the order under the rule it was recorded with', async () => {
    const t = await tenant('earn-reconcile');
    const m = await newMember(t.key);
    await setEarn(t, { basis: 'net' });
    const ext = orderId();
    const body = { externalOrderId: ext, memberId: m.id, currency: 'EUR', occurredAt: RECENT, status: 'completed' };
    const batch = (o: Record<string, unknown>) => call('POST', '/api/v2/orders/batch', { token: t.key, body: { orders: [{ ...body, ...o }] } });
    const first = await batch({ total: 120, subtotal: 100, tax: 20 });
    expect(first.body.data.results[0]).toMatchObject({ outcome: 'created', pointsDelta: 100 });
    await setEarn(t, { basis: 'total' });
    const corrected = await batch({ total: 60, subtotal: 50, tax: 10 });
    expect(corrected.body.data.results[0]).toMatchObject({ outcome: 'updated', pointsDelta: -50 });
    expect((await balanceOf(t.key, m.id)).balance).toBe(50);
    const refused = await batch({ total: 60, subtotal: 50.001, tax: 10, refundedTotal: 1 });
    expect(refused.body.data.results[0]).toMatchObject({ outcome: 'failed', error: { code: 'VALIDATION_FAILED' } });
  });
});

describe('lines that earn nothing', () => {
  it('gift cards by SKU or category earn nothing, after their share of the order discount', async () => {
    const t = await tenant('earn-exclude');
    const m = await newMember(t.key);
    await setEarn(t, { basis: 'net', exclude: { categories: ['gift-cards'] } });
    // net 117.00, of which the gift card is 50.00 less its share (5.00) of the 13.00 discount.
    const res = await order(t, { memberId: m.id, ...basket });
    expect(res.body.data).toMatchObject({ earningAmount: 72, points: { earned: 72 } });
    await setEarn(t, { basis: 'total', exclude: { skus: ['GIFT-50'] } });
    const onTotal = await order(t, { memberId: m.id, ...basket });
    expect(onTotal.body.data).toMatchObject({ earningAmount: 100.14, points: { earned: 100 } });
    // An order of only a gift card earns nothing.
    const giftOnly = await order(t, { memberId: m.id, total: 50, items: [{ sku: 'GIFT-50', quantity: 1, unitPrice: 50 }] });
    expect(giftOnly.body.data).toMatchObject({ earningAmount: 0, points: { earned: 0 } });
    expect((await balanceOf(t.key, m.id)).balance).toBe(172);
  });

  it('an excluded item must carry its price (422), and discounted lines can be excluded', async () => {
    const t = await tenant('earn-exclude-422');
    const m = await newMember(t.key);
    await setEarn(t, { exclude: { skus: ['GIFT-50'], discountedLines: true } });
    const unpriced = await order(t, {
      memberId: m.id,
      total: 70,
      items: [
        { sku: 'MUG', quantity: 1 },
        { sku: 'GIFT-50', quantity: 1 },
      ],
    });
    expect(unpriced.status).toBe(422);
    expect(unpriced.body.error.details).toEqual([
      expect.objectContaining({ field: 'items.1.unitPrice', message: expect.stringContaining('excludes this item') }),
    ]);
    const sale = await order(t, {
      memberId: m.id,
      total: 45,
      items: [
        { sku: 'MUG', quantity: 1, unitPrice: 20, discount: 5 },
        { sku: 'CUP', quantity: 1, unitPrice: 30 },
      ],
    });
    expect(sale.body.data).toMatchObject({ earningAmount: 30, points: { earned: 30 } });
  });

  it('the program refuses an exclusion list with a value twice or an empty value', async () => {
    const t = await tenant('earn-exclude-program');
    const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    const put = (earn: unknown) =>
      call('PUT', '/api/flash/program', { token: t.token, body: { earn: { ...current.earn, ...(earn as object) }, tiers: current.tiers } });
    const twice = await put({ exclude: { skus: ['A', 'A'] } });
    expect(twice.status).toBe(422);
    expect(twice.body.error.details).toEqual([expect.objectContaining({ field: 'earn.exclude.skus' })]);
    expect((await put({ exclude: { categories: [' '] } })).status).toBe(422);
    expect((await put({ basis: 'gross' })).status).toBe(422);
  });
});

describe('category, brand and SKU campaigns reward their lines', () => {
  const campaign = async (t: Tenant, body: Record<string, unknown>) => {
    const res = await call('POST', '/api/flash/campaigns', {
      token: t.token,
      body: { status: 'active', trigger: { type: 'order' }, stackable: true, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  const shoesAndSocks = {
    total: 100,
    items: [
      { sku: 'SHOE-1', category: 'shoes', brand: 'Acme', quantity: 2, unitPrice: 40 },
      { sku: 'SOCK-1', category: 'socks', brand: 'Other', quantity: 4, unitPrice: 5 },
    ],
  };

  it('2x on shoes doubles the shoes, not the basket; unpriced items fall back to the basket', async () => {
    const t = await tenant('earn-lines');
    const m = await newMember(t.key);
    await campaign(t, {
      name: 'Double shoes',
      conditions: [{ field: 'order.items.category', op: 'contains', value: 'shoes' }],
      effect: { type: 'multiplier', factor: 2 },
    });
    expect((await order(t, { memberId: m.id, ...shoesAndSocks })).status).toBe(201);
    expect((await balanceOf(t.key, m.id)).balance).toBe(100 + 80);
    await order(t, { memberId: m.id, total: 100, items: [{ sku: 'SHOE-1', category: 'shoes', quantity: 2 }] });
    expect((await balanceOf(t.key, m.id)).balance).toBe(180 + 200);
    await order(t, { memberId: m.id, total: 20, items: [{ sku: 'SOCK-1', category: 'socks', quantity: 4, unitPrice: 5 }] });
    expect((await balanceOf(t.key, m.id)).balance).toBe(380 + 20);
    const ledger = await call('GET', `/api/v2/members/${m.id}/points?limit=10`, { token: t.key });
    const campaignEntries = ledger.body.data.entries.filter((e: { source: { type: string } }) => e.source.type === 'campaign');
    expect(campaignEntries.map((e: { amount: number }) => e.amount).sort((a: number, b: number) => a - b)).toEqual([80, 100]);
  });

  it('by brand and by SKU, on what the lines earn: net of their share of the discount, excluded lines earning no bonus', async () => {
    const t = await tenant('earn-lines-net');
    const m = await newMember(t.key);
    await setEarn(t, { basis: 'net', exclude: { categories: ['gift-cards'] } });
    await campaign(t, {
      name: 'Acme triple',
      conditions: [{ field: 'order.items.brand', op: 'in', value: ['Acme'] }],
      effect: { type: 'multiplier', factor: 3 },
    });
    await campaign(t, {
      name: 'Gift bonus',
      conditions: [{ field: 'order.items.sku', op: 'contains', value: 'GIFT-50' }],
      effect: { type: 'multiplier', factor: 5 },
    });
    // Shoes earn 80.00 - 8.00 (their share of the 13.00 discount) = 72; the gift card earns nothing and so gets no bonus.
    const res = await order(t, { memberId: m.id, ...basket });
    expect(res.body.data.points.earned).toBe(72);
    expect((await balanceOf(t.key, m.id)).balance).toBe(72 + 144);
  });
});

describe('earning caps per member', () => {
  const caps = { baseDaily: null, baseMonthly: null, campaignDaily: null, campaignMonthly: null };

  it("an order past the day's or the month's cap earns what is left; a refund takes back from what it earned", async () => {
    const t = await tenant('earn-caps');
    const m = await newMember(t.key);
    await setEarn(t, { caps: { ...caps, baseDaily: 100, baseMonthly: 130 } });
    expect((await order(t, { memberId: m.id, total: 60 })).body.data.points.earned).toBe(60);
    const second = await order(t, { memberId: m.id, total: 60 });
    expect(second.body.data).toMatchObject({ earningAmount: 60, points: { earned: 40 } });
    expect((await order(t, { memberId: m.id, total: 60 })).body.data.points.earned).toBe(0);
    await setEarn(t, { caps: { ...caps, baseMonthly: 130 } });
    expect((await order(t, { memberId: m.id, total: 60 })).body.data.points.earned).toBe(30);
    expect((await balanceOf(t.key, m.id)).balance).toBe(130);
    const refund = await call('POST', `/api/v2/orders/${second.body.data.externalOrderId}/refund`, { token: t.key, body: {} });
    expect(refund.body.data.refund.pointsReversed).toBe(40);
    // The allowance a refund took back is not given again: the month stays at its cap.
    expect((await order(t, { memberId: m.id, total: 60 })).body.data.points.earned).toBe(0);
    expect((await balanceOf(t.key, m.id)).balance).toBe(90);
  });

  it('campaign rewards have caps of their own', async () => {
    const t = await tenant('earn-caps-campaign');
    const m = await newMember(t.key);
    await setEarn(t, { caps: { ...caps, campaignDaily: 80 } });
    const res = await call('POST', '/api/flash/campaigns', {
      token: t.token,
      body: { name: 'Fifty on top', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 50 } },
    });
    expect(res.status).toBe(201);
    for (let i = 0; i < 3; i++) await order(t, { memberId: m.id, total: 10 });
    const ledger = (await call('GET', `/api/v2/members/${m.id}/points?limit=20`, { token: t.key })).body.data;
    const rewards = ledger.entries.filter((e: { source: { type: string } }) => e.source.type === 'campaign').map((e: { amount: number }) => e.amount);
    expect(rewards.sort((a: number, b: number) => a - b)).toEqual([30, 50]);
    expect(ledger.balance).toBe(30 + 80);
    const campaign = (await call('GET', `/api/flash/campaigns/${res.body.data.id}`, { token: t.token })).body.data;
    expect(campaign).toMatchObject({ grants: 2, pointsGranted: 80 });
  });

  it('a burst of concurrent orders never passes the cap, not by one point', async () => {
    const t = await tenant('earn-caps-burst');
    const m = await newMember(t.key);
    await setEarn(t, { caps: { ...caps, baseDaily: 100 } });
    const answers = await Promise.all(Array.from({ length: 24 }, () => order(t, { memberId: m.id, total: 7 })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const earned = answers.map((a) => a.body.data.points.earned as number);
    expect(earned.reduce((s, p) => s + p, 0)).toBe(100);
    expect(earned.filter((p) => p === 2)).toHaveLength(1); // the one order that met the cap earned what was left
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 100, pending: 0, lifetime: 100 });
  });
});
