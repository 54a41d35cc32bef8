import { outboxStep } from './outbox-repository';
import type { TransactStep } from '../data/transactions';
import { newId } from '../ids';
import { countEvents } from './metrics';
import { eventDataSchema, type EventData, type EventType, type OutboxEvent } from './registry';

/** One event of a change; the strict data schema keeps personal data out of every payload. */
export function event(type: EventType, data: EventData, now = new Date()): OutboxEvent {
  return { id: newId('evt'), type, created_at: now.toISOString(), data: eventDataSchema.parse(data) };
}

/**
 * The outbox step for the events of one transaction (none when there are none). Once the
 * transaction commits, the business metrics its events stand for are emitted (`./metrics`).
 */
export const publish = (workspaceId: string, events: OutboxEvent[]): TransactStep[] =>
  outboxStep(workspaceId, events).map((step) => ({ ...step, onCommitted: () => countEvents(events) }));
