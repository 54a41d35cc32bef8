import { describe, expect, it } from 'vitest';
import {
  afterOrderDiscount,
  basisAmount,
  earnAmountRules,
  earningAmount,
  excludedAmount,
  isExcluded,
  linePointsOf,
  matchingAmount,
  subtotalOf,
  TOTAL_RULES,
  type EarnAmountRules,
  type OrderAmounts,
  type OrderLine,
} from '../../../../shared/orders/earning-amount';

const line = (amountMinor: number | undefined, more: Partial<OrderLine> = {}): OrderLine => ({
  discountMinor: 0,
  ...(amountMinor === undefined ? {} : { amountMinor }),
  ...more,
});
const NONE = { skus: [], categories: [], discountedLines: false };
const net: EarnAmountRules = { basis: 'net', exclude: NONE };
const giftCards: EarnAmountRules = { basis: 'net', exclude: { skus: ['GIFT-50'], categories: ['gift-cards'], discountedLines: false } };

// A basket: 80.00 of shoes, 20.00 of socks, a 50.00 gift card; 15.00 order discount, 12.00 shipping, 9.00 tax.
const basket: OrderAmounts = {
  totalMinor: 15_600,
  subtotalMinor: 15_000,
  discountMinor: 1500,
  taxMinor: 900,
  shippingMinor: 1200,
  lines: [
    line(8000, { sku: 'SHOE-1', category: 'shoes', brand: 'Acme' }),
    line(2000, { sku: 'SOCK-1', category: 'socks', brand: 'Other' }),
    line(5000, { sku: 'GIFT-50', category: 'gift-cards' }),
  ],
};

describe('what an order earns on', () => {
  it('total basis: the total as sent, whatever else the order says (what every order earned before)', () => {
    expect(basisAmount(basket, 'total')).toBe(15_600);
    expect(earningAmount(basket, TOTAL_RULES)).toBe(15_600);
    expect(earningAmount({ totalMinor: 5990, lines: [] }, TOTAL_RULES)).toBe(5990);
    expect(earningAmount({ totalMinor: 5990, lines: [line(2995), line(undefined)] }, TOTAL_RULES)).toBe(5990);
  });

  it('net basis: subtotal - discount, no tax and no shipping', () => {
    expect(basisAmount(basket, 'net')).toBe(13_500);
    expect(earningAmount(basket, net)).toBe(13_500);
  });

  it('net basis without a subtotal: the priced lines make it; unpriced lines leave total - tax - shipping', () => {
    const { subtotalMinor: _s, ...noSubtotal } = basket;
    expect(basisAmount(noSubtotal, 'net')).toBe(13_500);
    const unpriced = { ...noSubtotal, lines: [line(8000), line(undefined)] };
    expect(basisAmount(unpriced, 'net')).toBe(15_600 - 900 - 1200);
    expect(basisAmount({ totalMinor: 1000, lines: [] }, 'net')).toBe(1000);
    expect(basisAmount({ totalMinor: 1000, taxMinor: 100, lines: [] }, 'net')).toBe(900);
    expect(basisAmount({ totalMinor: 1000, shippingMinor: 250, lines: [] }, 'net')).toBe(750);
  });

  it('never below zero', () => {
    expect(earningAmount({ totalMinor: 100, taxMinor: 300, lines: [] }, net)).toBe(0);
    expect(earningAmount({ totalMinor: 100, lines: [line(500, { sku: 'GIFT-50' })] }, { basis: 'total', exclude: giftCards.exclude })).toBe(0);
  });

  it('the subtotal: as given, else the sum of the lines when every line is priced', () => {
    expect(subtotalOf(basket)).toBe(15_000);
    expect(subtotalOf({ totalMinor: 0, lines: [line(100), line(250)] })).toBe(350);
    expect(subtotalOf({ totalMinor: 0, lines: [line(100), line(undefined)] })).toBeUndefined();
    expect(subtotalOf({ totalMinor: 0, lines: [] })).toBeUndefined();
    expect(subtotalOf({ totalMinor: 0, subtotalMinor: 7, lines: [] })).toBe(7);
  });
});

describe('the order discount spread over the lines', () => {
  it('in proportion to the subtotal, its share rounded down', () => {
    expect(afterOrderDiscount(5000, basket)).toBe(5000 - 500); // a third of the subtotal carries a third of 15.00
    expect(afterOrderDiscount(2000, basket)).toBe(2000 - 200);
    expect(afterOrderDiscount(15_000, basket)).toBe(13_500); // the whole subtotal carries the whole discount
    expect(afterOrderDiscount(1, { totalMinor: 0, subtotalMinor: 3, discountMinor: 2, lines: [] })).toBe(1); // share 2/3 rounds down to 0
    expect(afterOrderDiscount(2, { totalMinor: 0, subtotalMinor: 3, discountMinor: 2, lines: [] })).toBe(1); // share 4/3 -> 1
  });

  it('no discount, no subtotal or a zero subtotal: the amount as it is', () => {
    expect(afterOrderDiscount(5000, { ...basket, discountMinor: 0 })).toBe(5000);
    expect(afterOrderDiscount(5000, { totalMinor: 0, discountMinor: 100, lines: [line(undefined)] })).toBe(5000);
    expect(afterOrderDiscount(5000, { totalMinor: 0, subtotalMinor: 0, discountMinor: 100, lines: [] })).toBe(5000);
  });

  it('is exact for amounts past 2^53 when multiplied', () => {
    const big = { totalMinor: 0, subtotalMinor: 100_000_000_000_000, discountMinor: 99_999_999_999_999, lines: [] };
    expect(afterOrderDiscount(99_999_999_999_999, big)).toBe(99_999_999_999_999 - 99_999_999_999_998);
  });
});

