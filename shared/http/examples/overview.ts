import type { overviewArea } from '../../overview';
import type { AreaExamples } from './types';
import { at, ids } from './world';

export const overviewExamples: AreaExamples<typeof overviewArea> = {
  getOverview: {
    responses: {
      200: {
        data: {
          members: 1284,
          pointsIssued: 412_900,
          pointsRedeemed: 96_250,
          orders: 3071,
          webhooks: { delivered: 214, failed: 3, dead: 0, partial: false },
          exportsRunning: 1,
          generatedAt: at.now,
        },
      },
    },
  },
  getPointsReport: {
    query: { from: '2026-01-01', to: '2026-03-31', granularity: 'month' },
    responses: {
      200: {
        data: {
          from: '2026-01-01',
          to: '2026-03-31',
          granularity: 'month',
          timeZone: 'Europe/Berlin',
          totals: {
            opening: 250_000,
            issued: { base: 120_000, campaign: 18_000, manual: 1_500, total: 139_500 },
            redeemed: 63_000,
            reversed: 3_600,
            expired: 9_500,
            deducted: 900,
            outstanding: 312_500,
            pending: 6_100,
          },
          rates: { period: { redemption: 0.4516, breakage: 0.0681 }, lifeToDate: { redemption: 0.5123, breakage: 0.0874 } },
          liabilityByExpiry: [
            { month: '2026-04', points: 21_000 },
            { month: '2026-06', points: 24_500 },
            { month: '2026-12', points: 62_000 },
            { month: '2027-03', points: 190_000 },
            { month: null, points: 15_000 },
          ],
          value: [
            { currency: 'CHF', pointValue: 0.01, amount: 3125 },
            { currency: 'EUR', pointValue: 0.01, amount: 3125 },
          ],
          buckets: [
            {
              start: '2026-01-01',
              end: '2026-01-31',
              issued: { base: 40_000, campaign: 6_000, manual: 1_000, total: 47_000 },
              redeemed: 18_000,
              reversed: 1_200,
              expired: 3_000,
              deducted: 300,
              outstanding: 274_500,
              pending: 5_200,
            },
            {
              start: '2026-02-01',
              end: '2026-02-28',
              issued: { base: 36_000, campaign: 4_000, manual: 500, total: 40_500 },
              redeemed: 20_000,
              reversed: 900,
              expired: 2_500,
              deducted: 100,
              outstanding: 291_500,
              pending: 4_800,
            },
            {
              start: '2026-03-01',
              end: '2026-03-31',
              issued: { base: 44_000, campaign: 8_000, manual: 0, total: 52_000 },
              redeemed: 25_000,
              reversed: 1_500,
              expired: 4_000,
              deducted: 500,
              outstanding: 312_500,
              pending: 6_100,
            },
          ],
          campaigns: [
            { campaignId: ids.campaign, name: 'Gold weekends in Berlin', points: 11_000, rewards: 2_750, previousPoints: 8_400 },
            { campaignId: 'cmp_01jpz8g3h5k7m9p1r3t5v7x9zb', name: 'Big baskets', points: 7_000, rewards: 140, previousPoints: 6_500 },
          ],
          previous: {
            from: '2025-10-03',
            to: '2025-12-31',
            totals: {
              opening: 221_000,
              issued: { base: 110_000, campaign: 14_900, manual: 1_100, total: 126_000 },
              redeemed: 84_500,
              reversed: 2_900,
              expired: 8_700,
              deducted: 900,
              outstanding: 250_000,
              pending: 5_400,
            },
          },
        },
      },
    },
  },
  getMembersReport: {
    query: { from: '2026-03-01', to: '2026-03-31' },
    responses: {
      200: {
        data: {
          from: '2026-03-01',
          to: '2026-03-31',
          timeZone: 'Europe/Berlin',
          members: 1284,
          tiers: [
            { tier: 'bronze', name: 'Bronze', members: 1050 },
            { tier: 'silver', name: 'Silver', members: 190 },
            { tier: 'gold', name: 'Gold', members: 44 },
          ],
          active: 412,
          previous: { from: '2026-01-29', to: '2026-02-28', active: 368 },
        },
      },
    },
  },
};
