import { fromMinor } from '../platform/money';
import type { OrderRecord } from './entities';
import type { Order } from './schemas';

export function toOrder(r: OrderRecord): Order {
  return {
    id: r.id,
    externalOrderId: r.externalOrderId,
    memberId: r.memberId,
    storeId: r.storeId,
    currency: r.currency,
    total: fromMinor(r.totalMinor, r.currency),
    earningAmount: fromMinor(r.earningMinor ?? r.totalMinor, r.currency),
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
