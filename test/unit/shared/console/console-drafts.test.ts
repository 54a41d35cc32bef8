import { describe, expect, it } from 'vitest';
import {
  bodyOf,
  type Campaign,
  conditionValue,
  campaignSentence,
  copyForm,
  describeCondition,
  describeEffect,
  expiryWith,
  formOf,
  instantOf,
  localInput,
  opFor,
  parseDays,
  valueText,
} from '../../../../shared/console/screens/program/drafts';
import { CONDITION_FIELDS } from '../../../../shared/campaigns/evaluation';

/** The Program screen's forms: text as typed to the bodies the API takes, and back. */

const kindOf = (field: keyof typeof CONDITION_FIELDS) => CONDITION_FIELDS[field];

const stored: Campaign = {
  id: 'cmp_1',
  name: 'Win-back',
  status: 'paused',
  startsAt: '2026-03-01T09:30:00.000Z',
  endsAt: null,
  trigger: { type: 'inactivity', days: 120 },
  conditions: [
    { field: 'member.tier', op: 'in', value: ['silver', 'gold'] },
    { field: 'order.total', op: 'gte', value: 40 },
  ],
  effect: { type: 'multiplier', factor: 1.5 },
  limits: { perMember: 1, totalPoints: null },
  priority: 7,
  stackable: false,
  grants: 3,
  pointsGranted: 90,
  version: 4,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

describe('program rules as typed', () => {
  it('reads warning days as whole numbers in the order typed; anything else is NaN for the API to refuse by name', () => {
    expect(parseDays('30, 7')).toEqual([30, 7]);
    expect(parseDays(' 30 ;7,,  1 ')).toEqual([30, 7, 1]);
    expect(parseDays('')).toEqual([]);
    expect(parseDays('30, 7.5, x, -1')).toEqual([30, Number.NaN, Number.NaN, Number.NaN]);
  });

  it('keeps the typed days when the expiry policy changes, 365 when there were none, and drops them for none', () => {
    expect(expiryWith({ policy: 'none' }, 'fixed_days')).toEqual({ policy: 'fixed_days', days: 365 });
    expect(expiryWith({ policy: 'fixed_days', days: 90 }, 'end_of_month')).toEqual({ policy: 'end_of_month', days: 90 });
    expect(expiryWith({ policy: 'inactivity_days', days: 90 }, 'none')).toEqual({ policy: 'none' });
  });
});

describe('campaign conditions as typed', () => {
  it('reads a value as its field compares it: numbers, true/false, text; a list for `in`', () => {
    expect(conditionValue('number', 'gte', ' 50 ')).toBe(50);
    expect(conditionValue('number', 'eq', '')).toBeNaN();
    expect(conditionValue('number', 'eq', 'abc')).toBeNaN();
    expect(conditionValue('boolean', 'eq', 'true')).toBe(true);
    expect(conditionValue('boolean', 'eq', 'false')).toBe(false);
    expect(conditionValue('boolean', 'eq', 'yes')).toBe('yes');
    expect(conditionValue('string', 'eq', ' EUR ')).toBe('EUR');
    expect(conditionValue('list', 'contains', 'vip')).toBe('vip');
    expect(conditionValue('string', 'in', 'silver, gold,, ')).toEqual(['silver', 'gold']);
    expect(conditionValue('number', 'in', '1,2')).toEqual([1, 2]);
    expect(conditionValue('string', 'in', '')).toEqual([]);
  });

  it('shows a stored value as text, a list comma-separated', () => {
    expect(valueText(['silver', 'gold'])).toBe('silver, gold');
    expect(valueText(40)).toBe('40');
    expect(valueText(false)).toBe('false');
    expect(valueText(undefined)).toBe('');
  });

  it('keeps the operator when the new field takes it, else the first the field takes', () => {
    expect(opFor(['eq', 'neq', 'in'], 'in')).toBe('in');
    expect(opFor(['contains', 'in'], 'gte')).toBe('contains');
  });
});

describe('campaign dates', () => {
  it('shows an instant in the local time of the reader and reads it back; empty is none', () => {
    expect(localInput(null)).toBe('');
    const shown = localInput('2026-03-01T09:30:00.000Z');
    expect(shown).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(instantOf(shown)).toBe('2026-03-01T09:30:00.000Z');
    expect(instantOf('')).toBeNull();
  });
});

describe('the campaign form', () => {
  it('starts a new campaign as a draft order campaign of 50 bonus points, no limits, stackable', () => {
    const f = formOf();
    expect(f).toMatchObject({ name: '', status: 'draft', trigger: 'order', effect: 'bonus_points', points: 50, priority: 0, stackable: true, conditions: [] });
    expect(bodyOf({ ...f, name: 'Welcome' }, kindOf)).toEqual({
      name: 'Welcome',
      status: 'draft',
      startsAt: null,
      endsAt: null,
      trigger: { type: 'order' },
      conditions: [],
      effect: { type: 'bonus_points', points: 50 },
      limits: { perMember: null, totalPoints: null },
      priority: 0,
      stackable: true,
    });
  });

  it('sends a stored campaign back as it was read', () => {
    const f = formOf(stored);
    expect(f.conditions).toEqual([
      { field: 'member.tier', op: 'in', value: 'silver, gold' },
      { field: 'order.total', op: 'gte', value: '40' },
    ]);
    const { grants: _g, pointsGranted: _p, version: _v, createdAt: _c, updatedAt: _u, id: _i, ...definition } = stored;
    expect(bodyOf(f, kindOf)).toEqual(definition);
  });

  it('sends days only with an inactivity trigger, and the fields of the chosen effect only', () => {
    const f = formOf(stored);
    expect(bodyOf({ ...f, trigger: 'birthday' }, kindOf).trigger).toEqual({ type: 'birthday' });
    expect(bodyOf({ ...f, effect: 'bonus_points' }, kindOf).effect).toEqual({ type: 'bonus_points', points: 50 });
    expect(bodyOf({ ...f, effect: 'coupon', poolId: 'cpl_1' }, kindOf).effect).toEqual({ type: 'coupon', poolId: 'cpl_1' });
    expect(bodyOf({ ...f, perMember: Number.NaN, totalPoints: 500 }, kindOf).limits).toEqual({ perMember: null, totalPoints: 500 });
  });

  it('says a campaign in one sentence: effect, trigger, then each condition, tiers by name', () => {
    const tierName = (k: string) => ({ gold: 'Gold', silver: 'Silver' })[k] ?? k;
    const weekend = { field: 'date.weekday', op: 'in', value: ['saturday', 'sunday'] } as const;
    const gold = { field: 'member.tier', op: 'eq', value: 'gold' } as const;
    expect(campaignSentence({ trigger: { type: 'order' }, effect: { type: 'multiplier', factor: 2 }, conditions: [weekend, gold] }, tierName)).toBe(
      '2× points on orders on Saturday or Sunday for Gold members',
    );
    expect(campaignSentence({ trigger: { type: 'inactivity', days: 90 }, effect: { type: 'bonus_points', points: 25 }, conditions: [] }, tierName)).toBe(
      '25 bonus points after 90 days without activity',
    );
    expect(campaignSentence({ trigger: { type: 'member_created' }, effect: { type: 'coupon', poolId: 'cpl_9' }, conditions: [] }, tierName)).toBe(
      'A coupon of cpl_9 on joining',
    );
    expect(campaignSentence({ trigger: { type: 'birthday' }, effect: { type: 'bonus_points', points: 5 } } as Campaign, tierName)).toBe(
      '5 bonus points on the member’s birthday',
    );
    expect(campaignSentence({ trigger: { type: 'tag_added' }, effect: { type: 'bonus_points', points: 5 }, conditions: [] }, tierName)).toBe(
      '5 bonus points when a tag is added',
    );
  });

  it('says each kind of condition in words', () => {
    const tierName = (k: string) => ({ gold: 'Gold', silver: 'Silver' })[k] ?? k;
    const say = (field: string, op: string, value: unknown) => describeCondition({ field, op, value }, tierName);
    expect(say('member.tier', 'in', ['gold', 'silver'])).toBe('for Gold or Silver members');
    expect(say('member.tier', 'neq', 'gold')).toBe('for members not in Gold');
    expect(say('member.tier', 'eq', 'platinum')).toBe('for platinum members');
    expect(say('member.tags', 'contains', 'vip')).toBe('for members tagged vip');
    expect(say('date.weekday', 'eq', 'friday')).toBe('on Friday');
    expect(say('date.weekday', 'in', ['monday', 'tuesday', 'wednesday'])).toBe('on Monday, Tuesday or Wednesday');
    expect(say('date.weekday', 'neq', 'sunday')).toBe('except on Sunday');
    expect(say('order.total', 'gte', 50)).toBe('with a total of at least 50');
    expect(say('order.total', 'lte', 10)).toBe('with a total of at most 10');
    expect(say('order.total', 'eq', 20)).toBe('with a total of exactly 20');
    expect(say('order.total', 'neq', 20)).toBe('with a total of other than 20');
    expect(say('order.total', 'in', [5, 10])).toBe('with a total of one of 5, 10');
    expect(say('order.isFirst', 'eq', true)).toBe('on a first order');
    expect(say('order.isFirst', 'neq', false)).toBe('on a first order');
    expect(say('order.isFirst', 'eq', false)).toBe('on a repeat order');
    expect(say('order.isFirst', 'neq', true)).toBe('on a repeat order');
    expect(say('order.currency', 'eq', 'EUR')).toBe('in EUR');
    expect(say('order.currency', 'neq', 'EUR')).toBe('not in EUR');
    expect(say('order.storeId', 'in', ['sto_1', 'sto_2'])).toBe('at store sto_1 or sto_2');
    expect(say('order.storeId', 'neq', 'sto_1')).toBe('not at store sto_1');
    expect(say('order.items.sku', 'contains', 'SKU-1')).toBe('with item SKU-1');
    expect(say('order.items.category', 'in', ['shoes', 'bags'])).toBe('with an item in shoes or bags');
    expect(say('order.items.brand', 'contains', 'acme')).toBe('with an item of acme');
    expect(say('order.other', 'eq', 1)).toBe('where order.other eq 1');
  });

  it('a duplicate starts as a draft named as a copy, with everything else of the original', () => {
    const copy = copyForm({ ...stored, status: 'active' } as Campaign);
    expect(copy).toEqual({ ...formOf(stored), name: `Copy of ${stored.name}`, status: 'draft' });
  });

  it('describes effects for the list', () => {
    expect(describeEffect({ type: 'bonus_points', points: 25 })).toBe('25 bonus points');
    expect(describeEffect({ type: 'multiplier', factor: 2 })).toBe('points × 2');
    expect(describeEffect({ type: 'coupon', poolId: 'cpl_9' })).toBe('a coupon of cpl_9');
  });
});
