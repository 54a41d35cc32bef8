import type { Endpoint, EndpointStatus } from './schemas';

export interface SigningSecret {
  /** `whsec_<base64>`; signing uses the base64-decoded bytes after the prefix. */
  value: string;
  createdAt: string;
  /** Epoch seconds after which this secret stops signing (set on the old secret at rotation). */
  expiresAt: number | null;
}

/**
 * A signing secret as the table holds it: `sealed` (envelope-encrypted, bound to its item; see
 * secret-storage.ts). Items written before secrets were sealed hold the plaintext `value` instead;
 * they are read as they are and sealed on their next write.
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

export const toEndpoint = (r: EndpointRecord): Endpoint => ({
  id: r.id,
  url: r.url,
  description: r.description,
  eventTypes: r.eventTypes,
  status: r.status,
  disabledReason: r.disabledReason,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** What travels on the delivery queue (its schema, checked by the consumers, is in messages.ts). */
export type { DeliveryMessage } from './messages';
