import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import {
  createRewardBody,
  listRedemptionsQuery,
  listRewardsQuery,
  memberRewardSchema,
  redeemRewardBody,
  redemptionCheckSchema,
  redemptionSchema,
  rewardSchema,
  updateRewardBody,
  useRedemptionBody,
  validateRedemptionBody,
} from './schemas';
import { dataOf, errorBody, pageOf } from '../platform/contract/contract';
import { pageQuery } from '../platform/validation/pagination';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });

export const rewardsArea = declareArea({
  area: 'rewards',
  description:
    'The rewards catalog members spend points on, and their redemptions: each a ledger entry of its own that takes the points, with the code drawn from a coupon pool.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listRewards: {
      method: 'GET',
      path: '/api/v2/rewards',
      auth: ['apiKey'],
      scope: 'rewards:read',
      summary: 'List rewards',
      query: listRewardsQuery,
      responses: { 200: pageOf(rewardSchema) },
      description: 'Newest first; `status` narrows the list to draft, active, paused or archived rewards.',
    },
    createReward: {
      method: 'POST',
      path: '/api/v2/rewards',
      auth: ['apiKey'],
      scope: 'rewards:manage',
      summary: 'Add a reward to the catalog',
      idempotent: true,
      body: createRewardBody,
      responses: { 201: dataOf(rewardSchema) },
      description:
        'A reward starts as `draft` unless a status is given; only an `active` one is redeemable. A coupon pool or tier it names must exist in the workspace (422 naming the field). Audited as `reward.created`.',
    },
    getReward: {
      method: 'GET',
      path: '/api/v2/rewards/{id}',
      auth: ['apiKey'],
      scope: 'rewards:read',
      summary: 'Get a reward',
      params: byId,
      responses: { 200: dataOf(rewardSchema) },
    },
    updateReward: {
      method: 'PATCH',
      path: '/api/v2/rewards/{id}',
      auth: ['apiKey'],
      scope: 'rewards:manage',
      summary: 'Change a reward or its status',
      params: byId,
      body: updateRewardBody,
      responses: { 200: dataOf(rewardSchema) },
      description:
        'Changes the fields given; `status` moves it between draft, active, paused and archived (an archived reward stays archived). With `version`, only if the reward is still at it (409 otherwise). A new `stock` moves `remaining` by as much, never below the live redemptions (409). Audited as `reward.updated`.',
    },
    redeemReward: {
      method: 'POST',
      path: '/api/v2/rewards/{id}/redemptions',
      auth: ['apiKey'],
      scope: 'rewards:redeem',
      summary: 'Redeem a reward for a member',
      idempotent: true,
      params: byId,
      body: redeemRewardBody,
      responses: { 201: dataOf(redemptionSchema), 410: errorBody },
      description:
        "One transaction: the points taken as a `redemption` ledger entry, a unit of stock (409 REWARD_OUT_OF_STOCK), the member's count under `perMemberLimit` (409 REWARD_LIMIT_REACHED) and, if the reward has a coupon pool, the code drawn from it (409 POOL_EXHAUSTED or POOL_NOT_ACTIVE). Refused with nothing written when the reward is not active or outside its window (409 REWARD_NOT_AVAILABLE), the member's tier is not allowed (409 REWARD_TIER_NOT_ALLOWED) or the balance is short (409 INSUFFICIENT_POINTS). Unknown reward or member: 404; unenrolled member: 409 CONFLICT; erased: 410.",
    },
    listMemberRedemptions: {
      method: 'GET',
      path: '/api/v2/members/{id}/redemptions',
      auth: ['apiKey'],
      scope: 'rewards:read',
      summary: "A member's redemptions",
      params: byId,
      query: listRedemptionsQuery,
      responses: { 200: pageOf(redemptionSchema) },
      description: "The member's redemptions, newest first, with their codes.",
    },
    listMemberRedemptionsInConsole: {
      method: 'GET',
      path: '/api/flash/members/{id}/redemptions',
      auth: ['adminSession'],
      permission: 'rewards:read',
      summary: "A member's redemptions (console)",
      params: byId,
      query: listRedemptionsQuery,
      responses: { 200: pageOf(redemptionSchema) },
      description: 'The redemptions of `GET /api/v2/members/{id}/redemptions` for the console member screen.',
    },
    voidRedemption: {
      method: 'POST',
      path: '/api/v2/redemptions/{id}/void',
      auth: ['apiKey'],
      scope: 'rewards:manage',
      summary: 'Void an unused redemption',
      idempotent: true,
      params: byId,
      responses: { 200: dataOf(redemptionSchema), 410: errorBody },
      description:
        "Gives the points back as a `redemption_void` ledger entry, voids the coupon, returns the unit of stock and frees the member's count, in one transaction, once: a void of a voided redemption answers it as it is. A redemption used at checkout, or whose coupon was redeemed, is 409 REDEMPTION_USED. Audited as `redemption.voided`.",
    },
    voidRedemptionInConsole: {
      method: 'POST',
      path: '/api/flash/redemptions/{id}/void',
      auth: ['adminSession'],
      permission: 'rewards:redeem',
      summary: 'Void an unused redemption (console)',
      idempotent: true,
      params: byId,
      responses: { 200: dataOf(redemptionSchema), 410: errorBody },
      description:
        'As `POST /api/v2/redemptions/{id}/void`, for a person whose role may redeem and void (the member screen): the same transaction, refusals and audit entry, with the person as the actor.',
    },
    validateRedemption: {
      method: 'POST',
      path: '/api/v2/rewards/validate',
      auth: ['apiKey'],
      scope: 'rewards:read',
      summary: 'Check a redemption against a cart at checkout',
      body: validateRedemptionBody,
      responses: { 200: dataOf(redemptionCheckSchema) },
      description:
        'Reads only. By its `code` (case does not matter) or `redemptionId`, for the member and cart given (amounts in minor units): `applies: true` with the exact `discount`, ' +
        'or `applies: false` with a stable `reason` (NOT_FOUND, WRONG_MEMBER, VOIDED, ALREADY_USED, EXPIRED, CURRENCY_MISMATCH, MINIMUM_SPEND, NO_MATCHING_LINE) and a message. ' +
        'A fixed discount is at most the subtotal (the lines, shipping left out); a percent is of the subtotal, rounded half up to the minor unit, at most `maxDiscount`; ' +
        "free shipping is the cart's `shipping` (0 without); a free product is one unit of its SKU (at its lowest price in the cart). The minimum spend is met by a subtotal equal to it. " +
        'The terms are the reward’s as it was redeemed.',
    },
    useRedemption: {
      method: 'POST',
      path: '/api/v2/redemptions/{id}/use',
      auth: ['apiKey'],
      scope: 'rewards:redeem',
      summary: 'Use a redemption on an order',
      idempotent: true,
      params: byId,
      body: useRedemptionBody,
      responses: { 200: dataOf(redemptionSchema), 410: errorBody },
      description:
        'Marks the redemption `used` on the order (`externalOrderId`, your id) and redeems its code, in one transaction, once: the same order again answers it as it is; ' +
        'another order is 409 REDEMPTION_USED, a voided redemption 409 REDEMPTION_VOIDED, an expired code 410 COUPON_EXPIRED. A refund of the order leaves it used (docs: Rewards, At checkout).',
    },
    listMyRewards: {
      method: 'GET',
      path: '/api/consumer/rewards',
      auth: ['consumer'],
      summary: 'The rewards the signed-in member may redeem now',
      query: pageQuery,
      responses: { 200: pageOf(memberRewardSchema), 410: errorBody },
      description:
        'Workspace and member come from the member portal session. Active rewards in their window, for the member’s tier, with stock and the member’s per-member limit left, newest first, ' +
        'each with `affordable` (the balance covers `pointsCost`). A page may hold fewer than `limit`: `nextCursor` says whether more follow.',
    },
    redeemMyReward: {
      method: 'POST',
      path: '/api/consumer/rewards/{id}/redemptions',
      auth: ['consumer'],
      summary: 'Redeem a reward for the signed-in member',
      idempotent: true,
      params: byId,
      responses: { 201: dataOf(redemptionSchema), 410: errorBody },
      description:
        'As `POST /api/v2/rewards/{id}/redemptions` for the session’s member, with the same transaction and refusals (409 REWARD_*, INSUFFICIENT_POINTS, POOL_*). ' +
        'An `Idempotency-Key` is the member’s own: another member’s request with the same key is a request of its own.',
    },
    listMyRedemptions: {
      method: 'GET',
      path: '/api/consumer/redemptions',
      auth: ['consumer'],
      summary: "The signed-in member's redemptions and codes",
      query: listRedemptionsQuery,
      responses: { 200: pageOf(redemptionSchema), 410: errorBody },
      description: 'The session’s member’s redemptions, newest first, with their codes (`?status=issued|used|voided`).',
    },
  },
});
