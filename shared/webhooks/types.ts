import type { EndpointRecord } from './entities';
import type { Endpoint } from './schemas';

export interface SigningSecret {
  /** `whsec_<base64>`; signing uses the base64-decoded bytes after the prefix. */
  value: string;
  createdAt: string;
  /** Epoch seconds after which this secret stops signing (set on the old secret at rotation). */
  expiresAt: number | null;
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
