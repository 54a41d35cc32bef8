import { rewardsArea } from '../../shared/rewards';
import * as rewards from '../../shared/rewards';
import { tableLedgerStore } from '../../shared/members';
import { defineArea } from '../../shared/http/area';
import { type OperationHandler, type OperationInput, sealed } from '../../shared/http/operation';
import { auditOf, consumerAuditOf, consumerOf, principalOf } from '../../shared/http/principal';
import { created, ok } from '../../shared/http/responses';

type Endpoints = typeof rewardsArea.endpoints;

/** A member's redemptions: the API key's route and the console's twin run the same. */
const memberRedemptions: OperationHandler<Endpoints['listMemberRedemptions']> = async ({ principal, params, query }) => {
  const page = await rewards.listMemberRedemptions(principalOf(principal).workspaceId, params.id, query);
  return ok(page.items, { nextCursor: page.nextCursor ?? null });
};

/** A redemption voided: the API key's route and the console's twin run the same. */
const voided = sealed(ok, (input: OperationInput<Endpoints['voidRedemption']>, write) =>
  rewards.voidRedemption(principalOf(input.principal).workspaceId, input.params.id, auditOf(input), tableLedgerStore, write),
);

export const handler = defineArea(rewardsArea, {
  listRewards: async ({ principal, query }) => {
    const page = await rewards.listRewards(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createReward: sealed(created, (input, write) => rewards.createReward(principalOf(input.principal).workspaceId, input.body, auditOf(input), write)),
  getReward: async ({ principal, params }) => ok(await rewards.getReward(principalOf(principal).workspaceId, params.id)),
  updateReward: async (input) => ok(await rewards.updateReward(principalOf(input.principal).workspaceId, input.params.id, input.body, auditOf(input))),
  redeemReward: sealed(created, (input, write) =>
    rewards.redeemReward(principalOf(input.principal).workspaceId, input.params.id, input.body.memberId, auditOf(input), tableLedgerStore, write),
  ),
  listMemberRedemptions: memberRedemptions,
  listMemberRedemptionsInConsole: memberRedemptions,
  voidRedemption: voided,
  voidRedemptionInConsole: voided,
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
