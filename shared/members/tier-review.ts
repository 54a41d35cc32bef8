/**
 * The daily tier review: the members whose tier could drop by `now` without any activity (their
 * retention ended below the tier, or their window rolled past what held it) are found through the
 * review index of their tier state, not a scan, and each is evaluated at `now` like any points
 * change: a downgrade is written with `loyalty.tier_downgraded` in the member's one transaction.
 * `now` is a parameter, so the run that calls it owns the clock.
 */
import { deleteMemberTierStep, dueTierReviews } from './tier-repository';
import { transactWrite } from './repository';
import { AppError } from '../platform/errors';
import { changePoints, NO_DELTA, type ChangePlan, tableLedgerStore } from './ledger';

export interface TierReviewOutcome {
  memberId: string;
  tier: string;
  change: 'upgraded' | 'downgraded' | null;
}

const REVIEW_PAGE = 100;

/** One member's review at `now`: writes only when the tier or its next review moves. */
export async function reviewTier(workspaceId: string, memberId: string, now: Date): Promise<TierReviewOutcome> {
  const plan: ChangePlan<TierReviewOutcome> = {
    delta: NO_DELTA,
    entry: { type: 'adjustment', reason: null, source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null } },
    onlyIfTierMoves: { unchanged: (m) => ({ memberId, tier: m.tier, change: null }) },
    result: ({ member, tierChange }) => ({ memberId, tier: member.tier, change: tierChange }),
  };
  try {
    return await changePoints({ store: tableLedgerStore, workspaceId, memberId, plan: () => ({ plan }), now: () => now });
  } catch (err) {
    // An erased member keeps no tier: its state leaves the review index.
    if (err instanceof AppError && (err.code === 'MEMBER_ERASED' || err.code === 'NOT_FOUND')) {
      await transactWrite([deleteMemberTierStep(workspaceId, memberId)]);
      return { memberId, tier: '', change: null };
    }
    throw err;
  }
}

/** Reviews every member of the workspace whose tier review is due at `now`; answers what moved. */
export async function reviewTiers(workspaceId: string, now: Date): Promise<{ reviewed: number; changed: TierReviewOutcome[] }> {
  const changed: TierReviewOutcome[] = [];
  let reviewed = 0;
  let cursor: string | undefined;
  do {
    const page = await dueTierReviews(workspaceId, now.toISOString(), { limit: REVIEW_PAGE, ...(cursor ? { cursor } : {}) });
    for (const due of page.items) {
      const outcome = await reviewTier(workspaceId, due.memberId, now);
      reviewed++;
      if (outcome.change) changed.push(outcome);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return { reviewed, changed };
}
