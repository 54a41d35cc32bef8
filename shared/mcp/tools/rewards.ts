import * as z from 'zod';
import { tableLedgerStore } from '../../members';
import * as rewards from '../../rewards';
import { createRewardBody, listRewardsQuery, redemptionSchema, rewardSchema, updateRewardBody } from '../../rewards';
import { defineTool, idempotencyKeyArg, memberIdArg, pageArgs, pageOf, pageResult, READ_ONLY, toolAudit, write } from '../registry';

/** The rewards catalog: what members spend points on, and their redemptions. */

const rewardIdArg = z.string().min(1).max(64).describe('The reward id (rwd_...), e.g. from list_rewards');

export const rewardTools = [
  defineTool({
    name: 'list_rewards',
    title: 'List rewards',
    description:
      'The rewards catalog, newest first, optionally of one status (only active rewards are redeemable), each with its points price, benefit and remaining stock.',
    rest: 'listRewards',
    service: rewards.listRewards,
    input: z.strictObject({ ...pageArgs, status: listRewardsQuery.shape.status }),
    output: pageOf(rewardSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await rewards.listRewards(ctx.workspaceId, a)),
  }),
  defineTool({
    name: 'create_reward',
    title: 'Add a reward to the catalog',
    description:
      'A new reward members spend points on, `draft` unless a status is given (only `active` ones are redeemable). A coupon pool or tier it names must exist. Pass an idempotencyKey so a retry cannot create it twice.',
    rest: 'createReward',
    service: rewards.createReward,
    input: z.strictObject({
      reward: createRewardBody.describe(
        'name, pointsCost, benefit; optional description, imageUrl, stock, perMemberLimit, window, tiers, couponPoolId, status',
      ),
      idempotencyKey: idempotencyKeyArg,
    }),
    output: rewardSchema,
    annotations: write({ destructive: false, idempotent: true }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => rewards.createReward(ctx.workspaceId, a.reward, toolAudit(ctx), w),
  }),
  defineTool({
    name: 'update_reward',
    title: 'Change a reward or its status',
    description:
      'Changes the fields given: status (draft, active, paused, archived; an archived reward stays archived), stock (remaining moves by as much, never below the live redemptions), price or benefit. With version, only if the reward is still at it (CONFLICT otherwise).',
    rest: 'updateReward',
    service: rewards.updateReward,
    input: z.strictObject({ rewardId: rewardIdArg, changes: updateRewardBody.describe('The fields to change, and optionally the version you read') }),
    output: rewardSchema,
    annotations: write({ destructive: false, idempotent: true }),
    writes: 'guard',
    run: (ctx, a) => rewards.updateReward(ctx.workspaceId, a.rewardId, a.changes, toolAudit(ctx)),
  }),
  defineTool({
    name: 'redeem_reward',
    title: 'Redeem a reward for a member',
    description:
      "Spends the member's points on an active reward, in one step: the points, a unit of stock and, if the reward has a coupon pool, a code. Refused with nothing written: REWARD_NOT_AVAILABLE, REWARD_OUT_OF_STOCK, REWARD_LIMIT_REACHED, REWARD_TIER_NOT_ALLOWED, INSUFFICIENT_POINTS, POOL_EXHAUSTED. Pass an idempotencyKey so a retry cannot redeem twice.",
    rest: 'redeemReward',
    service: rewards.redeemReward,
    input: z.strictObject({ rewardId: rewardIdArg, memberId: memberIdArg, idempotencyKey: idempotencyKeyArg }),
    output: redemptionSchema,
    annotations: write({ destructive: false, idempotent: false }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => rewards.redeemReward(ctx.workspaceId, a.rewardId, a.memberId, toolAudit(ctx), tableLedgerStore, w),
  }),
  defineTool({
    name: 'void_redemption',
    title: 'Void an unused redemption',
    description:
      'Takes back a redemption the member has not used: the points return, the code is voided and the unit of stock comes back, once (voiding a voided redemption answers it as it is). A used one is REDEMPTION_USED.',
    rest: 'voidRedemption',
    service: rewards.voidRedemption,
    input: z.strictObject({
      redemptionId: z.string().min(1).max(64).describe('The redemption id (rdm_...), e.g. from redeem_reward'),
      idempotencyKey: idempotencyKeyArg,
    }),
    output: redemptionSchema,
    annotations: write({ destructive: true, idempotent: true }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => rewards.voidRedemption(ctx.workspaceId, a.redemptionId, toolAudit(ctx), tableLedgerStore, w),
  }),
];
