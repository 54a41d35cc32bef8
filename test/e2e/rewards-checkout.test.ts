import { describe, expect, it } from 'vitest';
import { call, createKey } from '../support/api';
import { balanceOf, tenant, type Tenant } from '../support/fixtures';
import { memberWith, newPool, newReward, redeemed } from '../support/rewards';

/** A redemption at the shop's checkout: checked against a cart (an answer either way), then used on an order, once. */

const validate = (t: Tenant, body: Record<string, unknown>, token = t.key) => call('POST', '/api/v2/rewards/validate', { token, body });
const use = (t: Tenant, redemptionId: string, externalOrderId: string, headers?: Record<string, string>) =>
  call('POST', `/api/v2/redemptions/${redemptionId}/use`, { token: t.key, body: { externalOrderId }, headers });

const cart = (over: Record<string, unknown> = {}) => ({
  currency: 'EUR',
  lines: [
    { sku: 'MUG', category: 'kitchen', quantity: 2, unitPrice: 1250 },
    { sku: 'TEA', quantity: 1, unitPrice: 749 },
  ],
  shipping: 495,
  ...over,
});

async function checked(t: Tenant, body: Record<string, unknown>): Promise<any> {
  const res = await validate(t, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('checking a redemption against a cart', () => {
  it('answers the exact discount by code (any case) or id, and why not otherwise', async () => {
    const t = await tenant('checkout-validate');
    const pool = await newPool(t);
    const reward = await newReward(t, { couponPoolId: pool.id, minimumSpend: { amount: 3249, currency: 'EUR' }, validityDays: 30 });
    const ada = await memberWith(t, 500);
    const bob = await memberWith(t, 500);
    const r = await redeemed(t, reward.id, ada.id);
    expect(r).toMatchObject({ status: 'issued', usedAt: null, externalOrderId: null, couponCode: expect.stringMatching(/^RW-/) });

    const applies = { applies: true, discount: { amount: 500, currency: 'EUR' }, redemptionId: r.id, rewardId: reward.id, benefit: reward.benefit };
    // Subtotal 2 x 12.50 + 7.49 = 32.49: exactly the minimum spend.
    expect(await checked(t, { code: r.couponCode.toLowerCase(), memberId: ada.id, cart: cart() })).toEqual(applies);
    expect(await checked(t, { redemptionId: r.id, memberId: ada.id, cart: cart() })).toEqual(applies);
    // A fixed discount is at most the subtotal... which the minimum spend here keeps above it; shipping never counts toward it.
    const short = cart({ lines: [{ sku: 'TEA', quantity: 1, unitPrice: 3248 }], shipping: 10_000 });
    expect(await checked(t, { code: r.couponCode, memberId: ada.id, cart: short })).toEqual({
      applies: false,
      reason: 'MINIMUM_SPEND',
      message: "The cart's subtotal 3248 is under the minimum spend of 3249",
    });
    expect(await checked(t, { code: r.couponCode, memberId: ada.id, cart: cart({ currency: 'USD' }) })).toMatchObject({
      applies: false,
      reason: 'CURRENCY_MISMATCH',
    });
    expect(await checked(t, { code: r.couponCode, memberId: bob.id, cart: cart() })).toMatchObject({ applies: false, reason: 'WRONG_MEMBER' });
    expect(await checked(t, { code: 'RW-NOSUCHCODE', memberId: ada.id, cart: cart() })).toMatchObject({ applies: false, reason: 'NOT_FOUND' });
    expect(await checked(t, { redemptionId: 'rdm_01jpz8y6a8c0e2g4j6m8p0r2sd', memberId: ada.id, cart: cart() })).toMatchObject({
      applies: false,
      reason: 'NOT_FOUND',
    });

    // A code of another workspace is unknown here.
    const other = await tenant('checkout-validate-other');
    expect(await checked(other, { code: r.couponCode, memberId: ada.id, cart: cart() })).toMatchObject({ applies: false, reason: 'NOT_FOUND' });

    // The terms are the reward's as redeemed: a later edit changes new redemptions only.
    const edit = await call('PATCH', `/api/v2/rewards/${reward.id}`, {
      token: t.key,
      body: { benefit: { type: 'fixed_discount', amount: 900, currency: 'EUR' }, minimumSpend: null },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await checked(t, { redemptionId: r.id, memberId: ada.id, cart: cart() })).discount).toEqual({ amount: 500, currency: 'EUR' });
    const later = await redeemed(t, reward.id, bob.id);
    expect((await checked(t, { redemptionId: later.id, memberId: bob.id, cart: short })).discount).toEqual({ amount: 900, currency: 'EUR' });
  });

  it('works each benefit out in minor units: percent half up under its cap, shipping, one unit of a free product', async () => {
    const t = await tenant('checkout-benefits');
    const m = await memberWith(t, 1000);
    const check = async (benefit: Record<string, unknown>, c: Record<string, unknown>) => {
      const r = await redeemed(t, (await newReward(t, { benefit })).id, m.id);
      return checked(t, { redemptionId: r.id, memberId: m.id, cart: c });
    };
    // 15 % of 10.10 is 1.515: 152 minor units.
    const tenTen = cart({ lines: [{ sku: 'A', quantity: 1, unitPrice: 1010 }] });
    expect((await check({ type: 'percent_discount', percent: 15, maxDiscount: null }, tenTen)).discount).toEqual({ amount: 152, currency: 'EUR' });
    expect((await check({ type: 'percent_discount', percent: 15, maxDiscount: { amount: 150, currency: 'EUR' } }, tenTen)).discount).toEqual({
      amount: 150,
      currency: 'EUR',
    });
    expect((await check({ type: 'free_shipping' }, cart())).discount).toEqual({ amount: 495, currency: 'EUR' });
    expect((await check({ type: 'free_shipping' }, cart({ shipping: undefined }))).discount).toEqual({ amount: 0, currency: 'EUR' });
    expect((await check({ type: 'free_product', sku: 'MUG' }, cart())).discount).toEqual({ amount: 1250, currency: 'EUR' });
    expect(await check({ type: 'free_product', sku: 'CAP' }, cart())).toEqual({ applies: false, reason: 'NO_MATCHING_LINE', message: 'The cart holds no CAP' });
    expect((await check({ type: 'fixed_discount', amount: 5000, currency: 'EUR' }, tenTen)).discount).toEqual({ amount: 1010, currency: 'EUR' });
  });

  it('refuses bad input with 422 and reads with rewards:read alone', async () => {
    const t = await tenant('checkout-input');
    const m = await memberWith(t, 0);
    for (const body of [
      { memberId: m.id, cart: cart() },
      { code: 'X', redemptionId: 'rdm_01jpz8y6a8c0e2g4j6m8p0r2sd', memberId: m.id, cart: cart() },
      { code: 'X', memberId: m.id, cart: cart({ lines: [] }) },
      { code: 'X', memberId: m.id, cart: cart({ lines: [{ sku: 'A', quantity: 1, unitPrice: -1 }] }) },
      { code: 'X', memberId: m.id, cart: cart({ lines: [{ sku: 'A', quantity: 1, unitPrice: 1.5 }] }) },
      { code: 'X', memberId: m.id, cart: cart({ currency: 'eur' }) },
    ]) {
      expect((await validate(t, body)).status, JSON.stringify(body)).toBe(422);
    }
    const read = await createKey(t.token, { name: 'read', scopes: ['rewards:read'] });
    expect((await validate(t, { code: 'X', memberId: m.id, cart: cart() }, read.key)).status).toBe(200);
    const res = await call('POST', '/api/v2/redemptions/rdm_01jpz8y6a8c0e2g4j6m8p0r2sd/use', { token: read.key, body: { externalOrderId: 'A-1' } });
    expect(res.status).toBe(403);
  });
});

describe('using a redemption on an order', () => {
  it('marks it used with its code redeemed, once: the same order again is the same answer, another order 409', async () => {
    const t = await tenant('checkout-use');
    const pool = await newPool(t);
    const reward = await newReward(t, { couponPoolId: pool.id });
    const m = await memberWith(t, 500);
    const r = await redeemed(t, reward.id, m.id);

    const first = await use(t, r.id, 'WEB-1', { 'Idempotency-Key': 'use-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toEqual({ ...r, status: 'used', usedAt: expect.any(String), externalOrderId: 'WEB-1' });
    expect((await use(t, r.id, 'WEB-1', { 'Idempotency-Key': 'use-1' })).body.data).toEqual(first.body.data);
    expect((await use(t, r.id, 'WEB-1')).body.data).toEqual(first.body.data);
    const again = await use(t, r.id, 'WEB-2');
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'REDEMPTION_USED', message: 'The redemption was already used on order WEB-1' });

    const coupons = await call('GET', `/api/v2/members/${m.id}/coupons`, { token: t.key });
    expect(coupons.body.data).toEqual([expect.objectContaining({ id: r.couponId, status: 'redeemed', redemption: { externalOrderId: 'WEB-1' } })]);
    expect(await checked(t, { code: r.couponCode, memberId: m.id, cart: cart() })).toMatchObject({ applies: false, reason: 'ALREADY_USED' });
    const list = await call('GET', `/api/v2/members/${m.id}/redemptions?status=used`, { token: t.key });
    expect(list.body.data).toEqual([first.body.data]);
    const voided = await call('POST', `/api/v2/redemptions/${r.id}/void`, { token: t.key });
    expect(voided.status).toBe(409);
    expect(voided.body.error.code).toBe('REDEMPTION_USED');
  });

  it('of concurrent uses on two orders, exactly one wins', async () => {
    const t = await tenant('checkout-race');
    const reward = await newReward(t);
    const m = await memberWith(t, 100);
    const r = await redeemed(t, reward.id, m.id);
    const answers = await Promise.all(['A', 'B', 'C', 'D'].map((o) => use(t, r.id, `RACE-${o}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!.body.data.externalOrderId;
    expect((await call('GET', `/api/v2/members/${m.id}/redemptions`, { token: t.key })).body.data[0].externalOrderId).toBe(winner);
    // A used redemption without a code is not voided either: its points stay spent.
    const voided = await call('POST', `/api/v2/redemptions/${r.id}/void`, { token: t.key });
    expect(voided.status).toBe(409);
    expect(voided.body.error).toMatchObject({ code: 'REDEMPTION_USED', message: `The redemption was used on order ${winner}; it cannot be voided` });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 0 });
  });

  it('refuses a voided redemption and an expired code, saying which', async () => {
    const t = await tenant('checkout-refused', { sandbox: true });
    const pool = await newPool(t);
    const reward = await newReward(t, { couponPoolId: pool.id, validityDays: 1 });
    const m = await memberWith(t, 500);
    const [gone, late] = [await redeemed(t, reward.id, m.id), await redeemed(t, reward.id, m.id)];
    expect((await call('POST', `/api/v2/redemptions/${gone.id}/void`, { token: t.key })).status).toBe(200);
    expect(await checked(t, { code: gone.couponCode, memberId: m.id, cart: cart() })).toMatchObject({ applies: false, reason: 'VOIDED' });
    const usedVoided = await use(t, gone.id, 'WEB-9');
    expect(usedVoided.status).toBe(409);
    expect(usedVoided.body.error.code).toBe('REDEMPTION_VOIDED');

    expect((await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days: 2 } })).status).toBe(200);
    expect(await checked(t, { code: late.couponCode, memberId: m.id, cart: cart() })).toMatchObject({ applies: false, reason: 'EXPIRED' });
    const expired = await use(t, late.id, 'WEB-10');
    expect(expired.status).toBe(410);
    expect(expired.body.error.code).toBe('COUPON_EXPIRED');
    expect((await call('GET', `/api/v2/members/${m.id}/redemptions?status=issued`, { token: t.key })).body.data).toEqual([late]);
  });
});
