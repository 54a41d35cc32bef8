/**
 * A redemption at the shop's checkout: whether it applies to a cart and what it takes off (an answer
 * either way: "does not apply" is not an error), and its use on an order, once.
 */
import * as repo from './repository';
import { couponByCode, couponUse } from '../coupons';
import { programNow } from '../program';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { AppError } from '../platform/errors';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import type { RedemptionRecord } from './entities';
import { discountFor } from './discount';
import { loadRedemption, toRedemption } from './redemptions';
import type { Redemption, RedemptionCheck, ValidateRedemptionInput } from './schemas';
import { loadReward } from './service';

type NotApplying = Extract<RedemptionCheck, { applies: false }>;
const no = (reason: NotApplying['reason'], message: string): NotApplying => ({ applies: false, reason, message });

/** The redemption a code or an id names, or undefined (a code that is no reward's counts as unknown). */
async function findRedemption(workspaceId: string, input: Pick<ValidateRedemptionInput, 'code' | 'redemptionId'>): Promise<RedemptionRecord | undefined> {
  if (input.redemptionId !== undefined) return repo.getRedemption(workspaceId, input.redemptionId);
  const coupon = await couponByCode(workspaceId, input.code ?? '');
  return coupon ? repo.redemptionOfCoupon(workspaceId, coupon.memberId, coupon.id) : undefined;
}

/** Why the redemption no longer gives anything, in the order a checkout would want to hear it; null: it still does. */
async function stateRefusal(r: RedemptionRecord, memberId: string, now: Date): Promise<NotApplying | null> {
  if (r.memberId !== memberId) return no('WRONG_MEMBER', 'The redemption belongs to another member');
  if (r.status === 'voided') return no('VOIDED', `The redemption was voided at ${r.voidedAt}`);
  if (r.status === 'used') return no('ALREADY_USED', `The redemption was used on order ${r.externalOrderId}`);
  if (!r.couponId) return null;
  const coupon = await couponByCode(r.workspaceId, r.couponCode ?? '');
  if (!coupon || coupon.status === 'voided') return no('VOIDED', 'The redemption’s code was voided');
  if (coupon.status === 'redeemed') return no('ALREADY_USED', `The redemption’s code was redeemed at ${coupon.redeemedAt}`);
  if (coupon.validUntil !== null && coupon.validUntil <= now.toISOString()) return no('EXPIRED', `The code expired at ${coupon.validUntil}`);
  return null;
}

/**
 * Whether a redemption (by its code or id) applies to the member's cart now, and the exact
 * discount. Reads only. The terms are the reward's as redeemed (its current ones for redemptions
 * older than that record).
 */
export async function validateRedemption(workspaceId: string, input: ValidateRedemptionInput): Promise<RedemptionCheck> {
  const r = await findRedemption(workspaceId, input);
  if (!r) return no('NOT_FOUND', input.code !== undefined ? 'No reward’s code matches it in this workspace' : 'No such redemption in this workspace');
  const refusal = await stateRefusal(r, input.memberId, await programNow(workspaceId));
  if (refusal) return refusal;
  const terms = r.benefit ? { benefit: r.benefit, minimumSpend: r.minimumSpend ?? null } : await loadReward(workspaceId, r.rewardId);
  const outcome = discountFor(terms.benefit, terms.minimumSpend, input.cart);
  if (!outcome.applies) return outcome;
  return { applies: true, discount: outcome.discount, redemptionId: r.id, rewardId: r.rewardId, benefit: terms.benefit };
}

const usedElsewhere = (r: Pick<RedemptionRecord, 'externalOrderId'>) =>
  new AppError('REDEMPTION_USED', `The redemption was already used on order ${r.externalOrderId ?? '(its code was redeemed directly)'}`);

/**
 * Marks the redemption used on an order, with its code redeemed, in one transaction. Once: the
 * same order again answers it as it is; another order is 409 REDEMPTION_USED, a voided one 409
 * REDEMPTION_VOIDED, an expired code 410 COUPON_EXPIRED. Of concurrent uses exactly one commits
 * (the update is conditional on `issued`); the others read again and answer by these rules.
 */
export async function useRedemption(
  workspaceId: string,
  redemptionId: string,
  externalOrderId: string,
  opts: WriteOptions<Redemption> = {},
): Promise<Redemption> {
  return withOptimisticRetry(async () => {
    const r = await loadRedemption(workspaceId, redemptionId);
    if (r.status === 'used') {
      if (r.externalOrderId === externalOrderId) return toRedemption(r);
      throw usedElsewhere(r);
    }
    if (r.status === 'voided') throw new AppError('REDEMPTION_VOIDED', `The redemption was voided at ${r.voidedAt}; it cannot be used`);
    const now = await programNow(workspaceId);
    const at = now.toISOString();
    const coupon = r.couponId ? await couponUse(workspaceId, r.couponId, now, externalOrderId) : [];
    if (coupon === 'used') throw usedElsewhere({ externalOrderId: null });
    if (coupon === 'voided' || coupon === 'gone') throw new AppError('REDEMPTION_VOIDED', 'The redemption’s code was voided; it cannot be used');
    if (coupon === 'expired') throw new AppError('COUPON_EXPIRED', 'The redemption’s code expired before it was used');
    const answer = toRedemption({ ...r, status: 'used', usedAt: at, externalOrderId });
    await repo.transactWrite([repo.useRedemptionStep(r, externalOrderId, at), ...coupon, ...sealSteps(opts, answer)]);
    return answer;
  });
}
