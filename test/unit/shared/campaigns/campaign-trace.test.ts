import { describe, expect, it } from 'vitest';
import {
  eligibleCampaigns,
  evaluateCampaigns,
  grantsOf,
  isWeekday,
  normalised,
  traceCampaigns,
  type CampaignFacts,
  type CampaignRule,
  type CampaignUsage,
  type Verdict,
} from '../../../../shared/campaigns/evaluation';

/**
 * The evaluation a grant and a simulation share, as a trace: every campaign the trigger reaches,
 * highest priority first, granted or with the reason it did not.
 */

const campaign = (over: Partial<CampaignRule> = {}): CampaignRule => ({
  campaignId: 'cmp_a',
  name: 'A',
  status: 'active',
  startsAt: null,
  endsAt: null,
  trigger: { type: 'order' },
  conditions: [],
  effect: { type: 'bonus_points', points: 50 },
  limits: { perMember: null, totalPoints: null },
  priority: 0,
  stackable: true,
  ...over,
});
const AT = Date.parse('2026-06-13T12:00:00Z');
const facts = (over: Partial<CampaignFacts> = {}): CampaignFacts => ({
  trigger: 'order',
  at: AT,
  timeZone: 'UTC',
  member: { tier: 'silver', tags: [] },
  order: { total: 80, currency: 'EUR', storeId: null, items: [{ sku: 'A1', brand: 'acme' }], isFirst: false },
  ...over,
});
const none = (): CampaignUsage => ({ memberGrants: 0, totalPoints: 0 });
const outcomes = (v: Verdict[]) => v.map((x) => [x.campaignId, x.outcome]);
const one = (c: CampaignRule, usage: () => CampaignUsage = none, f = facts(), base = 80) => traceCampaigns([c], f, base, usage)[0]!;

