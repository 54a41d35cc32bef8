/**
 * The door of the rewards area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { useRedemption, validateRedemption } from './checkout';
export { rewardsArea } from './contract';
export { listMemberRewards } from './member-rewards';
export { listMemberRedemptions, redeemReward, voidExpiredRedemptions, voidRedemption } from './redemptions';
export { createRewardBody, listRewardsQuery, redemptionSchema, rewardSchema, updateRewardBody } from './schemas';
export { createReward, getReward, listRewards, updateReward } from './service';
