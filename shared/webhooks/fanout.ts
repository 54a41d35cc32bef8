import type { OutboxEvent } from '../platform/events/registry';
import type { Queue } from '../platform/ports/queue';
import { deliveryIdOf } from './delivery-id';
import { subscribesTo } from './schemas';
import { subscriptions } from './subscriptions';
import type { DeliveryMessage } from './types';

/** The body of a delivery: exactly the spec 6.2 envelope, serialised once for every attempt. */
export const envelopeOf = (e: OutboxEvent): string => JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at, data: e.data });

/**
 * One queue message per (event, subscribed active endpoint). Running twice for the same outbox item
 * (at-least-once) yields the same delivery ids, hence duplicates the receiver can drop by webhook-id.
 * The subscriptions come from the per-container cache (`./subscriptions`). `requestId` is the
 * outbox item's: the request that made the change, carried into every delivery.
 */
export async function fanOut(workspaceId: string, events: OutboxEvent[], queue: Queue, requestId?: string): Promise<number> {
  const endpoints = (await subscriptions(workspaceId)).filter((e) => e.status === 'active');
  const messages: DeliveryMessage[] = events.flatMap((event) =>
    endpoints
      .filter((e) => subscribesTo(e.eventTypes, event.type))
      .map((e) => ({
        workspaceId,
        endpointId: e.id,
        deliveryId: deliveryIdOf(event.id, e.id),
        eventId: event.id,
        eventType: event.type,
        payload: envelopeOf(event),
        trigger: 'event' as const,
        ...(requestId ? { requestId } : {}),
      })),
  );
  if (messages.length)
    await queue.send(
      'webhookDeliveries',
      messages.map((m) => ({ body: JSON.stringify(m) })),
    );
  return messages.length;
}
