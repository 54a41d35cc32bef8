import * as z from 'zod';
import { dataOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';
import { membersReportQuery, membersReportSchema, pointsReportQuery, pointsReportSchema } from './report-schemas';

const overviewSchema = z
  .object({
    members: z.number().int().describe('Members enrolled (erased ones included)'),
    pointsIssued: z.number().int().describe('Points ever credited: earned, granted, added by hand'),
    pointsRedeemed: z.number().int().describe('Points ever spent on coupons and rewards (not refund reversals, support deductions or expiries)'),
    orders: z.number().int().describe('Orders counted for members (completed)'),
    webhooks: z
      .object({
        delivered: z.number().int(),
        failed: z.number().int().describe('Attempts that failed and will be retried, or failed for good'),
        dead: z.number().int().describe('Deliveries given up after their last retry'),
        partial: z.boolean().describe('true: an endpoint had more attempts than were read; the counts are lower bounds'),
      })
      .describe('Delivery attempts of the last 24 hours'),
    exportsRunning: z.number().int().describe('Exports pending or running'),
    generatedAt: z.string(),
  })
  .meta({ id: 'Overview' });

/** The console's landing figures: read-only, from counters kept on write and the delivery and export logs. */
export const overviewArea = declareArea({
  area: 'overview',
  description: "The console's overview of a workspace: members, points, orders, webhook health and exports under way.",
  access: { table: 'read', secrets: ['pageCursors'] },
  endpoints: {
    getOverview: {
      method: 'GET',
      path: '/api/flash/overview',
      auth: ['adminSession'],
      permission: 'overview:read',
      summary: 'Figures of the workspace at a glance (console)',
      responses: { 200: dataOf(overviewSchema) },
      description:
        'Members, points issued and redeemed, and orders are running totals moved in the transaction of each change (no scan). Webhook health counts the delivery attempts of the last 24 hours in the delivery log; exports running are the pending and running jobs.',
    },
    getPointsReport: {
      method: 'GET',
      path: '/api/flash/reports/points',
      auth: ['adminSession'],
      permission: 'reports:read',
      summary: 'Points issued, redeemed, reversed, expired and outstanding over a period (console, finance)',
      query: pointsReportQuery,
      responses: { 200: dataOf(pointsReportSchema) },
      description:
        "The month-end figures of the points programme for a period of local days in the program's time zone, per day or month: points issued (base, campaign, manual), redeemed, reversed by refunds, expired, deducted by support, pending and outstanding (the liability), the liability by expiry month, the redemption and breakage rates, and the liability's value at the program's `pointValue`. Exact: day counters moved in the transaction of each ledger entry, summed at read (no scan of the ledger). Definitions: the program guide's Finance section.",
    },
    getMembersReport: {
      method: 'GET',
      path: '/api/flash/reports/members',
      auth: ['adminSession'],
      permission: 'reports:read',
      summary: 'Members by tier and active members over a period, with the period before (console)',
      query: membersReportQuery,
      responses: { 200: dataOf(membersReportSchema) },
      description:
        "Members in each tier now (tier names from the program's ladder), and the distinct members active in a period of local days (an order, or a ledger entry other than an expiry) and in the period of equal length just before it. Exact and without a scan: tier counters moved in the transaction of each tier change, and each member counted on the day of its first activity of that day under the days since its previous one (docs/decisions/0098). Active members are given for periods of up to 92 days (null beyond). Definitions: the program guide's Finance section.",
    },
  },
});
