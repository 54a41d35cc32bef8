import { describe, expect, it } from 'vitest';
import { benefitOf, bodyOf, formOf } from '../../../../../../shared/console/screens/rewards/draft';
import { benefitInWords, cardBenefit, minorDigits, statusMoves, stockInWords } from '../../../../../../shared/console/screens/rewards/words';

describe('a reward in words', () => {
  it('says what it gives, in the currency’s own decimals', () => {
    expect(minorDigits('EUR')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(benefitInWords({ type: 'fixed_discount', amount: 500, currency: 'EUR' })).toMatch(/^€?\s?5[.,]00\s?€? off your order$/);
    expect(benefitInWords({ type: 'percent_discount', percent: 10, maxDiscount: null })).toBe('10% off your order');
    expect(benefitInWords({ type: 'percent_discount', percent: 10, maxDiscount: { amount: 2000, currency: 'EUR' } })).toMatch(
      /^10% off your order, up to .*20[.,]00/,
    );
    expect(benefitInWords({ type: 'free_shipping' })).toBe('Free shipping on your order');
    expect(benefitInWords({ type: 'free_product', sku: 'MUG' })).toBe('A free MUG');
    expect(cardBenefit({ type: 'percent_discount', percent: Number.NaN, maxDiscount: null })).toBe('…');
  });

  it('says the stock left and the moves a status offers', () => {
    expect(stockInWords({ stock: null, remaining: null })).toBe('Unlimited');
    expect(stockInWords({ stock: 50, remaining: 12 })).toBe('12 of 50 left');
    expect(statusMoves('draft').map((m) => m.to)).toEqual(['active', 'archived']);
    expect(statusMoves('active').map((m) => m.to)).toEqual(['paused', 'archived']);
    expect(statusMoves('paused').map((m) => m.to)).toEqual(['active', 'archived']);
    expect(statusMoves('archived')).toEqual([]);
  });
});

describe('the reward form', () => {
  it('sends amounts in minor units and blanks as none', () => {
    const form = { ...formOf(undefined), name: 'Mug', pointsCost: '500', amount: '5.5', currency: 'eur', stock: '', perMemberLimit: '2' };
    expect(bodyOf(form)).toEqual({
      name: 'Mug',
      description: null,
      imageUrl: null,
      pointsCost: 500,
      benefit: { type: 'fixed_discount', amount: 550, currency: 'EUR' },
      stock: null,
      perMemberLimit: 2,
    });
    expect(benefitOf({ ...form, type: 'percent_discount', percent: '15', maxDiscount: '20' })).toEqual({
      type: 'percent_discount',
      percent: 15,
      maxDiscount: { amount: 2000, currency: 'EUR' },
    });
    expect(Number.isNaN(bodyOf({ ...form, pointsCost: '' }).pointsCost)).toBe(true);
  });

  it('reads a reward back into the form in major units', () => {
    const reward = {
      ...({} as Parameters<typeof formOf>[0] & object),
      name: 'Tenth',
      description: null,
      imageUrl: null,
      pointsCost: 80,
      benefit: { type: 'percent_discount' as const, percent: 10, maxDiscount: { amount: 2000, currency: 'EUR' } },
      stock: 5,
      perMemberLimit: null,
      status: 'active' as const,
    };
    expect(formOf(reward)).toMatchObject({
      type: 'percent_discount',
      percent: '10',
      maxDiscount: '20',
      currency: 'EUR',
      stock: '5',
      perMemberLimit: '',
      status: 'active',
    });
  });
});
