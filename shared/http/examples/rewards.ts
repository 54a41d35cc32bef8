import type { rewardsArea } from '../../rewards';
import type { AreaExamples } from './types';
import { ids, redemption, reward, usedRedemption, voidedRedemption } from './world';

export const rewardsExamples: AreaExamples<typeof rewardsArea> = {
  listRewards: {
    summary: 'The rewards members can redeem now',
    query: { status: 'active', limit: 50 },
    responses: { 200: { data: [reward], nextCursor: null } },
  },
  createReward: {
    summary: '5 € off for 500 points, codes from the members pool, 200 in stock, two per member',
    request: {
      name: reward.name,
      description: reward.description,
      imageUrl: reward.imageUrl,
      pointsCost: 500,
      benefit: { type: 'fixed_discount', amount: 500, currency: 'EUR' },
      minimumSpend: { amount: 2500, currency: 'EUR' },
      validityDays: 30,
      stock: 200,
      perMemberLimit: 2,
      availableFrom: '2026-03-01T00:00:00Z',
      couponPoolId: ids.pool,
      status: 'active',
    },
    responses: { 201: { data: { ...reward, remaining: 200, version: 1, updatedAt: reward.createdAt } } },
  },
  getReward: { params: { id: ids.reward }, responses: { 200: { data: reward } } },
  updateReward: {
    summary: 'Pause the reward, only if nobody changed it since version 2',
    params: { id: ids.reward },
    request: { status: 'paused', version: 2 },
    responses: { 200: { data: { ...reward, status: 'paused', version: 3, updatedAt: '2026-03-20T10:05:00.000Z' } } },
  },
  redeemReward: {
    summary: 'Ada spends 500 points on the reward and gets her code',
    params: { id: ids.reward },
    request: { memberId: ids.member },
    responses: { 201: { data: redemption } },
  },
  listMemberRedemptions: { params: { id: ids.member }, query: { limit: 50 }, responses: { 200: { data: [redemption], nextCursor: null } } },
  voidRedemption: {
    summary: 'Take back an unused redemption: the 500 points return',
    params: { id: ids.redemption },
    responses: { 200: { data: voidedRedemption } },
  },
  listMemberRedemptionsInConsole: { params: { id: ids.member }, query: { limit: 10 }, responses: { 200: { data: [redemption], nextCursor: null } } },
  voidRedemptionInConsole: {
    summary: 'Support takes back an unused redemption from the member screen',
    params: { id: ids.redemption },
    responses: { 200: { data: voidedRedemption } },
  },
  validateRedemption: {
    summary: "Ada's code on a 32.49 € cart: 5 € off",
    request: {
      code: 'LOYAL-3WQ8J2NB',
      memberId: ids.member,
      cart: {
        currency: 'EUR',
        lines: [
          { sku: 'MUG-BLK', category: 'kitchen', quantity: 2, unitPrice: 1250 },
          { sku: 'TEA-EARL', quantity: 1, unitPrice: 749 },
        ],
        shipping: 495,
      },
    },
    responses: {
      200: {
        data: {
          applies: true,
          discount: { amount: 500, currency: 'EUR' },
          redemptionId: ids.redemption,
          rewardId: ids.reward,
          benefit: reward.benefit,
        },
      },
    },
  },
  useRedemption: {
    summary: 'The order WEB-100391 used the code',
    params: { id: ids.redemption },
    request: { externalOrderId: 'WEB-100391' },
    responses: { 200: { data: usedRedemption } },
  },
  listMyRewards: {
    summary: 'What Ada may redeem now, from the shop’s member page',
    query: { limit: 20 },
    responses: {
      200: {
        data: [
          {
            id: reward.id,
            name: reward.name,
            description: reward.description,
            imageUrl: reward.imageUrl,
            pointsCost: reward.pointsCost,
            benefit: reward.benefit,
            minimumSpend: reward.minimumSpend,
            validityDays: reward.validityDays,
            availableUntil: reward.availableUntil,
            affordable: true,
          },
        ],
        nextCursor: null,
      },
    },
  },
  redeemMyReward: {
    summary: 'Ada redeems the reward herself and gets her code',
    params: { id: ids.reward },
    responses: { 201: { data: redemption } },
  },
  listMyRedemptions: { query: { limit: 20 }, responses: { 200: { data: [usedRedemption], nextCursor: null } } },
};
