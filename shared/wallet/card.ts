import { getWorkspace } from '../auth';
import type { MemberRecord } from '../members';
import { rulesOf } from '../program';
import { cardBrandingOf } from './branding';
import type { Branding, CardContent } from './content';

/** What a member's card shows now: points, tier (by its name in the program), the workspace's branding. */
export async function cardOf(member: MemberRecord): Promise<{ content: CardContent; branding: Branding }> {
  const [workspace, rules, colours] = await Promise.all([getWorkspace(member.workspaceId), rulesOf(member.workspaceId), cardBrandingOf(member.workspaceId)]);
  const tierName = rules.tiers.levels.find((l) => l.key === member.tier)?.name ?? member.tier;
  const holderName = [member.firstName, member.lastName].filter(Boolean).join(' ') || member.id;
  return {
    content: { memberId: member.id, holderName, points: member.balance, tierKey: member.tier, tierName, active: member.status === 'active' },
    branding: { name: workspace?.name ?? 'Loyalty', ...colours },
  };
}
