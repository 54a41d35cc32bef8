import * as z from 'zod';
import * as ambassador from '../../ambassador';
import { candidateSchema, candidatesQuery, metricsSchema, referralCodeSchema } from '../../ambassador';
import * as tracking from '../../tracking';
import { statsQuery, statsSchema } from '../../tracking';
import { eventCatalog, attemptSchema, endpointSchema } from '../../webhooks';
import * as webhooks from '../../webhooks';
import { defineTool, idempotencyKeyArg, memberIdArg, pageArgs, pageOf, pageResult, READ_ONLY, write } from '../registry';

/** Webhooks (read side), tracking statistics and the ambassador program. */

export const eventCatalogSchema = z.object({
  events: z.array(z.object({ event: z.string(), label: z.string(), stage: z.string(), examplePayload: z.record(z.string(), z.unknown()) })),
  payload: z.object({ schema: z.record(z.string(), z.unknown()), headers: z.record(z.string(), z.string()) }),
});

export const insightTools = [
  defineTool({
    name: 'list_webhook_endpoints',
    title: 'List webhook endpoints',
    description: 'The webhook endpoints of the workspace (without secrets): url, subscribed events, status, and whether deliveries have been failing.',
    rest: 'listWebhookEndpoints',
    service: webhooks.listEndpoints,
    input: z.strictObject(pageArgs),
    output: pageOf(endpointSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await webhooks.listEndpoints(ctx.workspaceId, a.limit, a.cursor)),
  }),
  defineTool({
    name: 'get_event_catalog',
    title: 'Webhook event catalog',
    description:
      'The events that fire (key, label, stage, an example), the envelope every delivery carries and the signature headers. Also the resource events://catalog.',
    rest: 'getEventCatalog',
    service: eventCatalog,
    input: z.strictObject({}),
    output: eventCatalogSchema,
    annotations: READ_ONLY,
    run: async () => eventCatalog(),
  }),
  defineTool({
    name: 'list_webhook_deliveries',
    title: 'Recent webhook deliveries',
    description:
      "An endpoint's delivery log, newest first: one entry per attempt with the event, status or error, duration, the start of the answer and the next retry.",
    rest: 'listWebhookDeliveries',
    service: webhooks.listDeliveries,
    input: z.strictObject({ endpointId: z.string().min(1).max(64).describe('The endpoint id (whe_...)'), ...pageArgs }),
    output: pageOf(attemptSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await webhooks.listDeliveries(ctx.workspaceId, a.endpointId, { limit: a.limit, cursor: a.cursor })),
  }),
  defineTool({
    name: 'get_tracking_stats',
    title: 'Tracking statistics',
    description:
      'Accepted behavioural events per type and UTC day between from and to (both included, YYYY-MM-DD, at most 92 days; default the last 30), with totals.',
    rest: 'getTrackingStats',
    service: tracking.stats,
    input: statsQuery,
    output: statsSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => tracking.stats(ctx.workspaceId, a),
  }),
  defineTool({
    name: 'get_ambassador_metrics',
    title: 'Ambassador program metrics',
    description: 'Referral codes issued, sign-ups referred through them, and the revenue of referred members per currency (completed orders net of refunds).',
    rest: 'getAmbassadorMetrics',
    service: ambassador.metrics,
    input: z.strictObject({}),
    output: metricsSchema,
    annotations: READ_ONLY,
    run: (ctx) => ambassador.metrics(ctx.workspaceId),
  }),
  defineTool({
    name: 'list_ambassador_candidates',
    title: 'Ambassador candidates',
    description:
      'Active members who qualify as ambassadors (enough lifetime points or completed orders), with their referral code if issued and their referred sign-ups.',
    rest: 'listAmbassadorCandidates',
    service: ambassador.listCandidates,
    input: z.strictObject({
      ...pageArgs,
      minLifetimePoints: candidatesQuery.shape.minLifetimePoints,
      minOrderCount: candidatesQuery.shape.minOrderCount,
    }),
    output: pageOf(candidateSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await ambassador.listCandidates(ctx.workspaceId, a)),
  }),
  defineTool({
    name: 'issue_referral_code',
    title: "Issue a member's referral code",
    description:
      "The member's referral code: made the first time, the same code on every later call (issued: false). An unenrolled member without a code is CONFLICT.",
    rest: 'issueReferralCode',
    service: ambassador.issueReferralCode,
    input: z.strictObject({ memberId: memberIdArg, idempotencyKey: idempotencyKeyArg }),
    output: z.object({ code: referralCodeSchema, issued: z.boolean().describe('false: the member already had this code') }),
    annotations: write({ destructive: false, idempotent: true }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => ambassador.issueReferralCode(ctx.workspaceId, a.memberId, w),
  }),
];
