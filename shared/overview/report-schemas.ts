import * as z from 'zod';
import { ACTIVE_WINDOW } from './members-day';

/** Longest period per granularity: a day bucket per day, a month bucket per month. */
export const MAX_DAYS = { day: 400, month: 3700 } as const;

export const pointsReportQuery = z.strictObject({
  from: z.iso.date().optional().describe("First local day (YYYY-MM-DD, the program's time zone); default: the first day of `to`'s month"),
  to: z.iso.date().optional().describe("Last local day, included (YYYY-MM-DD); default: today in the program's time zone"),
  granularity: z
    .enum(['day', 'month'])
    .default('day')
    .describe(
      `One bucket per day (at most ${MAX_DAYS.day} days) or per month (at most ${MAX_DAYS.month} days; the first and last months clipped to the period)`,
    ),
});

const issued = z
  .object({
    base: z.number().int().describe("Orders' own points, when they became spendable"),
    campaign: z.number().int().describe("Campaigns' point rewards"),
    manual: z.number().int().describe('Points added by hand or by a correction upward'),
    total: z.number().int(),
  })
  .describe('Points credited to balances');

const figures = {
  issued,
  redeemed: z.number().int().describe('Points spent on coupons and rewards'),
  reversed: z.number().int().describe('Points taken back because their order was refunded, cancelled or corrected downward'),
  expired: z.number().int().describe('Points that expired'),
  deducted: z.number().int().describe('Points taken off by support (deductions and corrections): neither redeemed nor expired'),
  outstanding: z.number().int().describe('Points on balances at the end: the liability'),
  pending: z.number().int().describe('Points of orders still waiting to become spendable at the end (not yet a liability)'),
};

const rates = z
  .object({
    redemption: z.number().nullable().describe('redeemed / issued (4 decimals; null while nothing was issued)'),
    breakage: z.number().nullable().describe('expired / issued (4 decimals; null while nothing was issued)'),
  })
  .describe('Rates over the points issued');

export const pointsReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    granularity: z.enum(['day', 'month']),
    timeZone: z.string().describe("The program's time zone: every day and month is local to it"),
    totals: z.object({ opening: z.number().int().describe('Points outstanding before the first day'), ...figures }).describe('The whole period'),
    rates: z.object({ period: rates, lifeToDate: rates.describe('Everything up to the end of the period') }),
    liabilityByExpiry: z
      .array(z.object({ month: z.string().nullable().describe('YYYY-MM, local; null: no date of their own'), points: z.number().int() }))
      .describe('Points outstanding at the end by the month they expire in, earliest first'),
    value: z
      .array(z.object({ currency: z.string(), pointValue: z.number(), amount: z.number().describe('outstanding × pointValue, rounded to the minor unit') }))
      .describe("The liability in money at the program's `pointValue`, one line per currency set"),
    buckets: z
      .array(z.object({ start: z.string(), end: z.string(), ...figures }))
      .describe('Each day or month of the period, in order (days without activity included)'),
    campaigns: z
      .array(
        z.object({
          campaignId: z.string(),
          name: z.string().nullable().describe('null: the campaign was deleted since'),
          points: z.number().int().describe("Points the campaign's rewards credited in the period (its cost in points)"),
          rewards: z.number().int().describe('Point rewards credited in the period (a member rewarded twice counts twice)'),
          previousPoints: z.number().int().describe('Points its rewards credited in the period before'),
        }),
      )
      .describe('The 10 campaigns whose point rewards credited the most points in the period, most first'),
    previous: z
      .object({ from: z.string(), to: z.string(), totals: z.object({ opening: z.number().int(), ...figures }) })
      .describe('The period of equal length just before, for comparison'),
  })
  .meta({ id: 'PointsReport' });

export const membersReportQuery = z.strictObject({
  from: z.iso.date().optional().describe("First local day (YYYY-MM-DD, the program's time zone); default: the first day of `to`'s month"),
  to: z.iso.date().optional().describe("Last local day, included (YYYY-MM-DD); default: today in the program's time zone"),
});

const activeFigure = z
  .number()
  .int()
  .nullable()
  .describe(`Distinct members with an order or a ledger entry other than an expiry in the period; null for a period longer than ${ACTIVE_WINDOW} days`);

export const membersReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    timeZone: z.string().describe("The program's time zone: every day is local to it"),
    members: z.number().int().describe('Members enrolled now (erased ones included)'),
    tiers: z
      .array(
        z.object({
          tier: z.string().describe('The tier key'),
          name: z.string().describe("The tier's display name (its key when the ladder no longer has it)"),
          members: z.number().int(),
        }),
      )
      .describe("Members in each tier now, in the ladder's order (tiers no longer on the ladder after it)"),
    active: activeFigure,
    previous: z.object({ from: z.string(), to: z.string(), active: activeFigure }).describe('The period of equal length just before, for comparison'),
  })
  .meta({ id: 'MembersReport' });
