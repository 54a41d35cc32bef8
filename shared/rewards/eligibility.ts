/**
 * Whether a member may redeem a reward now: pure, so the rules are read and tested in one place.
 * The redemption's transaction holds the same facts under conditions (status and stock on the
 * reward, the member's counter under its limit), so a decision here is never outrun by a race.
 */
import type { ErrorCode } from '../platform/errors';
import type { RewardRecord } from './entities';

export type RewardRefusal = { code: Extract<ErrorCode, `REWARD_${string}`>; message: string };

export interface RedeemContext {
  /** Program time (a sandbox's clock), ISO. */
  at: string;
  /** The member's tier key. */
  tier: string;
  /** Live (not voided) redemptions of this reward the member holds. */
  held: number;
}

type Rules = Pick<RewardRecord, 'status' | 'availableFrom' | 'availableUntil' | 'allowedTiers' | 'remaining' | 'perMemberLimit'>;

/** The first rule the redemption breaks, in the order a member would want to hear them; null: it may go ahead. */
export function refusalOf(reward: Rules, ctx: RedeemContext): RewardRefusal | null {
  if (reward.status !== 'active') return { code: 'REWARD_NOT_AVAILABLE', message: `The reward is ${reward.status}, not active` };
  if (reward.availableFrom !== null && ctx.at < reward.availableFrom) {
    return { code: 'REWARD_NOT_AVAILABLE', message: `The reward is available from ${reward.availableFrom}` };
  }
  if (reward.availableUntil !== null && ctx.at >= reward.availableUntil) {
    return { code: 'REWARD_NOT_AVAILABLE', message: `The reward was available until ${reward.availableUntil}` };
  }
  if (reward.allowedTiers !== null && !reward.allowedTiers.includes(ctx.tier)) {
    return { code: 'REWARD_TIER_NOT_ALLOWED', message: `The member's tier ${ctx.tier} may not redeem it (tiers: ${reward.allowedTiers.join(', ')})` };
  }
  if (reward.remaining !== null && reward.remaining < 1) return { code: 'REWARD_OUT_OF_STOCK', message: 'The reward has no stock left' };
  if (reward.perMemberLimit !== null && ctx.held >= reward.perMemberLimit) return limitReached(reward.perMemberLimit);
  return null;
}

export const limitReached = (limit: number): RewardRefusal => ({
  code: 'REWARD_LIMIT_REACHED',
  message: `The member already holds ${limit} redemption${limit === 1 ? '' : 's'} of this reward, its per-member limit`,
});

/** When a code issued at `at` stops being valid: `validityDays` later, never after its pool's own end (null: never). */
export function codeValidUntil(at: string, validityDays: number | null, poolUntil: string | null): string | null {
  if (validityDays === null) return poolUntil;
  const own = new Date(Date.parse(at) + validityDays * 86_400_000).toISOString();
  return poolUntil !== null && poolUntil < own ? poolUntil : own;
}

/** The remaining stock after the stock changes from `before` to `after` (null: unlimited), or a refusal when it would go below zero. */
export function remainingAfter(stock: { before: number | null; after: number | null }, remaining: number | null): number | null | 'below_zero' {
  if (stock.after === null) return null;
  const live = stock.before === null || remaining === null ? 0 : stock.before - remaining;
  const next = stock.after - live;
  return next < 0 ? 'below_zero' : next;
}
