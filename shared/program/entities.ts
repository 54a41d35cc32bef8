/**
 * The loyalty program's rules as the table stores them, and the part of them an order keeps. Plain
 * declarations below the domain, so the data layer can name them without importing it. The program
 * is answered as stored: the domain's answer schema is checked against `ProgramRecord` at compile
 * time (`SameShape`), so this stays the one description of what is stored.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const ROUNDING = ['floor', 'round', 'ceil'] as const;
export type Rounding = (typeof ROUNDING)[number];

export const TIER_METRICS = ['lifetime_points', 'order_count'] as const;
export type TierMetric = (typeof TIER_METRICS)[number];

export const EXPIRY_POLICIES = ['none', 'fixed_days', 'end_of_month', 'inactivity_days'] as const;
export type ExpiryPolicy = (typeof EXPIRY_POLICIES)[number];

/** How earned points age: when they expire, when members are warned, how long an order's points wait. */
export interface PointsRules {
  expiry: { policy: 'none' } | { policy: Exclude<ExpiryPolicy, 'none'>; days: number };
  /** Days before an expiry at which `points.expiring_soon` is sent, e.g. [30, 7]. */
  warnDays: number[];
  /** Days an order's points stay pending before they can be spent (0: at once). */
  pendingDays: number;
}

/** What counts toward the tier metric: everything, the last 365 days, or the current calendar year. */
export const TIER_WINDOWS = ['lifetime', 'rolling_365_days', 'calendar_year'] as const;
export type TierWindow = (typeof TIER_WINDOWS)[number];

/** Where a member goes once a tier's retention ends below its threshold: one level down, or to the tier the metric reaches. */
export const DOWNGRADES = ['one_level', 'to_qualified'] as const;
export type Downgrade = (typeof DOWNGRADES)[number];

export interface TierRulesRecord {
  metric: TierMetric;
  levels: { key: string; name: string; threshold: number }[];
  window: TierWindow;
  /** A reached tier is kept at least this many days (0: only while the metric reaches it). */
  retainDays: number;
  downgrade: Downgrade;
}

export interface ProgramRecord {
  earn: { pointsPerUnit: number; rounding: Rounding; currencyOverrides: Record<string, number> };
  tiers: TierRulesRecord;
  points: PointsRules;
  /** The IANA time zone of the program's calendar dates (a month's end). */
  timeZone: string;
  version: number;
  updatedAt: string | null;
}

/** What an order keeps of the rules at its creation, so later rule changes never rewrite it. */
export const earnSnapshotSchema = () => z.object({ pointsPerUnit: z.number(), rounding: z.enum(ROUNDING) });
export type EarnSnapshot = z.infer<ReturnType<typeof earnSnapshotSchema>>;

/**
 * What the table needs of a campaign: its id and version. The program area validates the rest and
 * reads it back as its own type (a campaign's definition is the API's shape, with its refinements);
 * the item keeps its workspace beside it.
 */
export const campaignRecordSchema = () => z.looseObject({ id: z.string(), version: z.number() });
export type CampaignRecord = z.infer<ReturnType<typeof campaignRecordSchema>>;

export const campaignEntity = /* @__PURE__ */ defineEntity({
  name: 'campaign',
  keys: (c: CampaignRecord, { workspaceId }: { workspaceId: string }) => ({ workspaceId, campaignId: c.id }),
  beside: { workspaceId: (_, c) => c.workspaceId },
});
