import * as z from 'zod';
import {
  DOWNGRADES,
  EARN_BASES,
  EXPIRY_POLICIES,
  ROUNDING,
  TIER_METRICS,
  TIER_WINDOWS,
  type EarnCaps,
  type EarnExclusions,
  type ProgramRecord,
} from './entities';
import { isTimeZone } from './calendar';
import type { SameShape } from '../platform/data/same-shape';
import { isoDateTime, isStorableNumber, STORABLE_NUMBER_MESSAGE } from '../platform/validation/common';
import { currencySchema } from '../platform/money';
import { DEFAULT_BACKDATING_LIMIT_DAYS } from './order-time';

/** Up to 4 decimals, so rates stay exact in integer arithmetic (basis points of a point). */
const rate = z
  .number()
  .min(0)
  .max(1000)
  .refine((n) => Math.abs(Math.round(n * 10_000) - n * 10_000) < 1e-6, { message: 'at most 4 decimals' })
  .refine(isStorableNumber, { message: STORABLE_NUMBER_MESSAGE });

export const tierLevelSchema = z.strictObject({
  key: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,31}$/, { message: 'lower-case identifier, e.g. gold' })
    .describe("Lower-case identifier, answered as a member's `tier`, e.g. gold"),
  name: z.string().trim().min(1).max(60).describe('Display name, e.g. Gold'),
  threshold: z.number().int().min(0).max(1e12).describe('Metric value from which the tier applies'),
});

/** Program day counts: 1 day to 10 years. */
const days = z.number().int({ message: 'must be a whole number of days' }).min(1).max(3650).describe('Days, 1-3650');

const expirySchema = z
  .discriminatedUnion('policy', [
    z.strictObject({ policy: z.literal('none').describe('Points never expire') }),
    z.strictObject({
      policy: z.enum(EXPIRY_POLICIES.filter((p) => p !== 'none') as ['fixed_days', 'end_of_month', 'inactivity_days']).describe('How the expiry date is found'),
      days,
    }),
  ])
  .describe(
    'none: points never expire; fixed_days: `days` after the earn; end_of_month: `days` after the earn, rounded up to that month’s end in the program time zone; inactivity_days: everything expires `days` after the last earn or spend',
  );

export const pointsRulesSchema = z
  .strictObject({
    expiry: expirySchema.default({ policy: 'none' }),
    warnDays: z
      .array(days)
      .max(5)
      .default([])
      .refine((d) => new Set(d).size === d.length, { message: 'each day count once' })
      .describe('Days before an expiry at which points.expiring_soon is sent, e.g. [30, 7] (at most 5)'),
    pendingDays: z.number().int().min(0).max(3650).default(0).describe("Days an order's points stay pending, not spendable (0: at once)"),
  })
  .describe('How earned points age. Changes apply to points earned afterwards: earned lots keep their expiry');

/** A SKU or category named by an exclusion, as order items carry it. */
const excludedValue = z.string().trim().min(1).max(100);
const excludedList = (what: string) =>
  z
    .array(excludedValue)
    .max(100)
    .default([])
    .refine((v) => new Set(v).size === v.length, { message: `each ${what} once` });

export const DEFAULT_EXCLUSIONS: EarnExclusions = { skus: [], categories: [], discountedLines: false };
export const NO_CAPS: EarnCaps = { baseDaily: null, baseMonthly: null, campaignDaily: null, campaignMonthly: null };

const cap = () => z.number().int().min(1).max(1e12).nullable().default(null);

const earnExclusionsSchema = z
  .strictObject({
    skus: excludedList('SKU').describe('Order items with one of these SKUs earn nothing (e.g. gift cards); at most 100'),
    categories: excludedList('category').describe('Order items in one of these categories earn nothing; at most 100'),
    discountedLines: z.boolean().default(false).describe('Order items with a discount of their own (`items[].discount` > 0) earn nothing'),
  })
  .default(DEFAULT_EXCLUSIONS)
  .describe('Order items that earn nothing. An excluded item must carry its `unitPrice` (else 422), so its amount is known');

const earnCapsSchema = z
  .strictObject({
    baseDaily: cap().describe("At most this many of the orders' own points per member and program day (null: no cap)"),
    baseMonthly: cap().describe("At most this many of the orders' own points per member and calendar month of the program (null: no cap)"),
    campaignDaily: cap().describe('At most this many campaign points on orders per member and program day (null: no cap)'),
    campaignMonthly: cap().describe('At most this many campaign points on orders per member and calendar month of the program (null: no cap)'),
  })
  .default(NO_CAPS)
  .describe("Earning caps per member, in the program's time zone and by when the order is recorded; an order past a cap earns what is left of it");

export const orderTimeRulesSchema = z
  .strictObject({
    backdatingLimitDays: z
      .number()
      .int({ message: 'must be a whole number of days' })
      .min(0)
      .max(3650)
      .default(DEFAULT_BACKDATING_LIMIT_DAYS)
      .describe(
        `An order recorded more than this many days after its occurredAt still earns its base points, but no campaign grants on it (0-3650, default ${DEFAULT_BACKDATING_LIMIT_DAYS})`,
      ),
  })
  .describe("Which order times the program honours: campaign dates and date.weekday read an order's occurredAt, within this bound");

