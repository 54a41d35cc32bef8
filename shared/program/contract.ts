import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import {
  campaignSchema,
  campaignSimulationSchema,
  createCampaignBody,
  listCampaignsQuery,
  simulateCampaignsBody,
  updateCampaignBody,
} from '../campaigns/schemas';
import { advanceClockBody, clockSchema } from './clock-schemas';
import { programSchema, putProgramBody } from './schemas';
import { dataOf, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });

export const programArea = declareArea({
  area: 'program',
  description:
    "The loyalty program's rules of a workspace: how points are earned, the tiers members climb, and campaigns: rules that grant bonus points, multiply an order's points or hand out a coupon when a trigger's conditions hold.",
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    getProgram: {
      method: 'GET',
      path: '/api/flash/program',
      auth: ['adminSession'],
      summary: 'The workspace loyalty program rules',
      responses: { 200: dataOf(programSchema) },
    },
    putProgram: {
      method: 'PUT',
      path: '/api/flash/program',
      auth: ['adminSession'],
      summary: 'Replace the loyalty program rules',
      body: putProgramBody,
      responses: { 200: dataOf(programSchema) },
      description:
        'Replaces the rules. Applies to what happens next: orders keep the earn rate they were recorded with, and tiers are evaluated with the new ladder, window and retention at each member’s next points change or due tier review; a retention already granted keeps its end.',
    },
    getClock: {
      method: 'GET',
      path: '/api/flash/clock',
      auth: ['adminSession'],
      summary: "A sandbox workspace's program clock",
      responses: { 200: dataOf(clockSchema) },
      description: 'The time every program rule of the sandbox reads. A live workspace runs on real time: 409.',
    },
    advanceClock: {
      method: 'POST',
      path: '/api/flash/clock/advance',
      auth: ['adminSession'],
      summary: "Move a sandbox workspace's program clock ahead",
      idempotent: true,
      body: advanceClockBody,
      responses: { 200: dataOf(clockSchema) },
      description:
        'Moves the clock `days` ahead (never back) and answers once everything that fell due meanwhile has run: pending points activated, expiry warnings sent, points expired (each at its own time, in order). A live workspace: 409. Audited as `program.clock_advanced`.',
    },
    listCampaigns: {
      method: 'GET',
      path: '/api/flash/campaigns',
      auth: ['adminSession', 'apiKey'],
      scope: 'campaigns:read',
      summary: 'List campaigns',
      query: listCampaignsQuery,
      responses: { 200: pageOf(campaignSchema) },
    },
    createCampaign: {
      method: 'POST',
      path: '/api/flash/campaigns',
      auth: ['adminSession', 'apiKey'],
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
      scope: 'campaigns:read',
      summary: 'Get a campaign',
      params: byId,
      responses: { 200: dataOf(campaignSchema) },
    },
    updateCampaign: {
      method: 'PATCH',
      path: '/api/flash/campaigns/{id}',
      auth: ['adminSession', 'apiKey'],
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
      scope: 'campaigns:manage',
      summary: 'Delete a campaign',
      params: byId,
      responses: { 204: null },
      description: 'The points it granted stay in the ledger, naming the campaign. Audited as `campaign.deleted`.',
    },
  },
});
