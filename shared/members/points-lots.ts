import type { LedgerEntryRecord, LedgerType, MemberLotsRecord, MemberRecord } from './entities';
import { absorbExpired, addPending, cancelPending, credit, debit, lapsed, NO_LOTS } from './member-lots';
import type { ProgramRules } from '../program';
import type { PointsDelta } from './types';
import { claimOf } from './claims';

/** What a points change needs to know of its plan to keep the lots. */
export interface LotsInput {
  delta: PointsDelta;
  entry: { type: LedgerEntryRecord['type']; source: { type: string; orderId: string | null } };
}

const ORDER_EARNS = new Set(['order', 'reconciliation']);

/**
 * An order's points wait while `pendingDays` says so: its earn moves from the balance to pending
 * (lifetime follows at activation). A reversal of an order (a refund, a cancellation, a downward
 * correction) takes back the waiting points first, leaving the balance alone, then the order's
 * points that already expired (they left the balance then: lifetime still loses them). Other
 * changes pass unchanged.
 */
export function routePending(member: MemberRecord, p: LotsInput, rules: ProgramRules, at: number): { delta: PointsDelta; state: MemberLotsRecord } {
  const state = member.lots ?? NO_LOTS;
  const orderId = p.entry.source.orderId;
  const { delta } = p;
  if (!orderId) return { delta, state };
  if (delta.balance > 0 && p.entry.type === 'earn' && ORDER_EARNS.has(p.entry.source.type) && rules.points.pendingDays > 0) {
    const moved = delta.balance;
    return {
      delta: { ...delta, balance: 0, pending: delta.pending + moved, lifetime: delta.lifetime - moved },
      state: addPending(state, orderId, moved, at, rules.points),
    };
  }
  if (delta.balance < 0) {
    const { state: next, cancelled, absorbed } = reversalOf(state, orderId, -delta.balance);
    if (cancelled + absorbed === 0) return { delta, state };
    return {
      delta: { ...delta, balance: delta.balance + cancelled + absorbed, pending: delta.pending - cancelled, lifetime: delta.lifetime + cancelled },
      state: next,
    };
  }
  return { delta, state };
}

/**
 * How a reversal of `points` of an order is taken: `cancelled` from its waiting points, `absorbed`
 * by its expired points, the rest from the balance (what a refund answers as reversed).
 */
export function reversalOf(state: MemberLotsRecord, orderId: string, points: number): { state: MemberLotsRecord; cancelled: number; absorbed: number } {
  const waiting = cancelPending(state, orderId, points);
  const gone = absorbExpired(waiting.state, orderId, points - waiting.cancelled);
  return { state: gone.state, cancelled: waiting.cancelled, absorbed: gone.absorbed };
}

/**
 * The member as a change at `now` finds it once what lapsed since the due work last ran has expired
 * (`expired`: the expiry to book first; null: nothing lapsed). Nothing past its date is then spent,
 * taken back by a refund again, or kept alive by new activity.
 */
export function settleLapsed(member: MemberRecord, rules: ProgramRules, now: number): { member: MemberRecord; expired: { points: number; at: number } | null } {
  if (!member.lots) return { member, expired: null };
  const gone = lapsed(member.lots, rules.points, now, member.balance);
  if (gone.at === null) return { member, expired: null };
  return { member: { ...member, balance: member.balance - gone.points, lots: gone.state }, expired: { points: gone.points, at: gone.at } };
}

/** A member's own spend of points (activity that keeps points alive): a deduction or a reward's redemption. */
export const isSpend = (type: LedgerType): boolean => type === 'deduct' || type === 'redemption';

/** The lots after a change's ledger entries: each credit a lot, each debit taken from the lots. */
export function lotsAfter(state: MemberLotsRecord, entries: readonly (LedgerEntryRecord | null)[], rules: ProgramRules, at: number): MemberLotsRecord {
  let next = state;
  for (const e of entries) {
    if (!e) continue;
    // A campaign's reward is not the member's own activity (an order's grants come with its earn,
    // which is); on an order it is the campaign's share of the order, which the order's reversals take back.
    const own = e.type !== 'campaign';
    if (e.amount > 0) next = credit(next, { id: e.id, points: e.amount, orderId: claimOf(e.source) }, at, rules.points, rules.timeZone, own);
    // A reversal by id takes from the lot the reversed entry opened (a lot is named by its entry) first.
    else next = debit(next, -e.amount, at, { orderId: claimOf(e.source), lotId: e.source.reversedEntryId, spend: isSpend(e.type) });
  }
  return next;
}
