import { eventCatalog, type webhooksArea } from '../../webhooks';
import { twinned } from '../../platform/contract/admin-twins';
import type { AreaExamples } from './types';
import { at, delivery, ids, webhookAttempt, webhookEndpoint } from './world';

/** A delivery whose attempts ran out: the entry the dead-letter consumer adds. */
const deadAttempt = {
  ...webhookAttempt,
  id: 'att_01jpz8v3n5q7s9u1w3y5a7c9ek',
  attempt: 4,
  statusCode: null,
  error: 'all 4 attempts failed; dead (replay it once the receiver is fixed)',
  durationMs: 0,
  responseExcerpt: null,
  state: 'dead' as const,
  at: '2026-03-14T19:41:26.000Z',
};

const secret = 'whsec_Kx3mQ9vT2pW7rZ5nB8cF1hJ4dL6sG0yA2eU8iO5wX1t=';

// One example per operation; its admin-session twin shows the same.
export const webhooksExamples: AreaExamples<typeof webhooksArea> = twinned({
  createWebhookEndpoint: {
    summary: 'Send member, points and order events to the CRM',
    request: {
      url: webhookEndpoint.url,
      description: webhookEndpoint.description,
      eventTypes: ['member.created', 'loyalty.points_earned', 'order.created', 'order.refunded'],
    },
    responses: { 201: { data: { ...webhookEndpoint, secret } } },
  },
  listWebhookEndpoints: { query: { limit: 50 }, responses: { 200: { data: [webhookEndpoint], nextCursor: null } } },
  updateWebhookEndpoint: {
    summary: 'Rotate the signing secret (the old one keeps signing for 24 hours)',
    params: { id: ids.webhook },
    request: { action: 'rotate_secret' },
    responses: { 200: { data: { ...webhookEndpoint, updatedAt: at.now, secret: 'whsec_Pn7wR2tY5kM9qX3vB6cH1jF4dL8sG0zA2eU8iO5wE3r=' } } },
  },
  deleteWebhookEndpoint: { params: { id: ids.webhook }, responses: {} },
  // The catalog is fixed by the platform, so its example is the real answer.
  getEventCatalog: { responses: { 200: { data: eventCatalog() } } },
  listWebhookDeliveries: {
    summary: 'The deliveries that died',
    params: { id: ids.webhook },
    query: { limit: 50, status: 'dead' },
    responses: { 200: { data: [deadAttempt], nextCursor: null } },
  },
  replayWebhookDelivery: {
    params: { id: ids.webhook, deliveryId: delivery },
    responses: { 202: { data: { deliveryId: delivery, eventId: ids.event, state: 'pending' } } },
  },
  triggerWebhookEvent: {
    summary: 'Send a sample order.created',
    request: { eventType: 'order.created' },
    responses: { 202: { data: { eventId: ids.event, eventType: 'order.created', deliveries: [{ endpointId: ids.webhook, deliveryId: delivery }] } } },
  },
  testWebhookEndpoint: {
    summary: 'Send a webhook.ping event',
    params: { id: ids.webhook },
    responses: { 202: { data: { deliveryId: 'dlv_7k2m9q4v8x1c5t3r6w0y2b4d6f', eventId: 'evt_01jpz8y6a8c0e2g4j6m8p0r2tv', state: 'pending' } } },
  },
  replayDeadWebhookDeliveries: {
    summary: 'Send the dead deliveries again once the receiver is fixed',
    params: { id: ids.webhook },
    responses: { 202: { data: { queued: 12, more: false } } },
  },
});
