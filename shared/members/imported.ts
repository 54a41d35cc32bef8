/**
 * History brought in from another platform (an import job): an opening balance becomes a lot with
 * its own earn and expiry dates, and a tier is set as it was reached there. Both are written in the
 * member's one transaction like any points change, with the caller's steps (the import's row
 * record) beside them, so a row is applied exactly when its record is written.
 */
import { figuresStep } from '../overview';
import { inKeyOrder, withOptimisticRetry } from '../platform/data/concurrency';
import type { TransactStep } from '../platform/data/transactions';
import { newId } from '../platform/ids';
import { AppError } from '../platform/errors';
import type { MemberRecord, MemberTierRecord } from './entities';
import type { ReversalStore } from './corrections';
import { changePoints, memberThrough, NO_DELTA, writable, type LedgerStore } from './ledger';
import { NO_LOTS } from './member-lots';

export interface OpeningBalance {
  points: number;
  /** ms since the epoch */
  earnedAt: number;
  /** ms since the epoch; null: the lot has no date of its own. */
  expiresAt: number | null;
  /** The import job that books it (`source.importJobId`). */
  jobId: string;
  /** Lifetime points (and the tier metric) count it too. */
  countLifetime: boolean;
  /** Send `loyalty.points_earned` for it. */
  notify: boolean;
  /** Further steps of the same transaction, given the entry's id. */
  steps: (entryId: string) => TransactStep[];
}

/** An opening balance: one `adjustment` entry sourced `import`, and its lot with the original dates. */
export function bookOpeningBalance(
  store: LedgerStore,
  workspaceId: string,
  memberId: string,
  b: OpeningBalance,
): Promise<{ entryId: string; balance: number }> {
  return changePoints({
    store,
    workspaceId,
    memberId,
    plan: (member) => {
      const id = newId('ple');
      const held = member.lots ?? NO_LOTS;
      const lastActivityAt = Math.max(held.lastActivityAt ?? b.earnedAt, b.earnedAt);
      const lots = { ...held, lots: [...held.lots, { id, points: b.points, earnedAt: b.earnedAt, expiresAt: b.expiresAt, orderId: null }], lastActivityAt };
      const source = { type: 'import' as const, orderId: null, externalOrderId: null, apiKeyId: null, importJobId: b.jobId };
      return {
        plan: {
          delta: { balance: b.points, pending: 0, lifetime: b.countLifetime ? b.points : 0, orderCount: 0 },
          entry: { id, type: 'adjustment', reason: 'Opening balance (import)', source },
          lots,
          quiet: !b.notify,
          steps: b.steps(id),
          result: ({ member: after }) => ({ entryId: id, balance: after.balance }),
        },
      };
    },
  });
}

export interface TierAssignment {
  tier: string;
  /** ISO: when the member reached it. */
  reachedAt: string;
  /** ISO: the tier is kept at least until then (its next review). */
  retainedUntil: string;
  /** Further steps of the same transaction, given what the member had before. */
  steps: (before: { tier: string; record: MemberTierRecord | null }) => TransactStep[];
}

/**
 * Sets the member's tier and its state as another platform had them; the window's counted days
 * stay as they are. The tier is next reviewed when its retention ends.
 */
export function assignTier(store: LedgerStore, workspaceId: string, memberId: string, a: TierAssignment): Promise<{ tier: string }> {
  return writeTier(store, workspaceId, memberId, (member, record) => ({
    tier: a.tier,
    record: { memberId, reachedAt: a.reachedAt, retainedUntil: a.retainedUntil, days: record?.days ?? {}, reviewAt: a.retainedUntil },
    steps: a.steps({ tier: member.tier, record: record ?? null }),
  }));
}

/** The member's tier and its state replaced, conditional on the member's revision (re-read and re-planned on a concurrent change). */
function writeTier(
  store: LedgerStore,
  workspaceId: string,
  memberId: string,
  next: (member: MemberRecord, record: MemberTierRecord | undefined) => { tier: string; record: MemberTierRecord; steps: TransactStep[] },
): Promise<{ tier: string }> {
  return inKeyOrder(`member:${workspaceId}/${memberId}`, () =>
    withOptimisticRetry(async () => {
      const [member, record] = await Promise.all([memberThrough(store, workspaceId, memberId).then(writable), store.getMemberTier(workspaceId, memberId)]);
      const n = next(member, record);
      const counters = { balance: member.balance, pending: member.pending, lifetime: member.lifetime, orderCount: member.orderCount };
      await store.transactWrite([
        store.balanceStep(member, { ...counters, tier: n.tier, rev: member.rev + 1 }, new Date().toISOString(), false),
        store.memberTierStep(workspaceId, n.record),
        ...(n.tier === member.tier ? [] : figuresStep(workspaceId, {}, { [member.tier]: -1, [n.tier]: 1 })),
        ...n.steps,
      ]);
      return { tier: n.tier };
    }),
  );
}

/**
 * Takes an imported opening balance back (an import undone): a `correction` naming the entry,
 * taken from the entry's own lot first, with the lifetime points it added (none unless the job
 * counted them), and the entry marked reversed, in one transaction with the caller's steps.
 * Answers `gone` for an entry already reversed or no longer there (the undo ran before).
 */
export async function takeBackOpeningBalance(
  store: ReversalStore,
  workspaceId: string,
  memberId: string,
  entryId: string,
  opts: { countedLifetime: boolean; steps: TransactStep[] },
): Promise<'reversed' | 'gone'> {
  const entry = await store.findLedgerEntry(workspaceId, memberId, entryId);
  if (!entry || entry.reversedBy) return 'gone';
  return changePoints({
    store: store.ledger,
    workspaceId,
    memberId,
    plan: () => {
      const id = newId('ple');
      const source = { ...entry.source, reversedEntryId: entry.id };
      return {
        plan: {
          delta: { ...NO_DELTA, balance: -entry.amount, lifetime: opts.countedLifetime ? -entry.amount : 0 },
          entry: { id, type: 'correction', reason: 'Import undone', source },
          steps: [store.markReversedStep(workspaceId, entry, id, () => new AppError('CONFLICT', `Entry ${entry.id} was already reversed`)), ...opts.steps],
          result: () => 'reversed' as const,
        },
      };
    },
  });
}

/** What a member's tier was before an import set it (null fields: no tier state of its own yet). */
export interface TierBefore {
  tier: string;
  reachedAt: string | null;
  retainedUntil: string | null;
  reviewAt: string | null;
}

/** Puts a member's tier back as it was before an import set it (an import undone). */
export function restoreTier(store: LedgerStore, workspaceId: string, memberId: string, before: TierBefore, steps: TransactStep[]): Promise<{ tier: string }> {
  return writeTier(store, workspaceId, memberId, (member, record) => ({
    tier: before.tier,
    // Without a state of its own the tier counted from enrolment, with no retention: so again.
    record: {
      memberId,
      reachedAt: before.reachedAt ?? member.createdAt,
      retainedUntil: before.retainedUntil ?? new Date(0).toISOString(),
      days: record?.days ?? {},
      reviewAt: before.reviewAt,
    },
    steps,
  }));
}
