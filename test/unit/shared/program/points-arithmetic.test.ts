import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdings, transition } from '../../../../shared/orders/points';
import { amountBand, currencyExponent, toMinor } from '../../../../shared/platform/money';
import { earnSnapshot, nextTier, pointsFor, reversedFor, tierFor } from '../../../../shared/program/arithmetic';
import type { EarnSnapshot } from '../../../../shared/program/entities';
import { DEFAULT_RULES } from '../../../../shared/program/schemas';

const rate = fc.integer({ min: 0, max: 1000_0000 }).map((n) => n / 10_000);
const rounding = fc.constantFrom('floor' as const, 'round' as const, 'ceil' as const);
const snapshot = fc.record({ pointsPerUnit: rate, rounding });
const minor = fc.integer({ min: 0, max: 10 ** 11 });
const currency = fc.constantFrom('EUR', 'JPY', 'KWD', 'USD');

describe('points arithmetic (property-based)', () => {
  it('pointsFor is the exact product, rounded once the way the rule says', () => {
    fc.assert(
      fc.property(minor, currency, snapshot, (amount, cur, earn) => {
        const p = pointsFor(amount, cur, earn);
        const exact = (BigInt(amount) * BigInt(Math.round(earn.pointsPerUnit * 10_000))) as bigint;
        const den = 10n ** BigInt(currencyExponent(cur)) * 10_000n;
        const lo = exact / den;
        const hi = exact % den === 0n ? lo : lo + 1n;
        expect(Number.isInteger(p)).toBe(true);
        if (earn.rounding === 'floor') expect(BigInt(p)).toBe(lo);
        if (earn.rounding === 'ceil') expect(BigInt(p)).toBe(hi);
        // Half-up: the remainder decides, so a tie goes up and anything below half goes down.
        if (earn.rounding === 'round') expect(BigInt(p)).toBe(2n * (exact % den) >= den ? lo + 1n : lo);
      }),
    );
  });

  it('more spend never earns fewer points', () => {
    fc.assert(
      fc.property(minor, minor, currency, snapshot, (a, b, cur, earn) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(pointsFor(lo, cur, earn)).toBeLessThanOrEqual(pointsFor(hi, cur, earn));
      }),
    );
  });

  it('partial refunds adding up to the total reverse exactly the earned points, never more on the way', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.integer({ min: 0, max: 10 ** 7 }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 }),
        (total, earned, weights) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          // Split the total into parts proportional to the weights; the last part takes the remainder.
          let refunded = 0;
          let reversedSoFar = 0;
          weights.forEach((w, i) => {
            const part = i === weights.length - 1 ? total - refunded : Math.floor((total * w) / sum);
            refunded += part;
            const r = reversedFor(earned, refunded, total);
            expect(r).toBeGreaterThanOrEqual(reversedSoFar);
            expect(r).toBeLessThanOrEqual(earned);
            reversedSoFar = r;
          });
          expect(refunded).toBe(total);
          expect(reversedSoFar).toBe(earned);
        },
      ),
    );
  });

  const orderState = fc.record({
    status: fc.constantFrom('pending' as const, 'completed' as const, 'cancelled' as const),
    totalMinor: fc.integer({ min: 0, max: 10 ** 8 }),
    refundFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  });

  it('the deltas of any sequence of order changes add up to what the final order holds', () => {
    fc.assert(
      fc.property(snapshot, fc.array(orderState, { minLength: 1, maxLength: 8 }), (earn: EarnSnapshot, states) => {
        const orders = states.map((s) => ({
          status: s.status,
          totalMinor: s.totalMinor,
          refundedMinor: Math.floor(s.totalMinor * s.refundFraction),
          currency: 'EUR',
          earn,
        }));
        const total = { balance: 0, pending: 0, lifetime: 0, orderCount: 0 };
        orders.forEach((o, i) => {
          const d = transition(i === 0 ? null : orders[i - 1]!, o);
          total.balance += d.balance;
          total.pending += d.pending;
          total.lifetime += d.lifetime;
          total.orderCount += d.orderCount;
        });
        const last = holdings(orders[orders.length - 1]!);
        expect(total).toEqual({ balance: last.balance, pending: last.pending, lifetime: last.balance, orderCount: last.counted });
      }),
    );
  });

  it('toMinor refuses more decimals than the currency has and is exact otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 10 }), currency, (m, cur) => {
        const major = m / 10 ** currencyExponent(cur);
        expect(toMinor(major, cur)).toBe(m);
      }),
    );
    expect(toMinor(10.999, 'EUR')).toBeUndefined();
    expect(toMinor(10.5, 'JPY')).toBeUndefined();
    expect(toMinor(0.1 + 0.2, 'EUR')).toBe(30);
  });

  it('tiers: the highest level reached; bands never show the amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 7 }), (v) => {
        const tier = tierFor(v, DEFAULT_RULES.tiers.levels);
        expect(tier.threshold).toBeLessThanOrEqual(v);
        const next = DEFAULT_RULES.tiers.levels.find((l) => l.threshold > tier.threshold);
        if (next) expect(v).toBeLessThan(next.threshold);
      }),
    );
    expect(amountBand(5999, 'EUR')).toBe('50-100 EUR');
    expect(amountBand(250000, 'EUR')).toBe('1000+ EUR');
  });
});

