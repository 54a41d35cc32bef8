import { rewardsArea } from '../../shared/rewards';
import * as rewards from '../../shared/rewards';
import { tableLedgerStore } from '../../shared/members';
import { type AreaHandlers, defineArea } from '../../shared/http/area';
import { twinned } from '../../shared/platform/contract/admin-twins';
import { sealed } from '../../shared/http/operation';
import { auditOf, consumerAuditOf, consumerOf, principalOf } from '../../shared/http/principal';
import { created, ok } from '../../shared/http/responses';

/** What the console calls too: each serves its API-key route and its `/api/flash` twin. */
const shared = {
  listRewards: async ({ principal, query }) => {
    const page = await rewards.listRewards(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createReward: sealed(created, (input, write) => rewards.createReward(principalOf(input.principal).workspaceId, input.body, auditOf(input), write)),
  getReward: async ({ principal, params }) => ok(await rewards.getReward(principalOf(principal).workspaceId, params.id)),
  updateReward: async (input) => ok(await rewards.updateReward(principalOf(input.principal).workspaceId, input.params.id, input.body, auditOf(input))),
  listMemberRedemptions: async ({ principal, params, query }) => {
    const page = await rewards.listMemberRedemptions(principalOf(principal).workspaceId, params.id, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  voidRedemption: sealed(ok, (input, write) =>
    rewards.voidRedemption(principalOf(input.principal).workspaceId, input.params.id, auditOf(input), tableLedgerStore, write),
  ),
} satisfies Partial<AreaHandlers<typeof rewardsArea.endpoints>>;

export const handler = defineArea(rewardsArea, {
  ...twinned(shared),
  redeemReward: sealed(created, (input, write) =>
    rewards.redeemReward(principalOf(input.principal).workspaceId, input.params.id, input.body.memberId, auditOf(input), tableLedgerStore, write),
  ),
  validateRedemption: async ({ principal, body }) => ok(await rewards.validateRedemption(principalOf(principal).workspaceId, body)),
  useRedemption: sealed(ok, (input, write) =>
    rewards.useRedemption(principalOf(input.principal).workspaceId, input.params.id, input.body.externalOrderId, write),
  ),
  listMyRewards: async ({ context, query }) => {
    const { workspaceId, memberId } = consumerOf(context);
    const page = await rewards.listMemberRewards(workspaceId, memberId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  redeemMyReward: sealed(created, (input, write) => {
    const { workspaceId, memberId } = consumerOf(input.context);
    return rewards.redeemReward(workspaceId, input.params.id, memberId, consumerAuditOf(input), tableLedgerStore, write);
  }),
  listMyRedemptions: async ({ context, query }) => {
    const { workspaceId, memberId } = consumerOf(context);
    const page = await rewards.listMemberRedemptions(workspaceId, memberId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
});
