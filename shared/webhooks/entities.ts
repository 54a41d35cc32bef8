/**
 * Webhook endpoints, their signing secrets, deliveries and delivery attempts as the table stores
 * them, declared once below the domain. An attempt is answered as stored: the API's schema derives
 * from this one.
 */
import * as z from 'zod';
import { defineEntity, seqKey } from '../platform/data/entity';

export const ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

/**
 * A signing secret as the table holds it: `sealed` (envelope-encrypted, bound to its item; see the
 * webhooks area's secret-storage.ts). Items written before secrets were sealed hold the plaintext
 * `value` instead; they are read as they are and sealed on their next write.
 */
export const storedSecretSchema = () =>
  z.object({
    sealed: z.string().optional(),
    value: z.string().optional(),
    createdAt: z.string(),
    expiresAt: z.number().nullable(),
  });
export type StoredSecret = z.infer<ReturnType<typeof storedSecretSchema>>;

export const endpointRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()),
    status: z.enum(ENDPOINT_STATUSES),
    disabledReason: z.string().nullable(),
    /** Newest first. */
    secrets: z.array(storedSecretSchema()),
    /** Epoch seconds of the first failure since the last success (absent while healthy). */
    failingSince: z.number().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  });
export type EndpointRecord = z.infer<ReturnType<typeof endpointRecordSchema>>;

export const endpointEntity = /* @__PURE__ */ defineEntity({
  name: 'webhookEndpoint',
  keys: (e: EndpointRecord) => ({ workspaceId: e.workspaceId, endpointId: e.id }),
});

export const DELIVERY_STATES = ['delivered', 'retrying', 'failed', 'dead', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
/** States that end a delivery's chain: nothing more is sent unless it is replayed. `retrying` (and a replay's `pending`) is live. */
export const FINAL_DELIVERY_STATES = ['delivered', 'failed', 'dead', 'cancelled'] as const;
export type FinalDeliveryState = (typeof FINAL_DELIVERY_STATES)[number];
export const isFinalDeliveryState = (state: string): state is FinalDeliveryState => (FINAL_DELIVERY_STATES as readonly string[]).includes(state);

/** Delivery log entries are kept 30 days. */
const LOG_TTL_SECONDS = 30 * 24 * 3600;

/** Where a delivery log entry lives: its endpoint (the record does not name it). */
interface AttemptContext {
  workspaceId: string;
  endpointId: string;
}

/** One attempt in the delivery log, answered as stored; the item expires (`expiresAt`) after 30 days. */
export const attemptRecordSchema = () =>
  z.object({
    id: z.string(),
    deliveryId: z.string().describe('dlv_...: one event to one endpoint; replay it by this id'),
    eventId: z.string().describe('evt_...: the webhook-id header'),
    eventType: z.string(),
    attempt: z.number().int().describe('1 for the first try of a send (a replay starts again at 1)'),
    trigger: z.enum(['event', 'replay', 'test']),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable().describe('Why there was no usable answer (time-out, refused target, ...)'),
    durationMs: z.number().int(),
    responseExcerpt: z.string().nullable().describe('First 1 KB of the receiver’s answer'),
    nextRetryAt: z.string().nullable(),
    /** The delivery's state after this attempt. */
    state: z.enum(DELIVERY_STATES).describe('State of the delivery after this attempt'),
    at: z.string(),
    requestId: z
      .string()
      .optional()
      .describe(
        'The x-request-id of the API request that caused this attempt (the change behind the event, or the replay or test call); absent when no API request did',
      ),
  });
export type AttemptRecord = z.infer<ReturnType<typeof attemptRecordSchema>>;

export const attemptEntity = /* @__PURE__ */ defineEntity({
  name: 'webhookAttempt',
  keys: (a: AttemptRecord, c: AttemptContext) => ({ ...c, at: a.at, deliveryId: a.deliveryId, attempt: seqKey(a.attempt) }),
  beside: { expiresAt: (a) => attemptExpiry(a.at) },
});

/** Epoch seconds at which an attempt's log entry (and its delivery's item) expires. */
export const attemptExpiry = (at: string): number => Math.floor(Date.parse(at) / 1000) + LOG_TTL_SECONDS;

/** One event to one endpoint: its state and raw payload (for replays); only a dead one is in the dead index (gsi1). */
export const deliveryRecordSchema = () =>
  z.object({
    deliveryId: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    payload: z.string(),
    state: z.enum([...DELIVERY_STATES, 'pending']),
    attempts: z.number(),
    lastAttemptAt: z.string().nullable(),
    createdAt: z.string(),
  });
export type DeliveryRecord = z.infer<ReturnType<typeof deliveryRecordSchema>>;

export const deliveryEntity = /* @__PURE__ */ defineEntity({
  name: 'webhookDelivery',
  keys: (d: DeliveryRecord, c: { workspaceId: string }) => ({ workspaceId: c.workspaceId, endpointId: d.endpointId, deliveryId: d.deliveryId }),
  when: { gsi1: (d) => d.state === 'dead' },
  /** Its log's expiry: moved by each attempt. */
  beside: { expiresAt: (d) => attemptExpiry(d.lastAttemptAt ?? d.createdAt) },
});