describe('points arithmetic (exact values)', () => {
  const perEuro = (rounding: 'floor' | 'round' | 'ceil', pointsPerUnit = 1): EarnSnapshot => ({ pointsPerUnit, rounding });

  it('round is half-up, floor and ceil go their own way', () => {
    // 1 point per 1.00 EUR: 1.49 EUR is 1.49 points, 1.50 EUR is 1.5 points.
    expect([149, 150, 250, 151].map((m) => pointsFor(m, 'EUR', perEuro('round')))).toEqual([1, 2, 3, 2]);
    expect([149, 150, 100].map((m) => pointsFor(m, 'EUR', perEuro('floor')))).toEqual([1, 1, 1]);
    expect([149, 150, 100, 101].map((m) => pointsFor(m, 'EUR', perEuro('ceil')))).toEqual([2, 2, 1, 2]);
    expect(pointsFor(12_345, 'EUR', perEuro('floor', 2.5))).toBe(308); // 123.45 x 2.5 = 308.625
    expect(pointsFor(12_345, 'EUR', perEuro('round', 2.5))).toBe(309);
    expect(pointsFor(0, 'EUR', perEuro('ceil'))).toBe(0);
  });

  it('scales by the currency minor unit', () => {
    expect(pointsFor(1000, 'JPY', perEuro('floor'))).toBe(1000); // no minor unit
    expect(pointsFor(1000, 'KWD', perEuro('floor'))).toBe(1); // 3 decimals
    expect(pointsFor(1000, 'EUR', perEuro('floor'))).toBe(10);
  });

  it('a negative amount earns nothing (it does not take points)', () => {
    for (const rounding of ['floor', 'round', 'ceil'] as const) expect(pointsFor(-1000, 'EUR', perEuro(rounding))).toBe(0);
  });

  it('reversals: proportional and rounded down, everything once the whole order is refunded, nothing without a refund', () => {
    expect(reversedFor(100, 2500, 10_000)).toBe(25);
    expect(reversedFor(100, 3333, 10_000)).toBe(33); // 33.33
    expect(reversedFor(100, 9999, 10_000)).toBe(99); // 99.99: never more than the refunded share
    expect(reversedFor(100, 10_000, 10_000)).toBe(100);
    expect(reversedFor(100, 15_000, 10_000)).toBe(100); // a refund above the total cannot take back more than was given
    expect(reversedFor(100, 0, 10_000)).toBe(0);
    expect(reversedFor(100, -500, 10_000)).toBe(0);
    expect(reversedFor(100, 500, 0)).toBe(0); // a zero total gave nothing to take back
    expect(reversedFor(100, 500, -10)).toBe(0);
  });

  it('an order keeps the earn rule of its currency: an override, else the program rate', () => {
    const rules = {
      ...DEFAULT_RULES,
      earn: { ...DEFAULT_RULES.earn, pointsPerUnit: 1.5, rounding: 'ceil' as const, currencyOverrides: { JPY: 0.02, USD: 0 } },
    };
    expect(earnSnapshot(rules, 'JPY')).toEqual({ pointsPerUnit: 0.02, rounding: 'ceil' });
    expect(earnSnapshot(rules, 'EUR')).toEqual({ pointsPerUnit: 1.5, rounding: 'ceil' });
    expect(earnSnapshot(rules, 'USD')).toEqual({ pointsPerUnit: 0, rounding: 'ceil' }); // a zero override is an override
  });

  it('an order keeps the basis and exclusions only when they are not the default, each exclusion on its own', () => {
    const none = { skus: [], categories: [], discountedLines: false };
    const earn = (e: Partial<typeof DEFAULT_RULES.earn>) => ({ ...DEFAULT_RULES, earn: { ...DEFAULT_RULES.earn, exclude: none, ...e } });
    const plain = { pointsPerUnit: 1, rounding: 'floor' };
    expect(earnSnapshot(earn({}), 'EUR')).toStrictEqual(plain);
    expect(earnSnapshot(earn({ basis: 'net' }), 'EUR')).toStrictEqual({ ...plain, basis: 'net' });
    for (const exclude of [
      { ...none, skus: ['GIFT'] },
      { ...none, categories: ['gift-cards'] },
      { ...none, discountedLines: true },
    ]) {
      expect(earnSnapshot(earn({ exclude }), 'EUR'), JSON.stringify(exclude)).toStrictEqual({ ...plain, exclude });
    }
  });

  const levels = DEFAULT_RULES.tiers.levels; // bronze 0, silver 500, gold 2000, platinum 5000

  it('tierFor: a value exactly at a threshold reaches it', () => {
    expect([0, 499, 500, 1999, 2000, 4999, 5000, 10 ** 9].map((v) => tierFor(v, levels).key)).toEqual([
      'bronze',
      'bronze',
      'silver',
      'silver',
      'gold',
      'gold',
      'platinum',
      'platinum',
    ]);
    expect(tierFor(-1, levels).key).toBe('bronze'); // below every threshold: the first level
  });

  it('nextTier: the first level above the value, none at the top', () => {
    expect([0, 499, 500, 1999, 2000, 4999].map((v) => nextTier(v, levels)?.key)).toEqual(['silver', 'silver', 'gold', 'gold', 'platinum', 'platinum']);
    expect(nextTier(5000, levels)).toBeNull();
    expect(nextTier(10 ** 9, levels)).toBeNull();
  });
});

