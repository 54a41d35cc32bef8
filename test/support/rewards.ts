import { expect } from 'vitest';
import { call } from './api';
import { newMember, type Tenant } from './fixtures';

/** Rewards, their coupon pools and members with points, over HTTP: what the rewards' e2e files share. */

export const createReward = (t: Tenant, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call('POST', '/api/v2/rewards', { token: t.key, body, headers });
export const redeem = (t: Tenant, rewardId: string, memberId: string, headers?: Record<string, string>) =>
  call('POST', `/api/v2/rewards/${rewardId}/redemptions`, { token: t.key, body: { memberId }, headers });

export const fiveOff = (over: Record<string, unknown> = {}) => ({
  name: '5 € off',
  pointsCost: 100,
  benefit: { type: 'fixed_discount', amount: 500, currency: 'EUR' },
  status: 'active',
  ...over,
});

export async function newReward(t: Tenant, over: Record<string, unknown> = {}): Promise<any> {
  const res = await createReward(t, fiveOff(over));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function newPool(t: Tenant, stock = 100, over: Record<string, unknown> = {}): Promise<any> {
  const res = await call('POST', '/api/v2/coupons/pools', {
    token: t.key,
    body: { name: 'Reward codes', discount: { type: 'fixed', amount: 5, currency: 'EUR' }, codeConfig: { mode: 'generated', prefix: 'RW-' }, stock, ...over },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function memberWith(t: Tenant, points: number, body: Record<string, unknown> = {}): Promise<any> {
  const m = await newMember(t.key, body);
  if (points > 0) {
    const res = await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: points, reason: 'start' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  return m;
}

/** A redemption of the reward by the member, as answered (201). */
export async function redeemed(t: Tenant, rewardId: string, memberId: string): Promise<any> {
  const res = await redeem(t, rewardId, memberId);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}
