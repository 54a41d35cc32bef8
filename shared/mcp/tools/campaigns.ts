import * as z from 'zod';
import * as campaigns from '../../campaigns';
import {
  simulateCampaigns,
  campaignSchema,
  campaignSimulationSchema,
  createCampaignBody,
  listCampaignsQuery,
  simulateCampaignsBody,
  updateCampaignBody,
} from '../../campaigns';
import { defineTool, idempotencyKeyArg, pageArgs, pageOf, pageResult, READ_ONLY, toolAudit, write } from '../registry';

/**
 * Campaigns: the same domain services and scopes as /api/flash/campaigns (`campaigns:read`, and
 * `campaigns:manage`, which no preset carries: docs/decisions/). Each change is audited with the
 * key as its actor.
 */

const campaignIdArg = z.string().min(1).max(64).describe('The campaign id (cmp_...), e.g. from list_campaigns');

export const campaignTools = [
  defineTool({
    name: 'list_campaigns',
    title: 'List campaigns',
    description: "The workspace's campaigns (bonus points, multipliers, coupons on a trigger), with their grant counters; filter by status.",
    rest: 'listCampaigns',
    service: campaigns.listCampaigns,
    input: z.strictObject({ ...pageArgs, status: listCampaignsQuery.shape.status }),
    output: pageOf(campaignSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await campaigns.listCampaigns(ctx.workspaceId, a)),
  }),
  defineTool({
    name: 'get_campaign',
    title: 'A campaign',
    description: 'One campaign: trigger, conditions, effect, limits, status, and what it granted so far (grants, pointsGranted).',
    rest: 'getCampaign',
    service: campaigns.getCampaign,
    input: z.strictObject({ campaignId: campaignIdArg }),
    output: campaignSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => campaigns.getCampaign(ctx.workspaceId, a.campaignId),
  }),
  defineTool({
    name: 'simulate_campaigns',
    title: 'Try an order against the campaigns',
    description:
      "What an order would earn, evaluated as a real order is (the member's grants so far, budgets, coupon stock): its base points, each grant, and every order campaign with why it granted or not (outcome, reason, the failing condition). Takes the order as POST /api/v2/orders does, the member by id or e-mail, or a new member. Stores nothing.",
    rest: 'simulateCampaigns',
    service: simulateCampaigns,
    input: simulateCampaignsBody,
    output: campaignSimulationSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => simulateCampaigns(ctx.workspaceId, a),
  }),
  defineTool({
    name: 'create_campaign',
    title: 'Define a campaign',
    description:
      'A new campaign, `draft` unless a status is given (only `active` campaigns grant). A pool, store, tier or tag it names must exist. Pass an idempotencyKey so a retry cannot create it twice.',
    rest: 'createCampaign',
    service: campaigns.createCampaign,
    input: z.strictObject({
      campaign: createCampaignBody.describe('name, trigger, effect; optional status, dates, conditions, limits, priority, stackable'),
      idempotencyKey: idempotencyKeyArg,
    }),
    output: campaignSchema,
    annotations: write({ destructive: false, idempotent: true }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => campaigns.createCampaign(ctx.workspaceId, a.campaign, toolAudit(ctx), w),
  }),
  defineTool({
    name: 'update_campaign',
    title: 'Change a campaign',
    description:
      'Changes the fields given (e.g. status active or paused); the result is checked whole. With version, only if the campaign is still at it (CONFLICT otherwise). An ended campaign keeps its status.',
    rest: 'updateCampaign',
    service: campaigns.updateCampaign,
    input: z.strictObject({ campaignId: campaignIdArg, changes: updateCampaignBody.describe('The fields to change, and optionally the version you read') }),
    output: campaignSchema,
    annotations: write({ destructive: false, idempotent: true }),
    writes: 'guard',
    run: (ctx, a) => campaigns.updateCampaign(ctx.workspaceId, a.campaignId, a.changes, toolAudit(ctx)),
  }),
  defineTool({
    name: 'delete_campaign',
    title: 'Delete a campaign',
    description:
      'Removes a campaign: it grants nothing more; the points it granted stay in the ledger, naming it. Prefer update_campaign with status ended to keep it listed.',
    rest: 'deleteCampaign',
    service: campaigns.deleteCampaign,
    input: z.strictObject({ campaignId: campaignIdArg }),
    output: z.object({ campaignId: z.string(), deleted: z.literal(true) }),
    annotations: write({ destructive: true, idempotent: true }),
    writes: 'guard',
    run: async (ctx, a) => {
      await campaigns.deleteCampaign(ctx.workspaceId, a.campaignId, toolAudit(ctx));
      return { campaignId: a.campaignId, deleted: true as const };
    },
  }),
];
