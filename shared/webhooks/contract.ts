import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import { pageQuery, pageQueryShape } from '../platform/validation/pagination';
import { config } from '../platform/config';
import { DELIVERY_STATES } from './entities';
import { attemptSchema, createEndpointBody, endpointSchema, triggerEventBody, triggeredSchema, updateEndpointBody } from './schemas';
import { dataOf, errorBody, pageOf } from '../platform/contract/contract';
import { withAdminTwins } from '../platform/contract/admin-twins';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });
const withSecret = endpointSchema.extend({ secret: z.string().describe('whsec_...: shown only in this response') });
const queued = dataOf(z.object({ deliveryId: z.string(), eventId: z.string(), state: z.literal('pending') }));
const bulkReplayedSchema = z.object({
  queued: z.number().int().describe('Dead deliveries queued again by this call'),
  more: z.boolean().describe('Dead deliveries are left beyond this call’s bound: call again'),
});
const deliveryLogQuery = z.strictObject({
  ...pageQueryShape,
  status: z
    .enum(DELIVERY_STATES)
    .optional()
    .describe('Only entries whose delivery was left in this state, e.g. `dead`: the deliveries that ran out of attempts'),
  deliveryId: idSchema.optional().describe('Only the attempts of this delivery (dlv_...)'),
});

/**
 * Every operation of the area, once: API keys with `webhooks:manage` call them under /api/v2, owners
 * and admins (the console) under /api/flash (see admin-twins.ts). Creating and rotating are not
 * `idempotent`: their answer holds a secret shown once, which an idempotency record would keep.
 */
const operations = {
  createWebhookEndpoint: {
    method: 'POST',
    path: '/api/v2/webhooks',
    summary: 'Subscribe an endpoint to events (secret shown once)',
    body: createEndpointBody,
    responses: { 201: dataOf(withSecret) },
    description: 'The url must be https (a literal private, loopback or metadata address is refused); eventTypes are keys of the event catalog.',
  },
  listWebhookEndpoints: {
    method: 'GET',
    path: '/api/v2/webhooks',
    summary: 'List endpoints (without secrets)',
    query: pageQuery,
    responses: { 200: pageOf(endpointSchema) },
  },
  updateWebhookEndpoint: {
    method: 'PATCH',
    path: '/api/v2/webhooks/{id}',
    summary: 'Change an endpoint, or rotate its secret',
    params: byId,
    body: updateEndpointBody,
    responses: {
      200: dataOf(endpointSchema.extend({ secret: z.string().optional().describe('Only after action rotate_secret: the new secret, shown once') })),
    },
    description:
      'Change url, description, eventTypes or status (active | disabled), or send { "action": "rotate_secret" }: the new secret is returned once and the old one keeps signing next to it for 24 hours.',
  },
  deleteWebhookEndpoint: {
    method: 'DELETE',
    path: '/api/v2/webhooks/{id}',
    summary: 'Remove an endpoint',
    params: byId,
    responses: { 204: null },
    description: 'No further deliveries; queued ones are dropped.',
  },
  getEventCatalog: {
    method: 'GET',
    path: '/api/v2/events/catalog',
    summary: 'The events that fire, with the envelope and signature headers',
    responses: {
      200: dataOf(
        z.object({
          events: z.array(z.object({ event: z.string(), label: z.string(), stage: z.string(), examplePayload: z.record(z.string(), z.unknown()) })),
          payload: z.object({ schema: z.record(z.string(), z.unknown()), headers: z.record(z.string(), z.string()) }),
        }),
      ),
    },
    description: 'Only events that fire are listed. `payload` documents the envelope and the signature headers.',
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/api/v2/webhooks/{id}/deliveries',
    summary: 'Delivery log: one entry per attempt',
    params: byId,
    query: deliveryLogQuery,
    responses: { 200: pageOf(attemptSchema) },
    description:
      'The delivery log, newest first: one entry per attempt, and one when a delivery is declared dead. `status` and `deliveryId` narrow it; a narrowed page may hold fewer entries than `limit` and still have a `nextCursor`.',
  },
  replayWebhookDelivery: {
    method: 'POST',
    idempotent: true,
    path: '/api/v2/webhooks/{id}/deliveries/{deliveryId}/replay',
    summary: 'Send a delivery again (same webhook-id)',
    params: z.object({ id: idSchema, deliveryId: idSchema }),
    responses: { 202: queued, 409: errorBody },
    description:
      'Sends the recorded payload again with the same webhook-id. Only a delivery whose chain has ended (`delivered`, `failed`, `dead`, or `cancelled` while the endpoint was disabled) is replayed: while its retries or an earlier replay are under way the answer is 409 `DELIVERY_IN_PROGRESS` and nothing is queued; 409 `CONFLICT` while the endpoint is disabled.',
  },
  triggerWebhookEvent: {
    method: 'POST',
    idempotent: true,
    path: '/api/v2/webhooks/trigger',
    summary: 'Send a sample event to the subscribed endpoints',
    body: triggerEventBody,
    responses: { 202: dataOf(triggeredSchema) },
    description:
      'Queues one delivery of a sample of the event (its catalog example as `data`) to every active endpoint subscribed to it; nothing in the workspace changes. Logged as `trigger: test`.',
  },
  testWebhookEndpoint: {
    method: 'POST',
    idempotent: true,
    path: '/api/v2/webhooks/{id}/test',
    summary: 'Send a ping event to the endpoint',
    params: byId,
    responses: { 202: queued },
    description: 'Queues a `webhook.ping` event to this endpoint.',
  },
  replayDeadWebhookDeliveries: {
    method: 'POST',
    path: '/api/v2/webhooks/{id}/deliveries/replay-dead',
    summary: 'Send every dead delivery of the endpoint again (bounded per call)',
    idempotent: true,
    params: byId,
    responses: { 202: dataOf(bulkReplayedSchema) },
    description: `Queues the dead deliveries of the endpoint again (same payload, same webhook-id), at most ${config.webhooks.bulkReplayMax} per call; \`more: true\` says that dead ones are left: call again. Each dead delivery is taken once, so a repeated or concurrent call does not send it twice. Audited as \`webhook_endpoint.dead_deliveries_replayed\` when any was queued; 409 while the endpoint is disabled.`,
  },
} as const;

/** The operations as declared once, before their two credentials are added. */
export type WebhookOperations = typeof operations;

export const webhooksArea = declareArea({
  area: 'webhooks',
  description: 'Signed webhooks: subscribe endpoints to events, inspect the delivery log, redeliver and ping.',
  access: { table: 'readWrite', sendsTo: ['webhookDeliveries'], signingSecrets: 'seal', secrets: ['pageCursors'] },
  endpoints: withAdminTwins(operations, 'webhooks:manage', 'webhooks:manage'),
});
