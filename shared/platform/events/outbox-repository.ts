import { correlationId } from '../observability/correlation';
import { keyOf } from '../data/keys';
import type { TransactStep } from '../data/transactions';

/** How long an outbox item stays after the stream has carried it on (TTL), for support lookups. */
const OUTBOX_TTL_SECONDS = 7 * 24 * 3600;

/** What the outbox item needs of an event (shared/platform/events declares the event itself). */
interface OutboxItemEvent {
  readonly id: string;
  readonly created_at: string;
}

/**
 * The events of one change as ONE item of the transaction that makes the change: both commit or
 * neither does (no dual writes), at the cost of a single extra item however many events there are.
 * The item records the request that made the change (`requestId`, absent when no HTTP request
 * did), which the fan-out carries to every delivery.
 */
export function outboxStep(workspaceId: string, events: readonly OutboxItemEvent[]): TransactStep[] {
  if (events.length === 0) return [];
  const first = events[0]!;
  const requestId = correlationId();
  return [
    {
      op: {
        Put: {
          Item: {
            ...keyOf('outbox', { workspaceId, batchId: first.id }),
            entity: 'outbox',
            workspaceId,
            events,
            ...(requestId ? { requestId } : {}),
            expiresAt: Math.floor(Date.parse(first.created_at) / 1000) + OUTBOX_TTL_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ];
}
