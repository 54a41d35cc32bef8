import { describe, expect, it } from 'vitest';
import { orderAmounts } from '../../../../shared/orders/amounts';
import { TOTAL_RULES } from '../../../../shared/orders/earning-amount';
import { AppError } from '../../../../shared/platform/errors';

const giftCards = { basis: 'total' as const, exclude: { skus: ['GIFT'], categories: ['gift-cards'], discountedLines: false } };

/** The fields and messages of the 422 the input is refused with (none: accepted). */
function refusal(input: Parameters<typeof orderAmounts>[0], rules = TOTAL_RULES, prefix?: string): string[] {
  try {
    orderAmounts(input, rules, prefix);
    return [];
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 422) throw err;
    return (err.details as { field: string; message: string }[]).map((d) => `${d.field}: ${d.message}`);
  }
}

describe("an order's amounts in minor units", () => {
  it('a total-only order is its total and nothing else', () => {
    expect(orderAmounts({ currency: 'EUR', total: 59.9 }, TOTAL_RULES)).toEqual({ totalMinor: 5990, lines: [] });
  });

  it('every amount and line in minor units of its currency; a line is unitPrice x quantity - its discount', () => {
    const a = orderAmounts(
      {
        currency: 'EUR',
        total: 104.5,
        subtotal: 95.5,
        discount: 5,
        tax: 9,
        shipping: 5,
        items: [
          { sku: 'A', category: 'shoes', brand: 'Acme', quantity: 2, unitPrice: 40, discount: 4.5 },
          { sku: 'B', quantity: 1, unitPrice: 20 },
        ],
      },
      TOTAL_RULES,
    );
    expect(a).toEqual({
      totalMinor: 10_450,
      subtotalMinor: 9550,
      discountMinor: 500,
      taxMinor: 900,
      shippingMinor: 500,
      lines: [
        { sku: 'A', category: 'shoes', brand: 'Acme', amountMinor: 7550, discountMinor: 450 },
        { sku: 'B', amountMinor: 2000, discountMinor: 0 },
      ],
    });
    expect(orderAmounts({ currency: 'JPY', total: 1200, items: [{ quantity: 3, unitPrice: 400 }] }, TOTAL_RULES).lines).toEqual([
      { amountMinor: 1200, discountMinor: 0 },
    ]);
  });

  it('an unpriced line has no amount; an accepted subtotal need not be checked against it', () => {
    const a = orderAmounts(
      {
        currency: 'EUR',
        total: 10,
        subtotal: 10,
        items: [
          { sku: 'A', quantity: 1 },
          { quantity: 1, unitPrice: 3 },
        ],
      },
      TOTAL_RULES,
    );
    expect(a.lines).toEqual([
      { sku: 'A', discountMinor: 0 },
      { amountMinor: 300, discountMinor: 0 },
    ]);
  });

  it('refuses more decimals than the currency has, per field', () => {
    expect(refusal({ currency: 'EUR', total: 1.001 })).toEqual(['total: has more decimals than EUR allows']);
    expect(refusal({ currency: 'EUR', total: 1, subtotal: 1.001, discount: 0.001, tax: 0.001, shipping: 0.001 })).toEqual([
      'subtotal: has more decimals than EUR allows',
      'discount: has more decimals than EUR allows',
      'tax: has more decimals than EUR allows',
      'shipping: has more decimals than EUR allows',
    ]);
    expect(refusal({ currency: 'JPY', total: 1, items: [{ quantity: 1, unitPrice: 1.5, discount: 0.5 }] })).toEqual([
      'items.0.unitPrice: has more decimals than JPY allows',
      'items.0.discount: has more decimals than JPY allows',
    ]);
  });

  it('a given subtotal equals the priced lines it sums (unitPrice x quantity - item discount)', () => {
    const items = [
      { quantity: 2, unitPrice: 10, discount: 1 },
      { quantity: 1, unitPrice: 5 },
    ];
    expect(refusal({ currency: 'EUR', total: 24, subtotal: 24, items })).toEqual([]);
    expect(refusal({ currency: 'EUR', total: 25, subtotal: 25, items })).toEqual([
      'subtotal: is not the sum of the items (unitPrice x quantity - discount): 2400 minor units',
    ]);
    expect(refusal({ currency: 'EUR', total: 25, subtotal: 25, items: [] })).toEqual([]);
  });

  it('a discount within what it discounts', () => {
    expect(refusal({ currency: 'EUR', total: 0, subtotal: 10, discount: 10 })).toEqual([]);
    expect(refusal({ currency: 'EUR', total: 0, subtotal: 10, discount: 10.01 })).toEqual(['discount: is more than the subtotal']);
    expect(refusal({ currency: 'EUR', total: 0, discount: 4, items: [{ quantity: 1, unitPrice: 3 }] })).toEqual(['discount: is more than the subtotal']);
    expect(refusal({ currency: 'EUR', total: 0, discount: 4 })).toEqual([]); // no subtotal known: nothing to compare
    expect(refusal({ currency: 'EUR', total: 0, items: [{ quantity: 2, unitPrice: 3, discount: 6 }] })).toEqual([]);
    expect(refusal({ currency: 'EUR', total: 0, items: [{ quantity: 2, unitPrice: 3, discount: 6.01 }] })).toEqual([
      'items.0.discount: is more than unitPrice x quantity',
    ]);
    expect(refusal({ currency: 'EUR', total: 0, items: [{ quantity: 2, discount: 1 }] })).toEqual(['items.0.discount: needs the unitPrice of the item']);
  });

  it('a line of at most 1e12 in major units', () => {
    expect(refusal({ currency: 'EUR', total: 0, items: [{ quantity: 10, unitPrice: 1e11 }] })).toEqual([]);
    expect(refusal({ currency: 'EUR', total: 0, items: [{ quantity: 11, unitPrice: 1e11 }] })).toEqual(['items.0.quantity: unitPrice x quantity is over 1e12']);
    expect(refusal({ currency: 'JPY', total: 0, items: [{ quantity: 11, unitPrice: 1e11 }] })).toEqual(['items.0.quantity: unitPrice x quantity is over 1e12']);
  });

  it('an item the program excludes must carry its price; a priced one is accepted', () => {
    const unpriced = [
      { sku: 'GIFT', quantity: 1 },
      { category: 'gift-cards', quantity: 1 },
      { sku: 'MUG', quantity: 1 },
    ];
    expect(refusal({ currency: 'EUR', total: 10, items: unpriced }, giftCards)).toEqual([
      'items.0.unitPrice: is required: the program excludes this item from earning',
      'items.1.unitPrice: is required: the program excludes this item from earning',
    ]);
    expect(refusal({ currency: 'EUR', total: 10, items: unpriced })).toEqual([]);
    expect(refusal({ currency: 'EUR', total: 10, items: [{ sku: 'GIFT', quantity: 1, unitPrice: 10 }] }, giftCards)).toEqual([]);
  });

  it('names fields under a prefix (a batch item)', () => {
    expect(refusal({ currency: 'EUR', total: 1.001 }, TOTAL_RULES, 'orders.3.')).toEqual(['orders.3.total: has more decimals than EUR allows']);
  });
});
