/**
 * The catalog as one member sees it through a member portal session: the rewards they may redeem
 * now (the redemption's own rules, `refusalOf`), each with whether their balance covers it.
 */
import * as repo from './repository';
import { loadMember } from '../members';
import { programNow } from '../program';
import type { Page } from '../platform/data/queries';
import { refusalOf } from './eligibility';
import type { MemberReward } from './schemas';

/**
 * One page of the active rewards, less those the member may not redeem now (outside the window,
 * another tier, out of stock, at the per-member limit): a page may hold fewer than `limit`, and
 * `nextCursor` says whether more follow.
 */
export async function listMemberRewards(workspaceId: string, memberId: string, q: { limit: number; cursor?: string }): Promise<Page<MemberReward>> {
  const [member, now] = await Promise.all([loadMember(workspaceId, memberId), programNow(workspaceId)]);
  const page = await repo.listRewards(workspaceId, q.limit, q.cursor, 'active');
  const held = await Promise.all(page.items.map((r) => (r.perMemberLimit === null ? 0 : repo.memberHeld(workspaceId, r.id, memberId))));
  const at = now.toISOString();
  const items = page.items
    .filter((r, i) => refusalOf(r, { at, tier: member.tier, held: held[i] ?? 0 }) === null)
    .map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      imageUrl: r.imageUrl,
      pointsCost: r.pointsCost,
      benefit: r.benefit,
      minimumSpend: r.minimumSpend,
      validityDays: r.validityDays,
      availableUntil: r.availableUntil,
      affordable: member.balance >= r.pointsCost,
    }));
  return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
