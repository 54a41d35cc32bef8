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

/** What an order earns on: its whole total (as sent), or its net amount (subtotal - discount: no tax, no shipping). */
export const EARN_BASES = ['total', 'net'] as const;
export type EarnBasis = (typeof EARN_BASES)[number];

/** Lines that earn nothing: by SKU, by category, or any line with a discount of its own. */
export interface EarnExclusions {
  skus: string[];
  categories: string[];
  discountedLines: boolean;
}

/** Points a member may earn from orders per program day and month: base points and campaign rewards apart (null: no cap). */
export interface EarnCaps {
  baseDaily: number | null;
  baseMonthly: number | null;
  campaignDaily: number | null;
  campaignMonthly: number | null;
}

export interface EarnRules {
  pointsPerUnit: number;
  rounding: Rounding;
  currencyOverrides: Record<string, number>;
  basis: EarnBasis;
  exclude: EarnExclusions;
  caps: EarnCaps;
}

/** Which order times the program honours (docs/decisions/0077-one-clock-per-order.md). */
export interface OrderTimeRules {
  /** An order recorded more than this many days after its occurredAt earns its base points but no campaign. */
  backdatingLimitDays: number;
}

export interface ProgramRecord {
  earn: EarnRules;
  tiers: TierRulesRecord;
  points: PointsRules;
  orders: OrderTimeRules;
  /** The IANA time zone of the program's calendar dates (a month's end). */
  timeZone: string;
  /** What one point is worth per currency (e.g. EUR 0.01): the money value of the points outstanding. */
  pointValue: Record<string, number>;
  version: number;
  updatedAt: string | null;
}

/** What an order keeps of the rules at its creation, so later rule changes never rewrite it. */
export const earnSnapshotSchema = () =>
  z.object({
    pointsPerUnit: z.number(),
    rounding: z.enum(ROUNDING),
    /** Kept only when not the default (`total`, no exclusions), so an order under the default rules stores what it always did. */
    basis: z.enum(EARN_BASES).optional(),
    exclude: z.object({ skus: z.array(z.string()), categories: z.array(z.string()), discountedLines: z.boolean() }).optional(),
  });
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
