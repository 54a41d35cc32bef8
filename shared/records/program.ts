/**
 * The loyalty program's rules as the table stores them, and the part of them an order keeps. Plain
 * declarations below the domain, so the data layer can name them without importing it. The program
 * is answered as stored: the domain's answer schema is checked against `ProgramRecord` at compile
 * time (`SameShape`), so this stays the one description of what is stored.
 */

export const ROUNDING = ['floor', 'round', 'ceil'] as const;
export type Rounding = (typeof ROUNDING)[number];

export const TIER_METRICS = ['lifetime_points', 'order_count'] as const;
export type TierMetric = (typeof TIER_METRICS)[number];

export interface ProgramRecord {
  earn: { pointsPerUnit: number; rounding: Rounding; currencyOverrides: Record<string, number> };
  tiers: { metric: TierMetric; levels: { key: string; name: string; threshold: number }[] };
  version: number;
  updatedAt: string | null;
}

/** What an order keeps of the rules at its creation, so later rule changes never rewrite it. */
export interface EarnSnapshot {
  pointsPerUnit: number;
  rounding: Rounding;
}
