import { emitMetric } from '../observability/metrics';
import type { BusinessMetricKey } from '../observability/metric-catalog';
import type { EventType } from './registry';

/**
 * The business metrics an event stands for. An order, a refund or a coupon is counted from the event
 * its transaction commits, so every path that records one (REST, MCP, batch, reconciliation) counts
 * it, once, and a refused, rolled-back or replayed write (which commits no event) counts nothing.
 */
const COUNTED: Partial<Record<EventType, BusinessMetricKey & ('ordersRecorded' | 'refunds' | 'couponsIssued' | 'couponsRedeemed')>> = {
  'order.created': 'ordersRecorded',
  'order.refunded': 'refunds',
  'coupon.issued': 'couponsIssued',
  'coupon.redeemed': 'couponsRedeemed',
};

/** Emits, for the events of one committed transaction, each counted metric once with its number of events. */
export function countEvents(events: readonly { type: string }[]): void {
  const counts = new Map<(typeof COUNTED)[EventType] & string, number>();
  for (const e of events) {
    const key = COUNTED[e.type as EventType];
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [key, n] of counts) emitMetric(key, n);
}
