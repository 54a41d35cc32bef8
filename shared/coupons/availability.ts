/**
 * Whether a pool can issue a campaign's coupon to a member now, read as an issue would find it
 * (its status on real time, its stock, the member's count against its per-member limit) and
 * written nowhere: what a campaign evaluation, real or simulated, counts before it grants.
 */
import * as repo from './repository';
import { ID_PATTERN } from '../platform/ids';
import { poolStatus } from './types';

export type PoolAvailability = 'issuing' | 'empty' | 'unavailable';

/** The pool's state for this member (null: no member yet, only the pool itself counts). */
export async function poolAvailability(workspaceId: string, poolId: string, memberId: string | null, now: Date): Promise<PoolAvailability> {
  const pool = ID_PATTERN('cpl').test(poolId) ? await repo.getPool(workspaceId, poolId) : undefined;
  if (!pool) return 'unavailable';
  const status = poolStatus(pool, now);
  if (status === 'exhausted') return 'empty';
  if (status !== 'active') return 'unavailable';
  if (memberId !== null && pool.perMemberLimit && (await repo.memberCouponCount(workspaceId, poolId, memberId)) >= pool.perMemberLimit) return 'unavailable';
  return 'issuing';
}
