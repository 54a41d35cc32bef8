import { campaignSchema, type campaignsArea } from '../../campaigns';
import type { AreaExamples } from './types';
import { outputOf } from './types';
import { ids } from './world';

/** Double points on weekend orders of gold members at the Berlin store, at most 5 times per member. */
const definition = {
  name: 'Gold weekends in Berlin',
  status: 'active' as const,
  startsAt: '2026-04-01T00:00:00.000Z',
  endsAt: '2026-07-01T00:00:00.000Z',
  trigger: { type: 'order' as const },
  conditions: [
    { field: 'order.storeId' as const, op: 'eq' as const, value: ids.store },
    { field: 'member.tier' as const, op: 'eq' as const, value: 'gold' },
    { field: 'date.weekday' as const, op: 'in' as const, value: ['saturday', 'sunday'] },
  ],
  effect: { type: 'multiplier' as const, factor: 2 },
  limits: { perMember: 5, totalPoints: 100_000 },
  priority: 10,
  stackable: true,
};

const campaign = outputOf(campaignSchema, {
  id: ids.campaign,
  ...definition,
  grants: 0,
  pointsGranted: 0,
  version: 1,
  createdAt: '2026-03-20T09:00:00.000Z',
  updatedAt: '2026-03-20T09:00:00.000Z',
});

export const campaignsExamples: AreaExamples<typeof campaignsArea> = {
  listCampaigns: { query: { status: 'active', limit: 50 }, responses: { 200: { data: [campaign], nextCursor: null } } },
  createCampaign: { summary: 'Double points for gold members on weekends in one store', request: definition, responses: { 201: { data: campaign } } },
  simulateCampaigns: {
    summary: 'A Saturday order of 42.50 EUR by a gold member, sent as POST /api/v2/orders would take it: 42 base points, doubled',
    request: {
      order: {
        externalOrderId: 'WEB-100240',
        memberId: ids.member,
        total: 42.5,
        currency: 'EUR',
        storeId: ids.store,
        items: [{ sku: 'BEANS-1KG', category: 'coffee', brand: 'Roastery', quantity: 1 }],
        occurredAt: '2026-04-04T10:30:00+02:00',
      },
    },
    responses: {
      200: {
        data: {
          basePoints: 42,
          grants: [{ campaignId: ids.campaign, points: 42, poolId: null, reason: "Gold weekends in Berlin: 2x the order's points (+42)" }],
          totalPoints: 84,
          memberId: ids.member,
          occurredAt: '2026-04-04T08:30:00.000Z',
          campaigns: [
            {
              campaignId: ids.campaign,
              name: 'Gold weekends in Berlin',
              priority: 10,
              stackable: true,
              granted: true,
              outcome: 'granted',
              points: 42,
              poolId: null,
              reason: "Gold weekends in Berlin: 2x the order's points (+42)",
              condition: null,
            },
            {
              campaignId: 'cmp_01jpz8g3h5k7m9p1r3t5v7x9zb',
              name: 'Big baskets',
              priority: 5,
              stackable: true,
              granted: false,
              outcome: 'condition_failed',
              points: 0,
              poolId: null,
              reason: 'Big baskets: order.total gte 100 does not hold (order.total: 42.5)',
              condition: { index: 0, field: 'order.total', op: 'gte', value: 100 },
            },
          ],
        },
      },
    },
  },
  getCampaign: { params: { id: ids.campaign }, responses: { 200: { data: campaign } } },
  updateCampaign: {
    summary: 'Pause it, only if nobody changed it since version 1',
    params: { id: ids.campaign },
    request: { status: 'paused', version: 1 },
    responses: { 200: { data: { ...campaign, status: 'paused', version: 2, updatedAt: '2026-05-02T08:00:00.000Z' } } },
  },
  deleteCampaign: { params: { id: ids.campaign }, responses: {} },
};
