import * as z from 'zod';
import { isStorableNumber, STORABLE_NUMBER_MESSAGE } from './validation/common';

/** ISO 4217 currencies whose minor unit is not 2 decimals. */
const EXPONENTS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

export const currencyExponent = (currency: string): number => EXPONENTS[currency] ?? 2;

export const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as EUR' })
  .describe('ISO 4217 currency code');

/** A non-negative amount in major units (e.g. 19.99), at most 1e12 (and storable: not 1e-300). */
export const amountSchema = z
  .number()
  .min(0)
  .max(1e12)
  .refine(isStorableNumber, { message: STORABLE_NUMBER_MESSAGE })
  .describe('Amount in major units of the currency, e.g. 19.99');

/**
 * What a binary double may differ from the decimal it was written as, relative to its size: two
 * units in the last place (0.1 + 0.2 is 0.30000000000000004). Anything larger is a real decimal.
 */
const FLOAT_NOISE = 2 * Number.EPSILON;

/**
 * Major units -> integer minor units, refusing more decimals than the currency has (so 19.999 EUR
 * is an error, not a silent rounding), at every size: 123456789.123 EUR is refused too. Only the
 * noise of binary floating point is forgiven. Returns undefined when the amount does not fit.
 */
export function toMinor(amount: number, currency: string): number | undefined {
  const exp = currencyExponent(currency);
  const scaled = Math.round(amount * 10 ** exp);
  return Math.abs(scaled / 10 ** exp - amount) <= FLOAT_NOISE * Math.abs(amount) ? scaled : undefined;
}

export const fromMinor = (minor: number, currency: string): number => minor / 10 ** currencyExponent(currency);

/** Coarse band for webhooks (spec 6.2: never the exact amount). */
const BANDS = [10, 25, 50, 100, 250, 500, 1000];
export function amountBand(minor: number, currency: string): string {
  const major = fromMinor(minor, currency);
  let lower = 0;
  for (const upper of BANDS) {
    if (major < upper) return `${lower}-${upper} ${currency}`;
    lower = upper;
  }
  return `${lower}+ ${currency}`;
}