describe('exclusions', () => {
  it('by SKU, by category, or a line with its own discount when the program says so', () => {
    expect(isExcluded(line(1, { sku: 'GIFT-50' }), giftCards.exclude)).toBe(true);
    expect(isExcluded(line(1, { category: 'gift-cards' }), giftCards.exclude)).toBe(true);
    expect(isExcluded(line(1, { sku: 'SHOE-1', category: 'shoes' }), giftCards.exclude)).toBe(false);
    expect(isExcluded(line(1), giftCards.exclude)).toBe(false);
    const discounted = line(1, { discountMinor: 1 });
    expect(isExcluded(discounted, NONE)).toBe(false);
    expect(isExcluded(discounted, { ...NONE, discountedLines: true })).toBe(true);
    expect(isExcluded(line(1, { discountMinor: 0 }), { ...NONE, discountedLines: true })).toBe(false);
  });

  it('an excluded line takes its amount after its share of the order discount off the basis', () => {
    expect(excludedAmount(basket, giftCards.exclude)).toBe(4500);
    expect(earningAmount(basket, giftCards)).toBe(13_500 - 4500);
    expect(earningAmount(basket, { basis: 'total', exclude: giftCards.exclude })).toBe(15_600 - 4500);
    expect(excludedAmount(basket, NONE)).toBe(0);
  });

  it('several excluded lines are summed before the discount share is taken (one rounding)', () => {
    const a: OrderAmounts = { totalMinor: 3, subtotalMinor: 3, discountMinor: 2, lines: [line(1, { sku: 'X' }), line(1, { sku: 'X' }), line(1)] };
    expect(excludedAmount(a, { ...NONE, skus: ['X'] })).toBe(2 - 1);
  });
});

describe('the lines a campaign rewards', () => {
  const shoes = (l: OrderLine) => l.category === 'shoes';
  it('the matching lines after their share of the order discount', () => {
    expect(matchingAmount(basket, net, shoes)).toBe(8000 - 800);
    expect(matchingAmount(basket, net, (l) => l.brand === 'Acme' || l.brand === 'Other')).toBe(10_000 - 1000);
    expect(matchingAmount(basket, net, () => false)).toBe(0);
  });

  it('excluded lines earn no bonus either', () => {
    expect(matchingAmount(basket, giftCards, (l) => l.category === 'gift-cards')).toBe(0);
    expect(matchingAmount(basket, giftCards, () => true)).toBe(9000);
  });

  it('never more than the order earns on', () => {
    const small = { ...basket, totalMinor: 1000 };
    expect(matchingAmount(small, TOTAL_RULES, shoes)).toBe(1000);
  });

  it('unknown when a matching line has no price; unpriced lines that do not match do not matter', () => {
    const a: OrderAmounts = { totalMinor: 3000, lines: [line(undefined, { category: 'shoes' }), line(2000, { category: 'socks' })] };
    expect(matchingAmount(a, TOTAL_RULES, shoes)).toBeUndefined();
    expect(matchingAmount(a, TOTAL_RULES, (l) => l.category === 'socks')).toBe(2000);
  });
});

describe("an order's earn snapshot", () => {
  it('absent basis and exclusions are the default: the total, every line', () => {
    expect(earnAmountRules({ pointsPerUnit: 1, rounding: 'floor' })).toEqual(TOTAL_RULES);
    expect(earnAmountRules({ pointsPerUnit: 1, rounding: 'floor', basis: 'net', exclude: giftCards.exclude })).toEqual(giftCards);
  });
});

describe('the line points an order offers its campaigns', () => {
  it('the matching lines earn under the order rule (rate and rounding); unknown stays unknown', () => {
    const points = linePointsOf(basket, 'EUR', { pointsPerUnit: 1.5, rounding: 'floor', basis: 'net' });
    expect(points((l) => l.category === 'shoes')).toBe(108); // 72.00 x 1.5
    expect(points((l) => l.category === 'socks')).toBe(27); // 18.00 x 1.5
    expect(linePointsOf(basket, 'EUR', { pointsPerUnit: 1, rounding: 'ceil' })((l) => l.sku === 'SOCK-1')).toBe(18);
    const unpriced: OrderAmounts = { totalMinor: 1000, lines: [line(undefined, { category: 'shoes' })] };
    expect(linePointsOf(unpriced, 'EUR', { pointsPerUnit: 1, rounding: 'floor' })((l) => l.category === 'shoes')).toBeUndefined();
  });
});
