/**
 * Redeeming a reward, and voiding a redemption, each ONE points change of the ledger
 * (`changePoints`): the member's balance and a ledger entry of its own kind (`redemption`, then
 * `redemption_void`) naming the reward and the redemption, in the same transaction as the
 * reward's stock, the member's counter under the per-member limit, the redemption, the coupon
 * drawn from the reward's pool (the coupons' own issue path) and the event. The ledger re-plans the
 * whole change when any condition fails, on fresh reads, so what it answers is what committed.
 */
import * as repo from './repository';
import { couponVoid, rewardCoupon } from '../coupons';
import { changePoints, isMemberId, loadMember, NO_DELTA, type LedgerStore } from '../members';
import { dueWorkspaceStep, programNow } from '../program';
import { inKeyOrder } from '../platform/data/concurrency';
import type { Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
import { event } from '../platform/events/outbox';
import { ID_PATTERN, newId } from '../platform/ids';
import { AppError, conflict, notFound } from '../platform/errors';
import { audited, type AuditContext } from '../audit';
import type { WriteOptions } from '../platform/data/write-options';
import { logger } from '../platform/observability/logger';
import type { RedemptionRecord, RedemptionStatus, RewardRecord } from './entities';
import { codeValidUntil, limitReached, refusalOf } from './eligibility';
import type { Redemption } from './schemas';
import { loadReward } from './service';

const isRedemptionId = (id: string) => ID_PATTERN('rdm').test(id);

export function toRedemption(r: RedemptionRecord): Redemption {
  const { workspaceId: _w, stockTaken: _s, benefit: _b, minimumSpend: _m, usedAt, externalOrderId, ...answer } = r;
  return { ...answer, usedAt: usedAt ?? null, externalOrderId: externalOrderId ?? null, voidAt: answer.status === 'issued' ? (answer.voidAt ?? null) : null };
}

const apiKeyOf = (audit: AuditContext | null) => (audit?.actor.type === 'apiKey' ? audit.actor.id : null);

const refused = (refusal: { code: AppError['code']; message: string }) => new AppError(refusal.code, refusal.message);

/** The ledger entry's source: the reward and the redemption it is about. */
const sourceOf = (r: Pick<RedemptionRecord, 'rewardId' | 'id'>, audit: AuditContext | null) => ({
  type: 'reward' as const,
  orderId: null,
  externalOrderId: null,
  apiKeyId: apiKeyOf(audit),
  rewardId: r.rewardId,
  redemptionId: r.id,
});

/**
 * Redeems a reward for a member: refused (409) when the reward is not active or outside its
 * window, the member's tier is not allowed, the stock is gone, the member is at the limit or the
 * balance is short (INSUFFICIENT_POINTS). The redemptions of one reward in this process take
 * turns (its stock item is hot), so only writers in other processes make one plan again.
 */
export function redeemReward(
  workspaceId: string,
  rewardId: string,
  memberId: string,
  audit: AuditContext,
  store: LedgerStore,
  opts: WriteOptions<Redemption> = {},
): Promise<Redemption> {
  return inKeyOrder(`reward:${workspaceId}/${rewardId}`, async () => {
    await loadReward(workspaceId, rewardId);
    if (!isMemberId(memberId)) throw notFound('Member');
    return changePoints({ store, workspaceId, memberId, plan: (member) => planRedemption(workspaceId, rewardId, member, audit), write: opts });
  });
}

async function planRedemption(workspaceId: string, rewardId: string, member: { id: string; status: string; tier: string }, audit: AuditContext) {
  if (member.status !== 'active') throw conflict('The member is unenrolled; rewards can no longer be redeemed');
  const [reward, held, now] = await Promise.all([
    loadReward(workspaceId, rewardId),
    repo.memberHeld(workspaceId, rewardId, member.id),
    programNow(workspaceId),
  ]);
  const at = now.toISOString();
  const refusal = refusalOf(reward, { at, tier: member.tier, held });
  if (refusal) throw refused(refusal);
  const drawn = reward.couponPoolId
    ? await rewardCoupon(workspaceId, reward.couponPoolId, member.id, now, (poolUntil) => ({
        validUntil: codeValidUntil(at, reward.validityDays, poolUntil),
        pointsCost: reward.pointsCost,
      }))
    : null;
  const redemption: RedemptionRecord = {
    id: newId('rdm', now.getTime()),
    workspaceId,
    rewardId,
    rewardName: reward.name,
    memberId: member.id,
    pointsSpent: reward.pointsCost,
    status: 'issued',
    ledgerEntryId: newId('ple', now.getTime()),
    voidEntryId: null,
    couponId: drawn?.coupon.id ?? null,
    couponCode: drawn?.coupon.code ?? null,
    stockTaken: reward.remaining !== null,
    createdAt: at,
    voidedAt: null,
    usedAt: null,
    externalOrderId: null,
    benefit: reward.benefit,
    minimumSpend: reward.minimumSpend,
    voidAt: reward.voidWhenExpired ? (drawn?.coupon.validUntil ?? null) : null,
  };
  const answer = toRedemption(redemption);
  return {
    plan: {
      delta: { ...NO_DELTA, balance: -reward.pointsCost },
      entry: { id: redemption.ledgerEntryId, type: 'redemption' as const, reason: `Reward ${reward.name}`, source: sourceOf(redemption, audit) },
      requireNonNegative: true,
      requireActive: true,
      steps: [
        repo.holdRewardStep(reward),
        repo.countMemberStep(workspaceId, rewardId, member.id, reward.perMemberLimit, () => refused(limitReached(reward.perMemberLimit ?? 0))),
        repo.putRedemptionStep(redemption),
        ...(drawn?.draft.steps ?? []),
        // A void that falls due puts the workspace on the due work's list.
        ...(redemption.voidAt ? [dueWorkspaceStep(workspaceId)] : []),
      ],
      events: [...(drawn?.draft.events ?? []), event('reward.redeemed', { resource_id: redemption.id, member_ref: member.id, reward_id: rewardId })],
      result: () => answer,
    },
  };
}

export async function loadRedemption(workspaceId: string, redemptionId: string): Promise<RedemptionRecord> {
  const found = isRedemptionId(redemptionId) ? await repo.getRedemption(workspaceId, redemptionId) : undefined;
  if (!found) throw notFound('Redemption');
  return found;
}

/**
 * Voids an unused redemption: its points back as a `redemption_void` entry, its coupon voided,
 * its unit of stock back, the member's count down, audited. Once: the redemption's update is
 * conditional on `issued`, so of concurrent voids one commits and the others read it again and
 * answer it as voided. A redemption whose coupon was redeemed is REDEMPTION_USED. `audit` null: the
 * due work's void of an expired code, recorded by its ledger entry and event as an expiry is.
 */
export async function voidRedemption(
  workspaceId: string,
  redemptionId: string,
  audit: AuditContext | null,
  store: LedgerStore,
  opts: WriteOptions<Redemption> = {},
): Promise<Redemption> {
  const first = await loadRedemption(workspaceId, redemptionId);
  if (first.status === 'voided') return toRedemption(first);
  return changePoints({ store, workspaceId, memberId: first.memberId, plan: () => planVoid(workspaceId, redemptionId, audit), write: opts });
}

async function planVoid(workspaceId: string, redemptionId: string, audit: AuditContext | null) {
  const r = await loadRedemption(workspaceId, redemptionId);
  if (r.status === 'voided') return { done: toRedemption(r) };
  if (r.status === 'used') throw new AppError('REDEMPTION_USED', `The redemption was used on order ${r.externalOrderId}; it cannot be voided`);
  const now = await programNow(workspaceId);
  const at = now.toISOString();
  const [coupon, reward] = await Promise.all([
    r.couponId ? couponVoid(workspaceId, r.couponId, now) : null,
    r.stockTaken ? repo.getReward(workspaceId, r.rewardId) : undefined,
  ]);
  if (coupon === 'used') throw new AppError('REDEMPTION_USED', `The redemption's coupon ${r.couponId} was already redeemed; it cannot be voided`);
  if (!audit && !(r.voidAt && r.voidAt <= at)) return { done: toRedemption(r) };
  const voidEntryId = newId('ple', now.getTime());
  const answer = toRedemption({ ...r, status: 'voided', voidEntryId, voidedAt: at });
  const steps: TransactStep[] = [
    repo.voidRedemptionStep(r, voidEntryId, at),
    ...(coupon ? [coupon] : []),
    ...(givesStockBack(reward) ? [repo.giveBackStockStep(workspaceId, r.rewardId)] : []),
    repo.uncountMemberStep(workspaceId, r.rewardId, r.memberId),
    ...(audit ? [audited(workspaceId, audit, 'redemption.voided', { type: 'redemption', id: r.id }, now)] : []),
  ];
  return {
    plan: {
      delta: { ...NO_DELTA, balance: r.pointsSpent },
      entry: {
        id: voidEntryId,
        type: 'redemption_void' as const,
        reason: audit ? `Redemption ${r.id} voided` : `Redemption ${r.id} voided: its code expired unused`,
        source: sourceOf(r, audit),
      },
      steps,
      events: [event('reward.voided', { resource_id: r.id, member_ref: r.memberId, reward_id: r.rewardId })],
      result: () => answer,
    },
  };
}

/** A unit goes back only while the reward still counts stock (one made unlimited since has nothing to give it to). */
const givesStockBack = (reward: RewardRecord | undefined): boolean => reward !== undefined && reward.remaining !== null;

export async function listMemberRedemptions(
  workspaceId: string,
  memberId: string,
  q: { limit: number; cursor?: string; status?: RedemptionStatus },
): Promise<Page<Redemption>> {
  await loadMember(workspaceId, memberId);
  const page = await repo.listMemberRedemptions(workspaceId, memberId, q.limit, q.cursor, q.status);
  return { ...page, items: page.items.map(toRedemption) };
}

const DUE_VOIDS_PAGE = 50;
const DUE_VOIDS_AT_ONCE = 4;

/**
 * The program's due work for rewards: each issued redemption whose code expired unused, of a reward
 * that says so (`voidWhenExpired`), voided as an admin's void would (points, stock and the member's
 * count back, the coupon voided, `reward.voided`), without an audit entry. One whose code was
 * redeemed outside checkout leaves the index with nothing voided. Safe to run again: what was
 * voided is off the index.
 */
export async function voidExpiredRedemptions(workspaceId: string, now: Date, store: LedgerStore): Promise<number> {
  let voided = 0;
  for (;;) {
    const due = await repo.dueVoids(workspaceId, now.toISOString(), DUE_VOIDS_PAGE);
    let moved = 0;
    for (let i = 0; i < due.length; i += DUE_VOIDS_AT_ONCE) {
      const outcomes = await Promise.allSettled(due.slice(i, i + DUE_VOIDS_AT_ONCE).map((r) => voidDue(workspaceId, r, store)));
      for (const o of outcomes) {
        if (o.status === 'rejected') logger.error('redemption void failed; left for the next run', { workspaceId, error: o.reason as Error });
        else if (o.value !== 'left') moved++;
        if (o.status === 'fulfilled' && o.value === 'voided') voided++;
      }
    }
    // A short page, or a page of which nothing left the index (each left for the next run): done for now.
    if (due.length < DUE_VOIDS_PAGE || moved === 0) return voided;
  }
}

/** What became of a due redemption: voided now, off the index without a void (used, or voided before), or left as it was. */
async function voidDue(workspaceId: string, r: RedemptionRecord, store: LedgerStore): Promise<'voided' | 'off' | 'left'> {
  try {
    const after = await voidRedemption(workspaceId, r.id, null, store);
    return after.status === 'voided' ? 'voided' : 'left';
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'REDEMPTION_USED') throw err;
    await repo.transactWrite([repo.undueStep(r)]);
    return 'off';
  }
}
