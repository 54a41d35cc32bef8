import { fromMinor } from '../money';
import type { EarnSnapshot } from '../program/arithmetic';
import type { Order, OrderStatus } from './schemas';

export interface OrderRecord {
  id: string;
  workspaceId: string;
  externalOrderId: string;
  memberId: string;
  storeId: string | null;
  currency: string;
  totalMinor: number;
  refundedMinor: number;
  status: OrderStatus;
  items: Record<string, unknown>[];
  /** The earn rule in force when the order was recorded: later rule changes never rewrite it. */
  earn: EarnSnapshot;
  earned: number;
  reversed: number;
  occurredAt: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export function toOrder(r: OrderRecord): Order {
  return {
    id: r.id,
    externalOrderId: r.externalOrderId,
    memberId: r.memberId,
    storeId: r.storeId,
    currency: r.currency,
    total: fromMinor(r.totalMinor, r.currency),
    refundedTotal: fromMinor(r.refundedMinor, r.currency),
    status: r.status,
    refundStatus: r.refundedMinor === 0 ? 'none' : r.refundedMinor >= r.totalMinor ? 'full' : 'partial',
    items: r.items,
    points: { earned: r.earned, reversed: r.reversed, net: r.earned - r.reversed, pending: r.status === 'pending' },
    occurredAt: r.occurredAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
