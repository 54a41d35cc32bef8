import * as z from 'zod';
import { idSchema } from '../domain/common';
import { pageQuery } from '../domain/pagination';
import { attemptSchema, createEndpointBody, endpointSchema, triggerEventBody, triggeredSchema, updateEndpointBody } from '../domain/webhooks/schemas';
import { dataOf, pageOf } from './contract';
import { declareArea } from './endpoint';

const byId = z.object({ id: idSchema });
const withSecret = endpointSchema.extend({ secret: z.string().describe('whsec_...: shown only in this response') });
const queued = dataOf(z.object({ deliveryId: z.string(), eventId: z.string(), state: z.literal('pending') }));

export const webhooksArea = declareArea({
  area: 'webhooks',
  description: 'Signed webhooks: subscribe endpoints to events, inspect the delivery log, redeliver and ping.',
  access: { table: 'readWrite', sendsTo: ['webhookDeliveries'], signingSecrets: 'seal' },
  endpoints: {
    createWebhookEndpoint: {
      method: 'POST',
      path: '/api/v2/webhooks',
      auth: ['apiKey'],
      scope: 'webhooks:manage',
      summary: 'Subscribe an endpoint to events (secret shown once)',
      body: createEndpointBody,
      responses: { 201: dataOf(withSecret) },
      description: 'The url must be https (a literal private, loopback or metadata address is refused); eventTypes are keys of the event catalog.',
    },
    listWebhookEndpoints: {
      method: 'GET',
      path: '/api/v2/webhooks',
      auth: ['apiKey'],
      scope: 'webhooks:manage',
      summary: 'List endpoints (without secrets)',
      query: pageQuery,
      responses: { 200: pageOf(endpointSchema) },
    },
    updateWebhookEndpoint: {
      method: 'PATCH',
      path: '/api/v2/webhooks/{id}',
      auth: ['apiKey'],
      scope: 'webhooks:manage',
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
      auth: ['apiKey'],
      scope: 'webhooks:manage',
      summary: 'Remove an endpoint',
      params: byId,
      responses: { 204: null },
      description: 'No further deliveries; queued ones are dropped.',
    },
    getEventCatalog: {
      method: 'GET',
      path: '/api/v2/events/catalog',
      auth: ['apiKey'],
      scope: 'webhooks:manage',
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
      auth: ['apiKey'],
      scope: 'webhooks:manage',
      summary: 'Delivery log: one entry per attempt',
      params: byId,
      query: pageQuery,
      responses: { 200: pageOf(attemptSchema) },
      description: 'The delivery log, newest first: one entry per attempt, and one when a delivery is declared dead.',
    },
    replayWebhookDelivery: {
      method: 'POST',
      path: '/api/v2/webhooks/{id}/deliveries/{deliveryId}/replay',
      auth: ['apiKey'],
      scope: 'webhooks:manage',
      summary: 'Send a delivery again (same webhook-id)',
      params: z.object({ id: idSchema, deliveryId: idSchema }),
      responses: { 202: queued },
      description: 'Sends the recorded payload again with the same webhook-id.',
    },
    triggerWebhookEvent: {
      method: 'POST',
      path: '/api/v2/webhooks/trigger',
      auth: ['apiKey'],
      scope: 'webhooks:manage',
      summary: 'Send a sample event to the subscribed endpoints',
      body: triggerEventBody,
      responses: { 202: dataOf(triggeredSchema) },
      description:
        'Queues one delivery of a sample of the event (its catalog example as `data`) to every active endpoint subscribed to it; nothing in the workspace changes. Logged as `trigger: test`.',
    },
    testWebhookEndpoint: {
      method: 'POST',
      path: '/api/v2/webhooks/{id}/test',
      auth: ['apiKey'],
      scope: 'webhooks:manage',
      summary: 'Send a ping event to the endpoint',
      params: byId,
      responses: { 202: queued },
      description: 'Queues a `webhook.ping` event to this endpoint.',
    },
  },
});
