import { pointsFor, reversedFor } from '../program/arithmetic';
import type { PointsDelta } from '../members/types';
import type { OrderRecord } from './entities';

type PointsInputs = Pick<OrderRecord, 'status' | 'totalMinor' | 'refundedMinor' | 'currency' | 'earn'>;

/**
 * What an order holds for its member in each bucket. Earned points follow the total under the
 * order's own earn snapshot; refunds take back their proportional, cumulative share; a cancelled
 * order holds nothing; a pending order's points are pending; only completed orders count.
 */
export function holdings(o: PointsInputs) {
  const earned = pointsFor(o.totalMinor, o.currency, o.earn);
  const reversed = o.status === 'cancelled' ? earned : reversedFor(earned, o.refundedMinor, o.totalMinor);
  const net = earned - reversed;
  return {
    earned,
    reversed,
    balance: o.status === 'completed' ? net : 0,
    pending: o.status === 'pending' ? net : 0,
    counted: o.status === 'completed' ? 1 : 0,
  };
}

/** The member's points delta when an order moves from `before` (or nothing) to `after`. */
export function transition(before: PointsInputs | null, after: PointsInputs): PointsDelta {
  const b = before ? holdings(before) : { balance: 0, pending: 0, counted: 0 };
  const a = holdings(after);
  return { balance: a.balance - b.balance, pending: a.pending - b.pending, lifetime: a.balance - b.balance, orderCount: a.counted - b.counted };
}
