import { describe, expect, it } from 'vitest';
import { type Cart, discountFor, percentOf, subtotalOf } from '../../../../shared/rewards/discount';

/** What a benefit takes off a cart, in minor units: pure, pinned to the unit. */

const cart = (over: Partial<Cart> = {}): Cart => ({
  currency: 'EUR',
  lines: [
    { sku: 'MUG', quantity: 2, unitPrice: 1250 },
    { sku: 'TEE', category: 'apparel', quantity: 1, unitPrice: 1999 },
  ],
  shipping: 495,
  ...over,
});
const fixed = (amount: number, currency = 'EUR') => ({ type: 'fixed_discount' as const, amount, currency });
const percent = (p: number, maxDiscount: { amount: number; currency: string } | null = null) => ({
  type: 'percent_discount' as const,
  percent: p,
  maxDiscount,
});
const eur = (amount: number) => ({ amount, currency: 'EUR' });
const off = (amount: number, currency = 'EUR') => ({ applies: true, discount: { amount, currency } });

describe('subtotalOf and percentOf', () => {
  it('sums quantity times unit price, shipping left out', () => {
    expect(subtotalOf(cart())).toBe(4499);
    expect(subtotalOf({ lines: [] })).toBe(0);
    expect(subtotalOf({ lines: [{ sku: 'A', quantity: 3, unitPrice: 7 }] })).toBe(21);
  });
  it('rounds half up to a whole minor unit', () => {
    expect(percentOf(4499, 10)).toBe(450); // 449.9
    expect(percentOf(1050, 1)).toBe(11); // 10.5: half goes up
    expect(percentOf(1049, 1)).toBe(10); // 10.49
    expect(percentOf(1051, 1)).toBe(11);
    expect(percentOf(149, 1)).toBe(1); // 1.49
    expect(percentOf(150, 1)).toBe(2); // 1.5
    expect(percentOf(999, 100)).toBe(999);
    expect(percentOf(0, 50)).toBe(0);
    expect(percentOf(1, 50)).toBe(1); // 0.5
  });
});

describe('discountFor', () => {
  it('takes a fixed amount off, at most the subtotal', () => {
    expect(discountFor(fixed(500), null, cart())).toEqual(off(500));
    expect(discountFor(fixed(4499), null, cart())).toEqual(off(4499));
    expect(discountFor(fixed(4500), null, cart())).toEqual(off(4499));
    expect(discountFor(fixed(10_000), null, cart({ lines: [{ sku: 'A', quantity: 1, unitPrice: 300 }] }))).toEqual(off(300));
  });

  it('takes a percent of the subtotal, half up, capped by maxDiscount', () => {
    expect(discountFor(percent(10), null, cart())).toEqual(off(450));
    expect(discountFor(percent(10, eur(450)), null, cart())).toEqual(off(450));
    expect(discountFor(percent(10, eur(449)), null, cart())).toEqual(off(449));
    expect(discountFor(percent(10, eur(451)), null, cart())).toEqual(off(450));
    expect(discountFor(percent(100), null, cart())).toEqual(off(4499));
    expect(discountFor(percent(15), null, cart({ lines: [{ sku: 'A', quantity: 1, unitPrice: 10 }] }))).toEqual(off(2)); // 1.5
    expect(discountFor(percent(15), null, cart({ lines: [{ sku: 'A', quantity: 1, unitPrice: 9 }] }))).toEqual(off(1)); // 1.35
  });

  it('gives the shipping, zero without any', () => {
    expect(discountFor({ type: 'free_shipping' }, null, cart())).toEqual(off(495));
    expect(discountFor({ type: 'free_shipping' }, null, cart({ shipping: 0 }))).toEqual(off(0));
    expect(discountFor({ type: 'free_shipping' }, null, cart({ shipping: undefined }))).toEqual(off(0));
  });

  it('gives one unit of the product, at its lowest price in the cart', () => {
    expect(discountFor({ type: 'free_product', sku: 'MUG' }, null, cart())).toEqual(off(1250));
    const twice = cart({ lines: [...cart().lines, { sku: 'MUG', quantity: 1, unitPrice: 990 }, { sku: 'MUG', quantity: 1, unitPrice: 1100 }] });
    expect(discountFor({ type: 'free_product', sku: 'MUG' }, null, twice)).toEqual(off(990));
    expect(discountFor({ type: 'free_product', sku: 'CAP' }, null, cart())).toEqual({
      applies: false,
      reason: 'NO_MATCHING_LINE',
      message: 'The cart holds no CAP',
    });
    expect(discountFor({ type: 'free_product', sku: 'mug' }, null, cart()).applies).toBe(false);
  });

  it('applies at exactly the minimum spend, not a minor unit under; shipping does not count', () => {
    expect(discountFor(fixed(500), eur(4499), cart())).toEqual(off(500));
    expect(discountFor(fixed(500), eur(4500), cart())).toEqual({
      applies: false,
      reason: 'MINIMUM_SPEND',
      message: "The cart's subtotal 4499 is under the minimum spend of 4500",
    });
    expect(discountFor({ type: 'free_shipping' }, eur(4500), cart({ shipping: 10_000 })).applies).toBe(false);
  });

  it('refuses money of the terms in another currency than the cart, before anything else', () => {
    expect(discountFor(fixed(500, 'USD'), null, cart())).toEqual({
      applies: false,
      reason: 'CURRENCY_MISMATCH',
      message: 'The discount is in USD, the cart in EUR',
    });
    expect(discountFor(percent(10, { amount: 100, currency: 'USD' }), null, cart())).toEqual({
      applies: false,
      reason: 'CURRENCY_MISMATCH',
      message: 'The maximum discount is in USD, the cart in EUR',
    });
    expect(discountFor({ type: 'free_shipping' }, { amount: 1, currency: 'USD' }, cart())).toEqual({
      applies: false,
      reason: 'CURRENCY_MISMATCH',
      message: 'The minimum spend is in USD, the cart in EUR',
    });
    // A currency mismatch is said even when the spend is short too.
    expect((discountFor(fixed(500, 'USD'), eur(1_000_000), cart()) as { reason: string }).reason).toBe('CURRENCY_MISMATCH');
    // Terms in the cart's currency apply in it.
    expect(discountFor(fixed(500, 'USD'), { amount: 100, currency: 'USD' }, cart({ currency: 'USD' }))).toEqual(off(500, 'USD'));
    expect(discountFor(percent(10, null), eur(1), cart())).toEqual(off(450));
  });
});
