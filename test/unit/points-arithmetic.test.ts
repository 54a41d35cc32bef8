import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdings, transition } from '../../shared/domain/orders/points';
import { amountBand, currencyExponent, toMinor } from '../../shared/domain/money';
import { pointsFor, reversedFor, tierFor, type EarnSnapshot } from '../../shared/domain/program/arithmetic';
import { DEFAULT_RULES } from '../../shared/domain/program/schemas';

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
        if (earn.rounding === 'round') expect([lo, hi]).toContain(BigInt(p));
      }),
    );
  });

  it('more spend never earns fewer points', () => {
    fc.assert(fc.property(minor, minor, currency, snapshot, (a, b, cur, earn) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      expect(pointsFor(lo, cur, earn)).toBeLessThanOrEqual(pointsFor(hi, cur, earn));
    }));
  });

  it('partial refunds adding up to the total reverse exactly the earned points, never more on the way', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 0, max: 10 ** 7 }), fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 }), (total, earned, weights) => {
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
      }),
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
        const orders = states.map((s) => ({ status: s.status, totalMinor: s.totalMinor, refundedMinor: Math.floor(s.totalMinor * s.refundFraction), currency: 'EUR', earn }));
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
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 ** 10 }), currency, (m, cur) => {
      const major = m / 10 ** currencyExponent(cur);
      expect(toMinor(major, cur)).toBe(m);
    }));
    expect(toMinor(10.999, 'EUR')).toBeUndefined();
    expect(toMinor(10.5, 'JPY')).toBeUndefined();
    expect(toMinor(0.1 + 0.2, 'EUR')).toBe(30);
  });

  it('tiers: the highest level reached; bands never show the amount', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 ** 7 }), (v) => {
      const tier = tierFor(v, DEFAULT_RULES.tiers.levels);
      expect(tier.threshold).toBeLessThanOrEqual(v);
      const next = DEFAULT_RULES.tiers.levels.find((l) => l.threshold > tier.threshold);
      if (next) expect(v).toBeLessThan(next.threshold);
    }));
    expect(amountBand(5999, 'EUR')).toBe('50-100 EUR');
    expect(amountBand(250000, 'EUR')).toBe('1000+ EUR');
  });
});