export const programRulesSchema = z.strictObject({
  points: pointsRulesSchema.default({ expiry: { policy: 'none' }, warnDays: [], pendingDays: 0 }),
  orders: orderTimeRulesSchema.default({ backdatingLimitDays: DEFAULT_BACKDATING_LIMIT_DAYS }),
  timeZone: z
    .string()
    .max(64)
    .refine(isTimeZone, { message: 'must be an IANA time zone, e.g. Europe/Berlin' })
    .default('UTC')
    .describe('IANA time zone of program dates (a month’s end), e.g. Europe/Berlin'),
  pointValue: z
    .record(
      currencySchema,
      z
        .number()
        .min(0)
        .max(1000)
        .refine((n) => Math.abs(Math.round(n * 1e6) - n * 1e6) < 1e-6, { message: 'at most 6 decimals' }),
    )
    .default({})
    .describe('What one point is worth per currency, e.g. {"EUR": 0.01}: the money value of the points outstanding in the points report'),
  earn: z
    .strictObject({
      pointsPerUnit: rate.describe('Points per 1 unit of currency spent (e.g. 1 point per 1.00 EUR)'),
      rounding: z.enum(ROUNDING).describe('How fractional points of one order are rounded'),
      currencyOverrides: z.record(currencySchema, rate).default({}).describe('Per-currency points per unit, overriding pointsPerUnit'),
      basis: z
        .enum(EARN_BASES)
        .default('total')
        .describe("What an order earns on: total (the order's total as sent) or net (subtotal - discount: no tax, no shipping; see docs/program.md)"),
      exclude: earnExclusionsSchema,
      caps: earnCapsSchema,
    })
    .describe('How orders earn points'),
  tiers: z
    .strictObject({
      metric: z.enum(TIER_METRICS).describe('lifetime_points: points ever earned net of reversals (spending does not lower it); order_count: completed orders'),
      levels: z.array(tierLevelSchema).min(1).max(20).describe('1-20 tiers, the first at threshold 0, thresholds increasing'),
      window: z
        .enum(TIER_WINDOWS)
        .default('lifetime')
        .describe('What counts toward the metric: lifetime (everything), rolling_365_days (the last 365 days) or calendar_year (since 1 January)'),
      retainDays: z
        .number()
        .int()
        .min(0)
        .max(3650)
        .default(0)
        .describe('A reached tier is kept at least this many days, even when the metric falls below it (0: only while the metric reaches it)'),
      downgrade: z
        .enum(DOWNGRADES)
        .default('to_qualified')
        .describe(
          'Once the retention has ended below the threshold: one_level (one tier down, with a new retention) or to_qualified (to the tier the metric reaches)',
        ),
    })
    .superRefine((t, ctx) => {
      if (t.levels[0]?.threshold !== 0) ctx.addIssue({ code: 'custom', path: ['levels', 0, 'threshold'], message: 'the first level starts at 0' });
      const keys = new Set<string>();
      t.levels.forEach((l, i) => {
        if (keys.has(l.key)) ctx.addIssue({ code: 'custom', path: ['levels', i, 'key'], message: 'duplicate tier key' });
        keys.add(l.key);
        const prev = t.levels[i - 1];
        if (prev && l.threshold <= prev.threshold) ctx.addIssue({ code: 'custom', path: ['levels', i, 'threshold'], message: 'thresholds must increase' });
      });
    })
    .describe('The tiers and what moves a member up'),
});

export type ProgramRules = z.infer<typeof programRulesSchema>;

export const putProgramBody = programRulesSchema.extend({
  version: z.number().int().min(0).optional().describe('If given, the change applies only if the stored version still matches (409 otherwise)'),
});

export const programSchema = z
  .object({
    earn: z.object({
      pointsPerUnit: z.number(),
      rounding: z.enum(ROUNDING),
      currencyOverrides: z.record(z.string(), z.number()),
      basis: z.enum(EARN_BASES),
      exclude: z.object({ skus: z.array(z.string()), categories: z.array(z.string()), discountedLines: z.boolean() }),
      caps: z.object({
        baseDaily: z.number().int().nullable(),
        baseMonthly: z.number().int().nullable(),
        campaignDaily: z.number().int().nullable(),
        campaignMonthly: z.number().int().nullable(),
      }),
    }),
    tiers: z.object({
      metric: z.enum(TIER_METRICS),
      levels: z.array(z.object({ key: z.string(), name: z.string(), threshold: z.number() })),
      window: z.enum(TIER_WINDOWS),
      retainDays: z.number().int(),
      downgrade: z.enum(DOWNGRADES),
    }),
    points: z.object({
      expiry: z.union([
        z.object({ policy: z.literal('none') }),
        z.object({ policy: z.enum(['fixed_days', 'end_of_month', 'inactivity_days']), days: z.number() }),
      ]),
      warnDays: z.array(z.number()),
      pendingDays: z.number(),
    }),
    orders: z.object({ backdatingLimitDays: z.number().int() }),
    timeZone: z.string(),
    pointValue: z.record(z.string(), z.number()),
    version: z.number().int().describe('0 while the defaults apply'),
    updatedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'Program' });

export type Program = z.infer<typeof programSchema>;
// The program is answered as stored.
true satisfies SameShape<Program, ProgramRecord>;

export const DEFAULT_RULES: ProgramRules = {
  points: { expiry: { policy: 'none' }, warnDays: [], pendingDays: 0 },
  orders: { backdatingLimitDays: DEFAULT_BACKDATING_LIMIT_DAYS },
  timeZone: 'UTC',
  pointValue: {},
  earn: { pointsPerUnit: 1, rounding: 'floor', currencyOverrides: {}, basis: 'total', exclude: DEFAULT_EXCLUSIONS, caps: NO_CAPS },
  tiers: {
    metric: 'lifetime_points',
    levels: [
      { key: 'bronze', name: 'Bronze', threshold: 0 },
      { key: 'silver', name: 'Silver', threshold: 500 },
      { key: 'gold', name: 'Gold', threshold: 2000 },
      { key: 'platinum', name: 'Platinum', threshold: 5000 },
    ],
    window: 'lifetime',
    retainDays: 0,
    downgrade: 'to_qualified',
  },
};
