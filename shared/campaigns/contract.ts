import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import { campaignSchema, campaignSimulationSchema, createCampaignBody, listCampaignsQuery, simulateCampaignsBody, updateCampaignBody } from './schemas';
import { dataOf, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });

export const campaignsArea = declareArea({
  area: 'campaigns',
  description:
    "Campaigns of a workspace's program: rules that grant bonus points, multiply an order's points or hand out a coupon when a trigger's conditions hold.",
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listCampaigns: {
      method: 'GET',
      path: '/api/flash/campaigns',
      auth: ['adminSession', 'apiKey'],
      permission: 'campaigns:read',
      scope: 'campaigns:read',
      summary: 'List campaigns',
      query: listCampaignsQuery,
      responses: { 200: pageOf(campaignSchema) },
    },
    createCampaign: {
      method: 'POST',
      path: '/api/flash/campaigns',
      auth: ['adminSession', 'apiKey'],
      permission: 'campaigns:manage',
      scope: 'campaigns:manage',
      summary: 'Define a campaign',
      idempotent: true,
      body: createCampaignBody,
      responses: { 201: dataOf(campaignSchema) },
      description:
        'A campaign starts as `draft` unless a status is given. A pool (coupon effect), store, tier or tag it names must exist in the workspace (422 naming the field). Audited as `campaign.created`.',
    },
    simulateCampaigns: {
      method: 'POST',
      path: '/api/flash/campaigns/simulate',
      auth: ['adminSession', 'apiKey'],
      permission: 'campaigns:simulate',
      scope: 'campaigns:read',
      summary: 'What an order would earn, with every live campaign',
      body: simulateCampaignsBody,
      responses: { 200: dataOf(campaignSimulationSchema) },
      description:
        'Evaluates the order exactly as a real one: its base points under the current earn rules, then the live `order` campaigns by priority (a non-stackable one applies alone), within their limits. Stores nothing: no ledger entry, no idempotency record, no event.',
    },
    getCampaign: {
      method: 'GET',
      path: '/api/flash/campaigns/{id}',
      auth: ['adminSession', 'apiKey'],
      permission: 'campaigns:read',
      scope: 'campaigns:read',
      summary: 'Get a campaign',
      params: byId,
      responses: { 200: dataOf(campaignSchema) },
    },
    updateCampaign: {
      method: 'PATCH',
      path: '/api/flash/campaigns/{id}',
      auth: ['adminSession', 'apiKey'],
      permission: 'campaigns:manage',
      scope: 'campaigns:manage',
      summary: 'Change a campaign',
      params: byId,
      body: updateCampaignBody,
      responses: { 200: dataOf(campaignSchema) },
      description:
        'Changes the fields given; the result is checked whole, as a new campaign would be. With `version`, only if the campaign is still at it (409 otherwise). An `ended` campaign cannot change its status again. Audited as `campaign.updated`.',
    },
    deleteCampaign: {
      method: 'DELETE',
      path: '/api/flash/campaigns/{id}',
      auth: ['adminSession', 'apiKey'],
      permission: 'campaigns:manage',
      scope: 'campaigns:manage',
      summary: 'Delete a campaign',
      params: byId,
      responses: { 204: null },
      description: 'The points it granted stay in the ledger, naming the campaign. Audited as `campaign.deleted`.',
    },
  },
});
