/**
 * A member an import created, removed when its import is undone, if untouched since: the same
 * profile version as right after the import (no profile or tag change), the same points revision
 * (no ledger entry, no tier written), no order, no points. Otherwise the member is kept.
 */
import { withOptimisticRetry } from '../platform/data/concurrency';
import type { TransactStep } from '../platform/data/transactions';
import { figuresStep } from '../overview';
import type { MemberRecord } from './entities';
import * as repo from './repository';

/** What made the member when the import created it: its profile version and points revision then. */
export interface CreatedAs {
  version: number;
  rev: number;
}

/** Untouched since `as`: nothing but the import wrote it. Pure. */
export const untouchedSince = (
  m: Pick<MemberRecord, 'version' | 'rev' | 'orderCount' | 'balance' | 'pending' | 'lifetime' | 'erasedAt'>,
  as: CreatedAs,
): boolean => !m.erasedAt && m.version === as.version && m.rev === as.rev && m.orderCount === 0 && m.balance === 0 && m.pending === 0 && m.lifetime === 0;

/**
 * Removes the member if untouched since `as`, with the caller's steps (its tags' items, the import
 * row's record) in the same transaction; `gone` when it is no longer there (an undo run before).
 */
export async function removeIfUntouched(
  workspaceId: string,
  memberId: string,
  as: CreatedAs,
  steps: (member: MemberRecord) => Promise<TransactStep[]>,
): Promise<'removed' | 'kept' | 'gone'> {
  return withOptimisticRetry(async () => {
    const member = await repo.getMember(workspaceId, memberId);
    if (!member) return 'gone';
    if (!untouchedSince(member, as)) return 'kept';
    await repo.transactWrite([
      ...repo.removeMemberSteps(member),
      ...figuresStep(workspaceId, { members: -1 }, { [member.tier]: -1 }),
      ...(await steps(member)),
    ]);
    return 'removed';
  });
}
