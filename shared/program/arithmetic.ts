import { currencyExponent } from '../platform/money';
import type { EarnSnapshot } from './entities';
import type { ProgramRules } from './schemas';

/** The earn rule an order keeps; the basis and exclusions only when they are not the default, so such an order stores what it always did. */
export function earnSnapshot(rules: ProgramRules, currency: string): EarnSnapshot {
  const { basis, exclude } = rules.earn;
  const excludes = exclude.skus.length > 0 || exclude.categories.length > 0 || exclude.discountedLines;
  return {
    pointsPerUnit: rules.earn.currencyOverrides[currency] ?? rules.earn.pointsPerUnit,
    rounding: rules.earn.rounding,
    ...(basis === 'total' ? {} : { basis }),
    ...(excludes ? { exclude } : {}),
  };
}

const RATE_SCALE = 10_000n;

/**
 * Points for an amount: minor units x rate, rounded once, in exact integer arithmetic (BigInt), so
 * 0.1 + 0.2 style float errors never cost or gift a point.
 */
export function pointsFor(amountMinor: number, currency: string, earn: EarnSnapshot): number {
  if (amountMinor <= 0) return 0;
  const num = BigInt(amountMinor) * BigInt(Math.round(earn.pointsPerUnit * 10_000));
  const den = 10n ** BigInt(currencyExponent(currency)) * RATE_SCALE;
  const q = earn.rounding === 'floor' ? num / den : earn.rounding === 'ceil' ? (num + den - 1n) / den : (2n * num + den) / (2n * den);
  return Number(q);
}

/**
 * Points taken back once `refundedMinor` of `totalMinor` is refunded: proportional and cumulative
 * (computed on the running refunded total, not per refund), so partial refunds that add up to the
 * whole order take back exactly what the order gave.
 */
export function reversedFor(awarded: number, refundedMinor: number, totalMinor: number): number {
  if (totalMinor <= 0 || refundedMinor <= 0) return 0;
  if (refundedMinor >= totalMinor) return awarded;
  return Number((BigInt(awarded) * BigInt(refundedMinor)) / BigInt(totalMinor));
}

export interface TierLevel {
  key: string;
  name: string;
  threshold: number;
}

/** The highest level whose threshold the value reaches. */
export function tierFor(value: number, levels: readonly TierLevel[]): TierLevel {
  let current = levels[0]!;
  for (const level of levels) if (value >= level.threshold) current = level;
  return current;
}

export function nextTier(value: number, levels: readonly TierLevel[]): TierLevel | null {
  return levels.find((l) => l.threshold > value) ?? null;
}
