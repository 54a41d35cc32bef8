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
