import { describe, expect, it } from 'vitest';
import { createCampaignBody, updateCampaignBody } from '../../../../shared/campaigns/schemas';
import { installValidationMessages } from '../../../../shared/platform/validation/validation-messages';

// The messages the API answers with (installed by the request validation), whatever ran before.
installValidationMessages();

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

const base = { name: 'Double weekend', trigger: { type: 'order' }, effect: { type: 'multiplier', factor: 2 } };

describe('campaign validation', () => {
  it('fills the defaults of a minimal campaign', () => {
    expect(createCampaignBody.parse(base)).toEqual({
      ...base,
      status: 'draft',
      startsAt: null,
      endsAt: null,
      conditions: [],
      limits: { perMember: null, totalPoints: null },
      priority: 0,
      stackable: true,
    });
  });

  it('accepts every field with an operator that fits it', () => {
    const conditions = [
      { field: 'order.total', op: 'gte', value: 50 },
      { field: 'order.total', op: 'in', value: [10, 20] },
      { field: 'order.currency', op: 'eq', value: 'EUR' },
      { field: 'order.storeId', op: 'neq', value: 'sto_1' },
      { field: 'order.items.sku', op: 'contains', value: 'A1' },
      { field: 'order.items.category', op: 'in', value: ['shoes', 'bags'] },
      { field: 'order.items.brand', op: 'contains', value: 'acme' },
      { field: 'order.isFirst', op: 'eq', value: true },
      { field: 'member.tier', op: 'in', value: ['gold'] },
      { field: 'member.tags', op: 'contains', value: 'vip' },
      { field: 'date.weekday', op: 'in', value: ['saturday', 'sunday'] },
    ];
    expect(paths(createCampaignBody.safeParse({ ...base, conditions }))).toEqual([]);
  });

  it('refuses with one detail per field', () => {
    const r = createCampaignBody.safeParse({
      name: '',
      trigger: { type: 'inactivity' },
      effect: { type: 'multiplier', factor: 101 },
      conditions: [
        { field: 'order.colour', op: 'eq', value: 'red' },
        { field: 'order.total', op: 'contains', value: 5 },
        { field: 'order.total', op: 'gte', value: 'fifty' },
        { field: 'member.tier', op: 'in', value: 'gold' },
        { field: 'member.tier', op: 'eq', value: ['gold'] },
        { field: 'order.isFirst', op: 'gte', value: true },
      ],
    });
    expect(paths(r)).toEqual([
      'name: must not be empty',
      'trigger.days: an inactivity trigger needs days (1-3650)',
      'conditions.0.field: must be one of: order.total, order.currency, order.storeId, order.items.sku, order.items.category, order.items.brand, order.isFirst, member.tier, member.tags, date.weekday',
      'conditions.1.op: order.total takes eq, neq, gte, lte, in',
      'conditions.2.value: order.total compares with a number',
      'conditions.3.value: `in` takes a list of values',
      'conditions.4.value: `eq` takes one value',
      'conditions.5.op: order.isFirst takes eq, neq',
      'effect.factor: must be at most 100',
    ]);
  });

  it('bounds days, factors, points and dates', () => {
    const bad = (over: object) => paths(createCampaignBody.safeParse({ ...base, ...over }));
    expect(bad({ trigger: { type: 'inactivity', days: 0 } })).toEqual(['trigger.days: must be at least 1']);
    expect(bad({ trigger: { type: 'inactivity', days: 3651 } })).toEqual(['trigger.days: must be at most 3650']);
    expect(bad({ trigger: { type: 'inactivity', days: 3650 } })).toEqual([]);
    expect(bad({ trigger: { type: 'order', days: 3 } })).toEqual(['trigger.days: only an inactivity trigger takes days']);
    expect(bad({ effect: { type: 'multiplier', factor: 0 } })).toEqual(['effect.factor: must be greater than 0']);
    expect(bad({ effect: { type: 'multiplier', factor: 100 } })).toEqual([]);
    expect(bad({ effect: { type: 'multiplier', factor: 1.255 } })).toEqual(['effect.factor: at most 2 decimals']);
    expect(bad({ effect: { type: 'bonus_points', points: 0 } })).toEqual(['effect.points: must be at least 1']);
    expect(bad({ effect: { type: 'coupon' } })).toHaveLength(1);
    expect(bad({ startsAt: '2026-02-01T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' })).toEqual(['endsAt: must be after startsAt']);
    expect(bad({ startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' })).toEqual(['endsAt: must be after startsAt']);
    expect(bad({ startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-01T00:00:01Z' })).toEqual([]);
    expect(bad({ conditions: Array.from({ length: 21 }, () => ({ field: 'order.total', op: 'gte', value: 1 })) })).toEqual([
      'conditions: must be at most 20 items',
    ]);
    expect(bad({ limits: { perMember: 0 } })).toEqual(['limits.perMember: must be at least 1']);
    expect(bad({ extra: 1 })).toHaveLength(1);
  });

  it('date.weekday takes day names in any case; a misspelt day is refused naming the condition value', () => {
    const on = (value: unknown, op = 'in') => paths(createCampaignBody.safeParse({ ...base, conditions: [{ field: 'date.weekday', op, value }] }));
    expect(on(['Saturday', 'SUNDAY', 'monday'])).toEqual([]);
    expect(on('Friday', 'eq')).toEqual([]);
    expect(on(['saturday', 'satruday'])).toEqual([
      'conditions.0.value: satruday is not a day of the week (monday, tuesday, wednesday, thursday, friday, saturday, sunday)',
    ]);
    expect(on('weekend', 'neq')).toEqual([
      'conditions.0.value: weekend is not a day of the week (monday, tuesday, wednesday, thursday, friday, saturday, sunday)',
    ]);
    expect(paths(updateCampaignBody.safeParse({ conditions: [{ field: 'date.weekday', op: 'eq', value: 'fri' }] }))).toHaveLength(1);
    // Other string fields take any value.
    expect(paths(createCampaignBody.safeParse({ ...base, conditions: [{ field: 'order.currency', op: 'eq', value: 'satruday' }] }))).toEqual([]);
  });

  it('a change names only what it changes, validated the same way', () => {
    expect(paths(updateCampaignBody.safeParse({ status: 'active' }))).toEqual([]);
    expect(paths(updateCampaignBody.safeParse({ status: 'running' }))).toHaveLength(1);
    expect(paths(updateCampaignBody.safeParse({ startsAt: '2026-02-01T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' }))).toEqual([
      'endsAt: must be after startsAt',
    ]);
  });
});
