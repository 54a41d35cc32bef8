/**
 * Webhook endpoints, their signing secrets and delivery attempts as the table stores them. Plain
 * declarations below the domain, so the data layer can name them without importing it. An attempt
 * is answered as stored: the domain's answer schema is checked against `AttemptRecord` at compile
 * time (`SameShape`), so this stays the one description of what is stored.
 */

export const ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

/**
 * A signing secret as the table holds it: `sealed` (envelope-encrypted, bound to its item; see the
 * webhooks area's secret-storage.ts). Items written before secrets were sealed hold the plaintext
 * `value` instead; they are read as they are and sealed on their next write.
 */
export interface StoredSecret {
  sealed?: string;
  value?: string;
  createdAt: string;
  expiresAt: number | null;
}

export interface EndpointRecord {
  id: string;
  workspaceId: string;
  url: string;
  description: string;
  eventTypes: string[];
  status: EndpointStatus;
  disabledReason: string | null;
  /** Newest first. */
  secrets: StoredSecret[];
  /** Epoch seconds of the first failure since the last success (absent while healthy). */
  failingSince?: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const DELIVERY_STATES = ['delivered', 'retrying', 'failed', 'dead', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface AttemptRecord {
  id: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  trigger: 'event' | 'replay' | 'test';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  nextRetryAt: string | null;
  /** The delivery's state after this attempt. */
  state: DeliveryState;
  at: string;
  requestId?: string;
}
