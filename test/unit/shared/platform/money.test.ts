import { describe, expect, it } from 'vitest';
import { amountBand, amountSchema, currencyExponent, currencySchema, fromMinor, toMinor } from '../../../../shared/platform/money';

describe('money', () => {
  it('minor units per currency: 0, 2 or 3 decimals', () => {
    expect(['JPY', 'EUR', 'KWD', 'XYZ'].map(currencyExponent)).toEqual([0, 2, 3, 2]);
    expect(fromMinor(1999, 'EUR')).toBe(19.99);
    expect(fromMinor(1999, 'JPY')).toBe(1999);
    expect(fromMinor(1999, 'KWD')).toBe(1.999);
  });

  it('toMinor forgives float noise in proportion to the amount, never a real extra decimal', () => {
    // 1e9 + 0.1 + 0.2 is 1000000000.3000001 in floating point: noise of ~1e-7 on a billion.
    expect(toMinor(1e9 + 0.1 + 0.2, 'EUR')).toBe(100_000_000_030);
    expect(toMinor(0.1 + 0.2, 'EUR')).toBe(30);
    expect(toMinor(1234.567, 'EUR')).toBeUndefined();
    expect(toMinor(0.005, 'EUR')).toBeUndefined();
    expect(toMinor(1.5, 'KWD')).toBe(1500);
  });

  it('the noise allowance is two units in the last place: a real extra decimal is refused at any size', () => {
    expect(toMinor(1e-9, 'EUR')).toBeUndefined();
    expect(toMinor(1e-10, 'EUR')).toBeUndefined();
    expect(toMinor(1e-15, 'EUR')).toBeUndefined();
    expect(toMinor(123456789.123, 'EUR')).toBeUndefined();
    expect(toMinor(1e9 + 0.001, 'EUR')).toBeUndefined();
    expect(toMinor(999999999999.999, 'EUR')).toBeUndefined();
    expect(toMinor(999999999999.5, 'JPY')).toBeUndefined();
    expect(toMinor(1.0005, 'KWD')).toBeUndefined();
    expect(toMinor(-19.999, 'EUR')).toBeUndefined();
    // Binary noise of decimals the currency has is not an extra decimal.
    expect(toMinor(0.1 + 0.7, 'EUR')).toBe(80);
    expect(toMinor(4.35, 'EUR')).toBe(435);
    expect(toMinor(1.15, 'EUR')).toBe(115);
    expect(toMinor(999999999999.99, 'EUR')).toBe(99999999999999);
    expect(toMinor(999999999999.999, 'KWD')).toBe(999999999999999);
    expect(toMinor(-19.99, 'EUR')).toBe(-1999);
    // The allowance scales with the amount (two units in the last place), not with the currency.
    expect(toMinor(1 + 2 * Number.EPSILON, 'EUR')).toBe(100);
    expect(toMinor(1 + 4 * Number.EPSILON, 'EUR')).toBeUndefined();
    expect(toMinor(0.5 + 2 * Number.EPSILON, 'EUR')).toBeUndefined();
    expect(toMinor(0, 'EUR')).toBe(0);
  });

  it('bands: each band includes its lower bound and excludes its upper one', () => {
    expect(amountBand(0, 'EUR')).toBe('0-10 EUR');
    expect(amountBand(999, 'EUR')).toBe('0-10 EUR');
    expect(amountBand(1000, 'EUR')).toBe('10-25 EUR');
    expect(amountBand(2500, 'EUR')).toBe('25-50 EUR');
    expect(amountBand(99_999, 'EUR')).toBe('500-1000 EUR');
    expect(amountBand(100_000, 'EUR')).toBe('1000+ EUR');
    expect(amountBand(1000, 'JPY')).toBe('1000+ JPY'); // 1000 yen, not 10.00
  });

  it('currency codes are exactly three upper-case letters', () => {
    expect(currencySchema.safeParse('EUR').success).toBe(true);
    for (const bad of ['EURO', 'XEUR', 'eur', 'EU', '']) {
      const r = currencySchema.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message, bad).toBe('must be an ISO 4217 code such as EUR');
    }
  });

  it('the schemas carry the descriptions the OpenAPI document shows', () => {
    expect(currencySchema.description).toBe('ISO 4217 currency code');
    expect(amountSchema.description).toBe('Amount in major units of the currency, e.g. 19.99');
    expect(amountSchema.safeParse(1e12).success).toBe(true);
    expect(amountSchema.safeParse(1e12 + 1).success).toBe(false);
    expect(amountSchema.safeParse(-0.01).success).toBe(false);
  });

  it('amounts the store cannot hold are refused: 0 or at least 1e-130', () => {
    expect(amountSchema.safeParse(0).success).toBe(true);
    expect(amountSchema.safeParse(1e-130).success).toBe(true);
    const tiny = amountSchema.safeParse(1e-300);
    expect(tiny.success).toBe(false);
    expect(tiny.error?.issues[0]?.message).toBe('must be 0 or between 1e-130 and 9007199254740991 in magnitude');
  });
});
