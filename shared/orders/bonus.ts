/**
 * Campaign points an order earned, and what its refunds and cancellation take back of them: pure.
 * Each campaign's share is reversed in the order's proportion, on the running refunded total
 * (`reversedFor`, rounded down), so a partial refund never takes back more than was granted and a
 * full refund or a cancellation takes back everything.
 */
import { reversedFor } from '../program';
import type { OrderBonusRecord, OrderRecord } from './entities';

type BonusInputs = Pick<OrderRecord, 'status' | 'totalMinor' | 'refundedMinor'>;

/** The campaign points of an order as granted (coupon rewards carry no points and are not kept here). */
export function bonusesOf(grants: readonly { campaignId: string; points: number; reward?: unknown }[]): OrderBonusRecord[] {
  return grants.filter((g) => !g.reward && g.points > 0).map((g) => ({ campaignId: g.campaignId, points: g.points, reversed: 0 }));
}

/** What the order's state says should have been taken back of `points` by now. */
export function bonusReversedFor(points: number, order: BonusInputs): number {
  return order.status === 'cancelled' ? points : reversedFor(points, order.refundedMinor, order.totalMinor);
}

/**
 * What moving the order to `after` takes back of each campaign's points (only what is still owed:
 * a total raised later never gives back a reversed point, and nothing is taken twice).
 */
export function bonusReversals(
  bonuses: readonly OrderBonusRecord[] | undefined,
  after: BonusInputs,
): { bonuses: OrderBonusRecord[]; reversals: { campaignId: string; points: number }[] } {
  const next = (bonuses ?? []).map((b) => ({ ...b, reversed: Math.max(b.reversed, bonusReversedFor(b.points, after)) }));
  const reversals = next.flatMap((b, i) => {
    const points = b.reversed - bonuses![i]!.reversed;
    return points > 0 ? [{ campaignId: b.campaignId, points }] : [];
  });
  return { bonuses: next, reversals };
}

/** A campaign's points on an order move as the order's own do: what a change takes back, gives back, and moves in pending. */
export interface BonusMoves {
  bonuses: OrderBonusRecord[];
  /** Taken from where a completed order's points stand (waiting, expired, the balance). */
  reversals: { campaignId: string; points: number }[];
  /** Given again to a pending order that completes: they land (or wait) as the order's own points do. */
  regrants: { campaignId: string; points: number; announced: boolean }[];
  /** The member's pending points move by this (a pending order's campaign points are pending with its own). */
  pending: number;
}

/** Where what is left of a share stands while the order is in `status`: the balance side (completed) or pending. */
const standing = (left: number, status: OrderRecord['status']) => ({
  balance: status === 'completed' ? left : 0,
  pending: status === 'pending' ? left : 0,
});

/**
 * How moving the order from `before` to `after` moves each campaign's points: a completed order's
 * stand with the balance (taken back from there), a pending order's (one taken back to pending
 * after it completed) are pending with its own, and a cancelled order holds none. So an order
 * reconciled back to pending takes its campaign points back to pending, and its completion gives
 * them back once (never evaluated again), less what refunds took meanwhile.
 */
export function bonusMoves(
  bonuses: readonly OrderBonusRecord[] | undefined,
  before: BonusInputs,
  after: BonusInputs,
  waiting: (campaignId: string) => boolean = () => false,
): BonusMoves {
  const next = announcedOf(bonusReversals(bonuses, after).bonuses, before, after, waiting);
  const moves: BonusMoves = { bonuses: next, reversals: [], regrants: [], pending: 0 };
  next.forEach((b, i) => {
    const was = standing(b.points - bonuses![i]!.reversed, before.status);
    const is = standing(b.points - b.reversed, after.status);
    const balance = is.balance - was.balance;
    if (balance < 0) moves.reversals.push({ campaignId: b.campaignId, points: -balance });
    if (balance > 0) moves.regrants.push({ campaignId: b.campaignId, points: balance, announced: b.announced === true });
    moves.pending += is.pending - was.pending;
  });
  return moves;
}

/**
 * A completed order's shares taken back to pending keep whether their reward was announced: it was
 * unless the share was still `waiting` out the pending period (it is announced when it activates).
 */
function announcedOf(bonuses: OrderBonusRecord[], before: BonusInputs, after: BonusInputs, waiting: (campaignId: string) => boolean): OrderBonusRecord[] {
  if (before.status !== 'completed' || after.status !== 'pending') return bonuses;
  return bonuses.map((b) => (b.announced || waiting(b.campaignId) ? b : { ...b, announced: true }));
}
