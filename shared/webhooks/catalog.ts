import * as z from 'zod';
import { eventDataSchema, EVENTS, type EventType } from '../platform/events/registry';

/** The envelope every delivery carries (spec 6.2). */
export const envelopeSchema = z
  .object({
    id: z.string().describe('evt_...; the same as the webhook-id header'),
    type: z.string().describe('Event key, e.g. member.created'),
    created_at: z.string().describe('ISO 8601 UTC with milliseconds'),
    data: eventDataSchema.describe('Compact block: ids, tier, amount band; never personal data'),
  })
  .describe('The body of every webhook delivery');

export const SIGNATURE_HEADERS = {
  'webhook-id': 'evt_...; identical across retries and replays; use it to drop duplicates',
  'webhook-timestamp': 'Unix seconds of this attempt; reject if more than 300 s from your clock',
  'webhook-signature':
    'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}" keyed with the base64-decoded secret after whsec_>; during a secret rotation several values separated by spaces: accept if any matches (constant-time compare)',
  'content-type': 'application/json',
} as const;

/** The internal test event: sent only by POST /webhooks/{id}/test, never subscribable. */
export const PING_EVENT = 'webhook.ping';

/** GET /events/catalog: only events that fire (the registry holds exactly those), grouped by stage order. */
export function eventCatalog() {
  const events = (Object.entries(EVENTS) as [EventType, (typeof EVENTS)[EventType]][]).map(([event, def]) => ({
    event,
    label: def.label,
    stage: def.stage,
    examplePayload: { id: 'evt_01j9z3k4m5n6p7q8r9s0t1v2w3', type: event, created_at: '2026-11-20T10:15:30.123Z', data: def.example },
  }));
  return { events, payload: { schema: z.toJSONSchema(envelopeSchema, { target: 'draft-2020-12' }), headers: SIGNATURE_HEADERS } };
}