describe('campaign trace: why each campaign granted or not', () => {
  it('a grant lists what it gives; a refusal gives nothing and says why', () => {
    expect(one(campaign({ priority: 3 }))).toEqual({
      campaignId: 'cmp_a',
      name: 'A',
      priority: 3,
      stackable: true,
      outcome: 'granted',
      points: 50,
      poolId: null,
      reason: 'A: 50 bonus points',
      condition: null,
    });
    expect(one(campaign({ effect: { type: 'coupon', poolId: 'cpl_1' } }))).toMatchObject({ outcome: 'granted', points: 0, poolId: 'cpl_1' });
    expect(one(campaign({ status: 'paused', effect: { type: 'coupon', poolId: 'cpl_1' } }))).toEqual({
      campaignId: 'cmp_a',
      name: 'A',
      priority: 0,
      stackable: true,
      outcome: 'not_live',
      points: 0,
      poolId: null,
      reason: 'A: the campaign is paused',
      condition: null,
    });
  });

  it('status first, then the order age, then the dates (start inclusive, end exclusive), then the conditions in their order', () => {
    expect(one(campaign({ status: 'draft', startsAt: AT + 1 })).reason).toBe('A: the campaign is draft');
    expect(one(campaign({ status: 'ended' })).outcome).toBe('not_live');
    expect(one(campaign({ startsAt: AT + 1 }), none, facts({ notBefore: AT + 1 })).outcome).toBe('backdated');
    expect(one(campaign(), none, facts({ notBefore: AT + 1 })).reason).toBe('A: the order is older than the program lets campaigns grant');
    expect(one(campaign(), none, facts({ notBefore: AT })).outcome).toBe('granted');
    expect(one(campaign({ startsAt: AT + 1 }))).toMatchObject({ outcome: 'outside_window', reason: 'A: not started at the order time' });
    expect(one(campaign({ startsAt: AT })).outcome).toBe('granted');
    expect(one(campaign({ endsAt: AT }))).toMatchObject({ outcome: 'outside_window', reason: 'A: ended before the order time' });
    expect(one(campaign({ endsAt: AT + 1 })).outcome).toBe('granted');
    const conditions: CampaignRule['conditions'] = [
      { field: 'order.total', op: 'gte', value: 10 },
      { field: 'order.items.brand', op: 'contains', value: 'zeta' },
      { field: 'member.tier', op: 'eq', value: 'gold' },
    ];
    expect(one(campaign({ conditions, endsAt: AT }))).toMatchObject({ outcome: 'outside_window', condition: null });
    expect(one(campaign({ conditions }))).toMatchObject({
      outcome: 'condition_failed',
      points: 0,
      reason: 'A: order.items.brand contains "zeta" does not hold (order.items.brand: ["acme"])',
      condition: { index: 1, field: 'order.items.brand', op: 'contains', value: 'zeta' },
    });
    const storeless = one(campaign({ conditions: [{ field: 'order.storeId', op: 'eq', value: 'sto_1' }] }));
    expect(storeless.reason).toBe('A: order.storeId eq "sto_1" does not hold (order.storeId: nothing)');
  });

  it('limits after stacking: per member, the budget (capped, then spent), the pool, and an effect worth nothing', () => {
    const perMember = campaign({ limits: { perMember: 2, totalPoints: null } });
    expect(one(perMember, () => ({ memberGrants: 1, totalPoints: 0 })).outcome).toBe('granted');
    expect(one(perMember, () => ({ memberGrants: 2, totalPoints: 0 }))).toMatchObject({
      outcome: 'member_limit',
      points: 0,
      reason: 'A: the member has had its 2 grant(s) per member',
    });
    const budget = campaign({ limits: { perMember: null, totalPoints: 100 } });
    expect(one(budget, () => ({ memberGrants: 0, totalPoints: 60 })).points).toBe(40);
    expect(one(budget, () => ({ memberGrants: 0, totalPoints: 99 })).points).toBe(1);
    expect(one(budget, () => ({ memberGrants: 0, totalPoints: 100 }))).toMatchObject({
      outcome: 'budget_spent',
      points: 0,
      reason: 'A: its budget of 100 points is spent',
    });
    expect(one(budget, () => ({ memberGrants: 0, totalPoints: 130 })).outcome).toBe('budget_spent');
    const double = campaign({ effect: { type: 'multiplier', factor: 2 }, limits: { perMember: null, totalPoints: 100 } });
    expect(one(double, none, facts(), 0)).toMatchObject({ outcome: 'nothing_to_grant', reason: 'A: the effect gives no points on this order' });
    expect(one(campaign({ effect: { type: 'multiplier', factor: 1 } })).outcome).toBe('nothing_to_grant');
    const coupon = campaign({ effect: { type: 'coupon', poolId: 'cpl_1' }, limits: { perMember: 1, totalPoints: 10 } });
    expect(one(coupon, () => ({ memberGrants: 0, totalPoints: 10, pool: 'issuing' })).outcome).toBe('granted');
    expect(one(coupon, () => ({ memberGrants: 0, totalPoints: 0, pool: 'empty' }))).toMatchObject({
      outcome: 'pool_empty',
      poolId: null,
      reason: 'A: pool cpl_1 has no stock left',
    });
    expect(one(coupon, () => ({ memberGrants: 0, totalPoints: 0, pool: 'unavailable' }))).toMatchObject({
      outcome: 'pool_unavailable',
      reason: 'A: pool cpl_1 cannot issue to the member now',
    });
    expect(one(coupon, () => ({ memberGrants: 1, totalPoints: 0, pool: 'empty' })).outcome).toBe('member_limit');
    // A points campaign never reads a pool state.
    expect(one(campaign(), () => ({ memberGrants: 0, totalPoints: 0, pool: 'empty' })).outcome).toBe('granted');
  });

  it('a non-stackable campaign applies alone: it stops the rest once it grants, and is skipped after stackable grants', () => {
    const first = campaign({ campaignId: 'cmp_1', name: 'First', priority: 9, stackable: false });
    const second = campaign({ campaignId: 'cmp_2', name: 'Second', priority: 5 });
    const failing = campaign({ campaignId: 'cmp_3', name: 'Third', priority: 1, conditions: [{ field: 'order.total', op: 'gte', value: 1000 }] });
    const stopped = traceCampaigns([failing, second, first], facts(), 80, none);
    expect(outcomes(stopped)).toEqual([
      ['cmp_1', 'granted'],
      ['cmp_2', 'not_stackable'],
      ['cmp_3', 'condition_failed'],
    ]);
    expect(stopped[1]).toMatchObject({ reason: 'Second: First applies alone', points: 0, condition: null });
    // First in line but over its limit: it stops nothing.
    const spent = (id: string) => (id === 'cmp_1' ? { memberGrants: 0, totalPoints: 0, pool: undefined } : none());
    const limitedFirst = { ...first, limits: { perMember: 1, totalPoints: null } };
    expect(outcomes(traceCampaigns([limitedFirst, second], facts(), 80, (id) => ({ ...spent(id), memberGrants: id === 'cmp_1' ? 1 : 0 })))).toEqual([
      ['cmp_1', 'member_limit'],
      ['cmp_2', 'granted'],
    ]);
    const late = campaign({ campaignId: 'cmp_4', name: 'Late', priority: 1, stackable: false });
    const other = campaign({ campaignId: 'cmp_5', name: 'Other', priority: 2 });
    const skipped = traceCampaigns([late, second, other], facts(), 80, none);
    expect(outcomes(skipped)).toEqual([
      ['cmp_2', 'granted'],
      ['cmp_5', 'granted'],
      ['cmp_4', 'not_stackable'],
    ]);
    expect(skipped[2]!.reason).toBe('Late: applies alone, and Second, Other granted first');
    // Stackable campaigns after a skipped non-stackable one still grant.
    const after = campaign({ campaignId: 'cmp_6', name: 'After', priority: 0 });
    expect(outcomes(traceCampaigns([late, other, after], facts(), 80, none))).toEqual([
      ['cmp_5', 'granted'],
      ['cmp_4', 'not_stackable'],
      ['cmp_6', 'granted'],
    ]);
  });

  it('lists only the campaigns of the trigger, by priority then id; the grants are the granted ones in that order', () => {
    const list = [
      campaign({ campaignId: 'cmp_b', priority: 1 }),
      campaign({ campaignId: 'cmp_a', priority: 1 }),
      campaign({ campaignId: 'cmp_z', priority: 7, status: 'draft' }),
      campaign({ campaignId: 'cmp_w', trigger: { type: 'birthday' } }),
      campaign({ campaignId: 'cmp_i', trigger: { type: 'inactivity', days: 30 } }),
    ];
    const trace = traceCampaigns(list, facts(), 80, none);
    expect(trace.map((v) => v.campaignId)).toEqual(['cmp_z', 'cmp_a', 'cmp_b']);
    expect(grantsOf(trace)).toEqual([
      { campaignId: 'cmp_a', points: 50, poolId: null, reason: 'A: 50 bonus points' },
      { campaignId: 'cmp_b', points: 50, poolId: null, reason: 'A: 50 bonus points' },
    ]);
    expect(evaluateCampaigns(list, facts(), 80, none)).toEqual(grantsOf(trace));
    const inactive = facts({ trigger: 'inactivity', order: undefined });
    expect(traceCampaigns(list, inactive, 0, none, 29)).toEqual([]);
    expect(traceCampaigns(list, inactive, 0, none, 30).map((v) => v.campaignId)).toEqual(['cmp_i']);
  });

  it('the campaigns that may grant whatever their limits: what a grant reads the counts and pools of', () => {
    const list = [
      campaign({ campaignId: 'cmp_ok', limits: { perMember: 1, totalPoints: 1 } }),
      campaign({ campaignId: 'cmp_off', status: 'paused' }),
      campaign({ campaignId: 'cmp_old', endsAt: AT }),
      campaign({ campaignId: 'cmp_no', conditions: [{ field: 'member.tier', op: 'eq', value: 'gold' }] }),
      campaign({ campaignId: 'cmp_bd', trigger: { type: 'birthday' } }),
      campaign({ campaignId: 'cmp_top', priority: 4, stackable: false }),
    ];
    expect(eligibleCampaigns(list, facts()).map((c) => c.campaignId)).toEqual(['cmp_top', 'cmp_ok']);
    expect(eligibleCampaigns(list, facts({ notBefore: AT + 1 }))).toEqual([]);
  });
});

describe('day names', () => {
  it('are the seven days in any case; a condition on the weekday is stored in lower case, any other as given', () => {
    for (const d of ['monday', 'Tuesday', 'WEDNESDAY', 'thursday', 'friday', 'saturday', 'sunday']) expect(isWeekday(d)).toBe(true);
    for (const d of ['satruday', 'mon', '', 'weekend']) expect(isWeekday(d)).toBe(false);
    expect(normalised({ field: 'date.weekday', op: 'in', value: ['Saturday', 'SUNDAY'] })).toEqual({
      field: 'date.weekday',
      op: 'in',
      value: ['saturday', 'sunday'],
    });
    expect(normalised({ field: 'date.weekday', op: 'eq', value: 'Friday' })).toEqual({ field: 'date.weekday', op: 'eq', value: 'friday' });
    const tier = { field: 'member.tier', op: 'eq', value: 'Gold' };
    expect(normalised(tier)).toBe(tier);
  });
});
