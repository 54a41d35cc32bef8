import { pointsFor, reversedFor } from '../program';
import type { PointsDelta } from '../members';
import type { OrderRecord } from './entities';

type PointsInputs = Pick<OrderRecord, 'status' | 'totalMinor' | 'refundedMinor' | 'currency' | 'earn' | 'earningMinor' | 'earnCap'>;

/**
 * What an order holds for its member in each bucket. Earned points follow the earning amount (the
 * total unless the program's basis or exclusions say otherwise) under the order's own earn
 * snapshot, never above the cap its recording left it; refunds take back their proportional,
 * cumulative share of the total (docs/program.md); a cancelled
 * order holds nothing; a pending order's points are pending; only completed orders count.
 */
export function holdings(o: PointsInputs) {
  const full = pointsFor(o.earningMinor ?? o.totalMinor, o.currency, o.earn);
  const earned = o.earnCap === undefined ? full : Math.min(full, o.earnCap);
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
