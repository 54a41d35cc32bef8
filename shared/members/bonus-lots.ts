/**
 * A campaign's points granted on an order follow the order: they wait out `pendingDays` as the
 * order's own points do, and its refunds take them back in proportion. Pure: the ledger calls it
 * in the transaction of each change.
 *
 * Each campaign's share of an order is a claim of its own in the member's lots (`claims.ts`): its
 * pending points, its lot (taken back first by the order's reversal) and its expired points (never
 * taken back twice), kept apart from the order's own.
 */
import type { LedgerEntryRecord, MemberLotsRecord } from './entities';
import type { ProgramRules } from '../program';
import { reversalOf } from './points-lots';
import { addPending } from './member-lots';
import { claimOf } from './claims';

type Source = Pick<LedgerEntryRecord['source'], 'orderId' | 'campaignId'>;

/** A campaign's share of an order taken back by a reversal of the order, described as its ledger entry. */
export interface PlannedReversal {
  points: number;
  /** As the order's own reversal is described: a refund's, or a reconciliation's adjustment. */
  type: 'refund_reversal' | 'adjustment';
  reason: string;
  source: LedgerEntryRecord['source'] & { campaignId: string };
}

/** How a change's campaign shares of an order move: which grants land now, what waits, what is taken back. */
export interface BonusMoves<G> {
  state: MemberLotsRecord;
  /** The grants that reach the balance now (each its ledger entry). */
  now: G[];
  /** The grants that wait for the order's pending period (no entry until they activate). */
  waiting: G[];
  /** Moves of pending, balance and lifetime besides the plan's own and the grants landing now. */
  delta: { balance: number; pending: number; lifetime: number };
  /** The reversals' ledger entries: what each takes from the balance (none when it is all pending or expired). */
  entries: (Omit<PlannedReversal, 'points'> & { amount: number })[];
}

type GrantLike = { points: number; reward?: unknown; announced?: boolean; source: Source };

/**
 * The campaign shares of a change at `at`: a points grant on an order waits while the rules have a
 * pending period; a reversal takes from the share's waiting points first (no entry, lifetime never
 * had them), then from its expired points (gone from the balance already; lifetime still loses
 * them), then from the balance (an entry; the balance may go below zero, as for the order's own).
 */
export function moveBonuses<G extends GrantLike>(
  state: MemberLotsRecord,
  grants: readonly G[],
  reversals: readonly PlannedReversal[],
  rules: ProgramRules,
  at: number,
): BonusMoves<G> {
  const waits = (g: G) => !g.reward && g.points > 0 && g.source.orderId !== null && g.source.campaignId !== undefined && rules.points.pendingDays > 0;
  let next = state;
  const delta = { balance: 0, pending: 0, lifetime: 0 };
  const waiting = grants.filter(waits);
  for (const g of waiting) {
    next = addPending(next, claimOf(g.source)!, g.points, at, rules.points, g.announced);
    delta.pending += g.points;
  }
  const entries: BonusMoves<G>['entries'] = [];
  for (const r of reversals) {
    const taken = reversalOf(next, claimOf(r.source)!, r.points);
    next = taken.state;
    const fromBalance = r.points - taken.cancelled - taken.absorbed;
    delta.pending -= taken.cancelled;
    delta.lifetime -= r.points - taken.cancelled;
    delta.balance -= fromBalance;
    if (fromBalance > 0) entries.push({ type: r.type, amount: -fromBalance, reason: r.reason, source: r.source });
  }
  return { state: next, now: grants.filter((g) => !waits(g)), waiting, delta, entries };
}
