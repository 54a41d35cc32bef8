import type { LedgerEntryRecord, MemberLotsRecord, MemberRecord } from '../../records/members';
import { addPending, cancelPending, credit, debit, NO_LOTS } from '../program/member-lots';
import type { ProgramRules } from '../program/schemas';
import type { PointsDelta } from './ledger';

/** What a points change needs to know of its plan to keep the lots. */
export interface LotsInput {
  delta: PointsDelta;
  entry: { type: LedgerEntryRecord['type']; source: { type: string; orderId: string | null } };
}

const ORDER_EARNS = new Set(['order', 'reconciliation']);

/**
 * An order's points wait while `pendingDays` says so: its earn moves from the balance to pending
 * (lifetime follows at activation). A refund or cancellation during the wait takes back the
 * waiting points first, leaving the balance alone. Other changes pass unchanged.
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
    const { state: next, cancelled } = cancelPending(state, orderId, -delta.balance);
    if (cancelled === 0) return { delta, state };
    return { delta: { ...delta, balance: delta.balance + cancelled, pending: delta.pending - cancelled, lifetime: delta.lifetime + cancelled }, state: next };
  }
  return { delta, state };
}

/** The lots after a change's ledger entries: each credit a lot, each debit taken from the lots. */
export function lotsAfter(state: MemberLotsRecord, entries: readonly (LedgerEntryRecord | null)[], rules: ProgramRules, at: number): MemberLotsRecord {
  let next = state;
  for (const e of entries) {
    if (!e) continue;
    // A campaign's reward is not the member's own activity (an order's grants come with its earn, which is).
    if (e.amount > 0) next = credit(next, { id: e.id, points: e.amount, orderId: e.source.orderId }, at, rules.points, rules.timeZone, e.type !== 'campaign');
    else next = debit(next, -e.amount, at, { orderId: e.source.orderId, spend: e.type === 'deduct' });
  }
  return next;
}
