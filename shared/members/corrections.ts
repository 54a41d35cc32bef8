/**
 * Corrections: points that should not have been given (or taken) put right. A correction is a ledger
 * entry of its own type, so reports never count it as a spend: it moves the balance, lifetime points
 * and the tier metric, so a tier a mistaken grant reached goes at the tier's next evaluation (the
 * correction's own, under the program's retention). Reversing a given entry is one call, once.
 */
import * as repo from './repository';
import { changePoints, NO_DELTA, tableLedgerStore, type LedgerStore } from './ledger';
import type { TransactStep } from '../platform/data/transactions';
import type { LedgerEntryRecord, MemberRecord } from './entities';
import type { PointsDelta } from './types';
import { AppError, notFound } from '../platform/errors';
import { newId } from '../platform/ids';
import { assertWithinPointsCeiling } from '../platform/contract/permissions';
import type { Role } from '../platform/contract/roles';
import { audited, type AuditContext } from '../audit';
import type { WriteOptions } from '../platform/data/write-options';
import type { PointsResult } from './types';

const manual = (apiKeyId: string | null, reversedEntryId?: string) => ({
  type: 'manual' as const,
  orderId: null,
  externalOrderId: null,
  apiKeyId,
  ...(reversedEntryId ? { reversedEntryId } : {}),
});

/**
 * What reversing `entry` moves: its balance change undone, and lifetime points (with the tier
 * metric) by what the entry added to them, which a spend or points kept outside the tier never did, and never below zero (a
 * correction may have taken some of them back already). Refused (409) for what is
 * corrected elsewhere: an order's points (refund or reconcile the order), an expiry (the program's
 * own), a refund's reversal, a correction that itself reversed an entry, and a reward's redemption
 * or its void (void the redemption: its coupon and stock go back with the points).
 */
export function reversalDelta(
  entry: Pick<LedgerEntryRecord, 'id' | 'type' | 'amount' | 'source' | 'outsideTier'>,
  member: Pick<MemberRecord, 'lifetime'>,
): PointsDelta {
  assertReversible(entry);
  const added = entry.type === 'deduct' || entry.outsideTier ? 0 : entry.amount;
  return { ...NO_DELTA, balance: -entry.amount, lifetime: 0 - Math.min(added, Math.max(member.lifetime, 0)) };
}

/** Refuses (409) what is corrected elsewhere (see `reversalDelta`). */
function assertReversible(entry: Pick<LedgerEntryRecord, 'id' | 'type' | 'source'>): void {
  if (entry.source.orderId !== null) {
    throw new AppError(
      'CONFLICT',
      `Entry ${entry.id} belongs to order ${entry.source.externalOrderId ?? entry.source.orderId}: refund or reconcile the order instead`,
    );
  }
  if (entry.source.redemptionId) {
    throw new AppError('CONFLICT', `Entry ${entry.id} belongs to redemption ${entry.source.redemptionId}: void the redemption instead`);
  }
  if (entry.type === 'expire' || entry.type === 'refund_reversal' || entry.source.reversedEntryId) {
    throw new AppError('CONFLICT', `Entry ${entry.id} (${entry.source.reversedEntryId ? 'a reversal' : entry.type}) cannot be reversed`);
  }
}

/** A correction of `amount` points: refused beyond the lifetime points they come out of. */
export function correctionDelta(member: Pick<MemberRecord, 'lifetime'>, amount: number): PointsDelta {
  if (amount > member.lifetime) {
    throw new AppError('CONFLICT', `Lifetime points are ${member.lifetime}; a correction cannot take back ${amount}`);
  }
  return { ...NO_DELTA, balance: -amount, lifetime: -amount };
}

const answer = ({ member, entry }: { member: MemberRecord; entry: unknown }): PointsResult => ({
  entry: entry as PointsResult['entry'],
  points: { balance: member.balance, pending: member.pending, lifetime: member.lifetime },
  tier: member.tier,
});

/** What a reversal needs of the store besides the ledger: the entry by id, and its mark (once). */
export interface ReversalStore {
  ledger: LedgerStore;
  findLedgerEntry(workspaceId: string, memberId: string, entryId: string): Promise<LedgerEntryRecord | undefined>;
  markReversedStep(workspaceId: string, entry: LedgerEntryRecord, by: string, onReversed: () => Error): TransactStep;
}

export const tableReversalStore: ReversalStore = {
  ledger: tableLedgerStore,
  findLedgerEntry: repo.findLedgerEntry,
  markReversedStep: repo.markReversedStep,
};

/**
 * Reverses one ledger entry by id: a `correction` entry of the opposite amount naming it, the entry
 * marked with it (a second reversal is refused with 409, a race of two lets one win), and the audit
 * entry, in one transaction. Like a refund, it may take the balance below zero when the points were spent.
 */
export async function reverseEntry(
  workspaceId: string,
  memberId: string,
  entryId: string,
  input: { reason: string },
  /** `role`: the console user's, whose points ceiling the reversal stays within. */
  actor: { apiKeyId: string | null; audit: AuditContext; role?: Role },
  store: ReversalStore,
  opts: WriteOptions<PointsResult> = {},
): Promise<PointsResult> {
  const entry = await store.findLedgerEntry(workspaceId, memberId, entryId);
  if (!entry) throw notFound('Ledger entry');
  const refused = () => new AppError('CONFLICT', `Entry ${entry.id} was already reversed`);
  if (entry.reversedBy) throw refused();
  assertReversible(entry);
  // The balance moves by the whole entry: the ceiling of the caller's role reads that.
  if (actor.role) assertWithinPointsCeiling(actor.role, -entry.amount, { in: 'path', field: 'entryId' });
  return changePoints({
    workspaceId,
    memberId,
    plan: (member) => {
      const delta = reversalDelta(entry, member);
      // The correction's id is chosen here, so the reversed entry can name it in the same transaction.
      const id = newId('ple');
      return {
        plan: {
          delta,
          // The reversal of points kept outside the tier is kept outside too (its replay moves no lifetime).
          entry: {
            id,
            type: 'correction',
            reason: input.reason,
            source: manual(actor.apiKeyId, entry.id),
            ...(entry.outsideTier ? { outsideTier: true as const } : {}),
          },
          steps: [
            store.markReversedStep(workspaceId, entry, id, refused),
            audited(workspaceId, actor.audit, 'member.ledger_entry_reversed', { type: 'member', id: memberId }, new Date()),
          ],
          result: answer,
        },
      };
    },
    write: opts,
    store: store.ledger,
  });
}

/** A support correction of `amount` points with its reason (`POST .../points` with `type: correction`). */
export const correctionPlan = (member: MemberRecord, amount: number, reason: string, apiKeyId: string | null) => ({
  delta: correctionDelta(member, amount),
  entry: { type: 'correction' as const, reason, source: manual(apiKeyId) },
});
