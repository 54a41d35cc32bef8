/**
 * The rewards catalog as a manager runs it: rewards created, read, listed and changed under
 * optimistic versions, every change audited. Redeeming one is `redemptions.ts`.
 */
import * as repo from './repository';
import { getPool } from '../coupons';
import { programNow, rulesOf } from '../program';
import { withOptimisticRetry } from '../platform/data/concurrency';
import type { Page } from '../platform/data/queries';
import { transactWrite } from './repository';
import { conflict, notFound, validationFailed, type ErrorDetail } from '../platform/errors';
import { ID_PATTERN, newId } from '../platform/ids';
import { audited, definitionDiff, diffOf, type AuditContext } from '../audit';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import type { RewardRecord, RewardStatus } from './entities';
import { remainingAfter } from './eligibility';
import type { CreateRewardInput, Reward, UpdateRewardInput } from './schemas';

export const isRewardId = (id: string) => ID_PATTERN('rwd').test(id);

/** What a manager defines of a reward: everything but its id, counters, version and timestamps. */
type Definition = Omit<RewardRecord, 'id' | 'workspaceId' | 'remaining' | 'version' | 'createdAt' | 'updatedAt'>;

const iso = (t: string | null | undefined) => (t ? new Date(t).toISOString() : null);

function definitionOf(input: CreateRewardInput | UpdateRewardInput, base?: Definition): Definition {
  const pick = <K extends keyof Definition>(k: K, fallback: Definition[K]): Definition[K] =>
    (input as Record<string, unknown>)[k] === undefined ? (base ? base[k] : fallback) : ((input as Record<string, unknown>)[k] as Definition[K]);
  return {
    name: pick('name', ''),
    description: pick('description', null),
    imageUrl: pick('imageUrl', null),
    pointsCost: pick('pointsCost', 0),
    benefit: pick('benefit', { type: 'free_shipping' }),
    minimumSpend: pick('minimumSpend', null),
    validityDays: pick('validityDays', null),
    stock: pick('stock', null),
    perMemberLimit: pick('perMemberLimit', null),
    availableFrom: iso(pick('availableFrom', null)),
    availableUntil: iso(pick('availableUntil', null)),
    allowedTiers: pick('allowedTiers', null),
    couponPoolId: pick('couponPoolId', null),
    voidWhenExpired: pick('voidWhenExpired', false) ?? false,
    status: pick('status', 'draft'),
  };
}

/** Each reference the workspace does not have (the coupon pool, the tiers), as a detail naming its field. */
async function checkReferences(workspaceId: string, d: Definition): Promise<void> {
  const details: ErrorDetail[] = [];
  if (d.couponPoolId !== null && !(ID_PATTERN('cpl').test(d.couponPoolId) && (await getPool(workspaceId, d.couponPoolId)))) {
    details.push({ in: 'body', field: 'couponPoolId', message: `no coupon pool ${d.couponPoolId} in this workspace` });
  }
  if (d.allowedTiers !== null) {
    const tiers = new Set((await rulesOf(workspaceId)).tiers.levels.map((l) => l.key));
    for (const [i, t] of d.allowedTiers.entries()) {
      if (!tiers.has(t)) details.push({ in: 'body', field: `allowedTiers.${i}`, message: `no tier ${t} in the program (tiers: ${[...tiers].join(', ')})` });
    }
  }
  if (d.availableFrom && d.availableUntil && d.availableFrom >= d.availableUntil) {
    details.push({ in: 'body', field: 'availableUntil', message: 'must be after availableFrom' });
  }
  if (details.length) throw validationFailed(details);
}

export function toReward(r: RewardRecord): Reward {
  const { workspaceId: _w, ...answer } = r;
  return { ...answer, voidWhenExpired: r.voidWhenExpired ?? false };
}

export async function createReward(
  workspaceId: string,
  input: CreateRewardInput,
  audit: AuditContext,
  opts: WriteOptions<Reward> = {},
  now = new Date(),
): Promise<Reward> {
  const definition = definitionOf(input);
  await checkReferences(workspaceId, definition);
  const at = (await programNow(workspaceId, now)).toISOString();
  const reward: RewardRecord = {
    id: newId('rwd', now.getTime()),
    workspaceId,
    ...definition,
    remaining: definition.stock,
    version: 1,
    createdAt: at,
    updatedAt: at,
  };
  const answer = toReward(reward);
  await transactWrite([
    repo.putRewardStep(reward),
    audited(workspaceId, audit, 'reward.created', { type: 'reward', id: reward.id }, now, diffOf({}, definition)),
    ...sealSteps(opts, answer),
  ]);
  return answer;
}

export async function loadReward(workspaceId: string, rewardId: string): Promise<RewardRecord> {
  const found = isRewardId(rewardId) ? await repo.getReward(workspaceId, rewardId) : undefined;
  if (!found) throw notFound('Reward');
  return found;
}

export const getReward = async (workspaceId: string, rewardId: string): Promise<Reward> => toReward(await loadReward(workspaceId, rewardId));

export async function listRewards(workspaceId: string, q: { limit: number; cursor?: string; status?: RewardStatus }): Promise<Page<Reward>> {
  const page = await repo.listRewards(workspaceId, q.limit, q.cursor, q.status);
  return { ...page, items: page.items.map(toReward) };
}

/**
 * Changes what is given, under optimistic concurrency (`version`, if given, must still match). A
 * change of the stock moves what remains by as much (redemptions go on meanwhile), never below
 * the live redemptions; an archived reward stays archived.
 */
export async function updateReward(workspaceId: string, rewardId: string, input: UpdateRewardInput, audit: AuditContext, now = new Date()): Promise<Reward> {
  return withOptimisticRetry(async () => {
    const current = await loadReward(workspaceId, rewardId);
    if (input.version !== undefined && input.version !== current.version) {
      throw conflict(`The reward is at version ${current.version}, not ${input.version}; read it again and retry`);
    }
    if (current.status === 'archived' && input.status !== undefined && input.status !== 'archived') {
      throw conflict('The reward is archived; create a new one instead of bringing it back');
    }
    const definition = definitionOf(input, current);
    await checkReferences(workspaceId, definition);
    const remaining = remainingAfter({ before: current.stock, after: definition.stock }, current.remaining);
    if (remaining === 'below_zero') {
      throw conflict(`The reward has ${(current.stock ?? 0) - (current.remaining ?? 0)} live redemptions; its stock cannot be lower`);
    }
    const changed = { ...definition, version: current.version + 1, updatedAt: (await programNow(workspaceId, now)).toISOString() };
    const move =
      current.stock !== null && definition.stock !== null
        ? { add: definition.stock - current.stock }
        : current.stock === definition.stock
          ? null
          : { set: remaining };
    await transactWrite([
      repo.updateRewardStep(current, changed, current.version, move),
      audited(workspaceId, audit, 'reward.updated', { type: 'reward', id: rewardId }, now, definitionDiff(current, definition)),
    ]);
    // What remains as stored now: redemptions went on while the change was made.
    return toReward(await loadReward(workspaceId, rewardId));
  });
}
