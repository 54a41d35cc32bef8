import * as z from 'zod';
import { attemptRecordSchema, ENDPOINT_STATUSES } from './entities';
import { isoDateTime } from '../platform/validation/common';
import { EVENTS } from '../platform/events/registry';

const eventKeys = Object.keys(EVENTS) as [keyof typeof EVENTS, ...(keyof typeof EVENTS)[]];

/** Subscribes an endpoint to every event of the catalog, those added later included. */
export const ALL_EVENTS = '*';

/** `POST /webhooks/trigger`: which event of the catalog to send as a sample. */
export const triggerEventBody = z.strictObject({
  eventType: z.enum(eventKeys, { message: 'not an event of the catalog (GET /api/v2/events/catalog)' }).describe('An event of the catalog, e.g. order.created'),
});
export const triggeredSchema = z.object({
  eventId: z.string().describe('evt_...: the webhook-id of every delivery of this sample'),
  eventType: z.string(),
  deliveries: z
    .array(z.object({ endpointId: z.string(), deliveryId: z.string() }))
    .describe('One per active endpoint subscribed to the event; empty when none is'),
});

const eventTypes = z
  .array(z.union([z.enum(eventKeys), z.literal(ALL_EVENTS)], { message: `not an event of the catalog (GET /api/v2/events/catalog), nor "${ALL_EVENTS}"` }))
  .min(1)
  .max(eventKeys.length)
  .refine((a) => new Set(a).size === a.length, { message: 'lists an event twice' })
  .refine((a) => !a.includes(ALL_EVENTS) || a.length === 1, { message: `"${ALL_EVENTS}" takes every event: list it alone` })
  .describe(`Events to deliver, from the catalog; ["${ALL_EVENTS}"] for every event, including events added later`);

/** Whether an endpoint subscribed to `subscribed` takes an event of `type`. */
export const subscribesTo = (subscribed: readonly string[], type: string): boolean => subscribed.includes(ALL_EVENTS) || subscribed.includes(type);

export const endpointUrlSchema = z.string().max(2048).describe('Where deliveries are POSTed: https (http://127.0.0.1 only on the local runtime)');

export const createEndpointBody = z.strictObject({
  url: endpointUrlSchema,
  description: z.string().trim().max(500).default(''),
  eventTypes,
});

export const updateEndpointBody = z.union([
  z.strictObject({ action: z.literal('rotate_secret') }),
  z
    .strictObject({
      url: endpointUrlSchema.optional(),
      description: z.string().trim().max(500).optional(),
      eventTypes: eventTypes.optional(),
      status: z.enum(ENDPOINT_STATUSES).optional(),
    })
    .refine((b) => Object.keys(b).length > 0, { message: 'give at least one of url, description, eventTypes, status, or action' }),
]);

export type CreateEndpointInput = z.infer<typeof createEndpointBody>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointBody>;

export const endpointSchema = z
  .object({
    id: z.string().describe('whe_...'),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()),
    status: z.enum(ENDPOINT_STATUSES),
    disabledReason: z.string().nullable().describe('Why the platform disabled it (e.g. failing for 5 days)'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'WebhookEndpoint' });

export type Endpoint = z.infer<typeof endpointSchema>;

// An attempt is answered as stored.
export const attemptSchema = attemptRecordSchema().extend({ nextRetryAt: isoDateTime.nullable(), at: isoDateTime }).meta({ id: 'WebhookAttempt' });

export type Attempt = z.infer<typeof attemptSchema>;