describe('what an order holds (exact values)', () => {
  // 100.00 EUR at 1 point per EUR: 100 points; 25.00 EUR refunded takes back 25.
  const order = (status: 'pending' | 'completed' | 'cancelled', refundedMinor = 2500) => ({
    status,
    totalMinor: 10_000,
    refundedMinor,
    currency: 'EUR',
    earn: { pointsPerUnit: 1, rounding: 'floor' as const },
  });

  it('completed: the net counts towards the balance, and the order counts', () => {
    expect(holdings(order('completed'))).toEqual({ earned: 100, reversed: 25, balance: 75, pending: 0, counted: 1 });
  });

  it('pending: the net is pending, nothing in the balance, the order does not count yet', () => {
    expect(holdings(order('pending'))).toEqual({ earned: 100, reversed: 25, balance: 0, pending: 75, counted: 0 });
  });

  it('cancelled: everything earned is reversed and nothing is held', () => {
    expect(holdings(order('cancelled'))).toEqual({ earned: 100, reversed: 100, balance: 0, pending: 0, counted: 0 });
    expect(holdings(order('cancelled', 0))).toEqual({ earned: 100, reversed: 100, balance: 0, pending: 0, counted: 0 });
  });

  it('each change moves exactly the difference', () => {
    expect(transition(null, order('pending', 0))).toEqual({ balance: 0, pending: 100, lifetime: 0, orderCount: 0 });
    expect(transition(null, order('completed', 0))).toEqual({ balance: 100, pending: 0, lifetime: 100, orderCount: 1 });
    expect(transition(order('pending', 0), order('completed', 0))).toEqual({ balance: 100, pending: -100, lifetime: 100, orderCount: 1 });
    expect(transition(order('completed', 0), order('completed', 2500))).toEqual({ balance: -25, pending: 0, lifetime: -25, orderCount: 0 });
    expect(transition(order('completed', 2500), order('cancelled', 2500))).toEqual({ balance: -75, pending: 0, lifetime: -75, orderCount: -1 });
    expect(transition(order('pending', 2500), order('cancelled', 2500))).toEqual({ balance: 0, pending: -75, lifetime: 0, orderCount: 0 });
    expect(transition(null, order('cancelled'))).toEqual({ balance: 0, pending: 0, lifetime: 0, orderCount: 0 });
  });

  it('property: earned minus the refunded share is the balance when completed, pending when pending; cancelled holds nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 7 }), fc.integer({ min: 0, max: 10 ** 4 }), fc.integer({ min: 0, max: 100 }), (total, perUnit, percent) => {
        const earn = { pointsPerUnit: perUnit / 100, rounding: 'floor' as const };
        const refundedMinor = Math.floor((total * percent) / 100);
        const base = { totalMinor: total, refundedMinor, currency: 'EUR', earn };
        // Oracle in plain integers (exact below 2^53): perUnit / 100 points per EUR is perUnit / 10^4 per cent.
        const earned = Math.floor((total * perUnit) / 10_000);
        const reversed = total === 0 ? 0 : Math.floor((earned * refundedMinor) / total);
        expect(holdings({ ...base, status: 'completed' })).toEqual({ earned, reversed, balance: earned - reversed, pending: 0, counted: 1 });
        expect(holdings({ ...base, status: 'pending' })).toEqual({ earned, reversed, balance: 0, pending: earned - reversed, counted: 0 });
        expect(holdings({ ...base, status: 'cancelled' })).toEqual({ earned, reversed: earned, balance: 0, pending: 0, counted: 0 });
      }),
    );
  });
});
