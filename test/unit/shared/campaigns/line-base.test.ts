import { describe, expect, it } from 'vitest';
import { campaignBase, lineHolds, type LinePoints } from '../../../../shared/campaigns/line-base';
import { evaluateCampaigns, type CampaignFacts, type CampaignRule } from '../../../../shared/campaigns/evaluation';

const shoe = { sku: 'SHOE-1', category: 'shoes', brand: 'Acme' };
const sock = { sku: 'SOCK-1', category: 'socks', brand: 'Other' };
const lines = [
  { ...shoe, points: 80 },
  { ...sock, points: 20 },
];
/** Points of the picked lines, as an order with priced lines answers. */
const linePoints: LinePoints = (matches) => lines.filter(matches).reduce((s, l) => s + l.points, 0);

describe('an item condition on one line', () => {
  it('contains: the line has that value', () => {
    expect(lineHolds({ field: 'order.items.category', op: 'contains', value: 'shoes' }, shoe)).toBe(true);
    expect(lineHolds({ field: 'order.items.category', op: 'contains', value: 'shoes' }, sock)).toBe(false);
    expect(lineHolds({ field: 'order.items.sku', op: 'contains', value: 'SOCK-1' }, sock)).toBe(true);
    expect(lineHolds({ field: 'order.items.brand', op: 'contains', value: 'Acme' }, shoe)).toBe(true);
    expect(lineHolds({ field: 'order.items.brand', op: 'contains', value: 'Acme' }, sock)).toBe(false);
  });

  it('in: the line has one of the values', () => {
    expect(lineHolds({ field: 'order.items.brand', op: 'in', value: ['Other', 'Acme'] }, shoe)).toBe(true);
    expect(lineHolds({ field: 'order.items.brand', op: 'in', value: ['Other'] }, shoe)).toBe(false);
    expect(lineHolds({ field: 'order.items.brand', op: 'in', value: 'Acme' }, shoe)).toBe(false); // `in` takes a list
  });

  it('a line without the field never matches; any other operator never holds', () => {
    expect(lineHolds({ field: 'order.items.brand', op: 'contains', value: 'Acme' }, { sku: 'X' })).toBe(false);
    expect(lineHolds({ field: 'order.items.brand', op: 'in', value: ['Acme'] }, {})).toBe(false);
    expect(lineHolds({ field: 'order.items.sku', op: 'eq', value: 'SHOE-1' }, shoe)).toBe(false);
  });

  it('a condition on something else than items holds on every line', () => {
    expect(lineHolds({ field: 'order.total', op: 'gte', value: 1000 }, shoe)).toBe(true);
  });
});

describe("a campaign's base", () => {
  const onShoes = [{ field: 'order.items.category', op: 'contains', value: 'shoes' }];
  it('the points of the lines every item condition picks', () => {
    expect(campaignBase(onShoes, 100, linePoints)).toBe(80);
    expect(campaignBase([...onShoes, { field: 'order.items.brand', op: 'contains', value: 'Other' }], 100, linePoints)).toBe(0);
    expect(campaignBase([{ field: 'order.items.brand', op: 'in', value: ['Acme', 'Other'] }], 100, linePoints)).toBe(100);
    expect(campaignBase([{ field: 'member.tier', op: 'eq', value: 'gold' }, ...onShoes], 100, linePoints)).toBe(80);
  });

  it('never more than the order holds (a capped order)', () => {
    expect(campaignBase(onShoes, 30, linePoints)).toBe(30);
    expect(campaignBase(onShoes, 80, linePoints)).toBe(80);
  });

  it("the order's points without item conditions, without line prices, or with a matching line unpriced", () => {
    expect(campaignBase([{ field: 'order.total', op: 'gte', value: 1 }], 100, linePoints)).toBe(100);
    expect(campaignBase([], 100, linePoints)).toBe(100);
    expect(campaignBase(onShoes, 100, undefined)).toBe(100);
    expect(campaignBase(onShoes, 100, () => undefined)).toBe(100);
  });
});

describe('the evaluation rewards the matching lines', () => {
  const facts: CampaignFacts = {
    trigger: 'order',
    at: Date.parse('2026-06-13T12:00:00Z'),
    timeZone: 'UTC',
    member: { tier: 'bronze', tags: [] },
    order: { total: 100, currency: 'EUR', storeId: null, items: [shoe, sock], isFirst: false, linePoints },
  };
  const doubleShoes: CampaignRule = {
    campaignId: 'cmp_shoes',
    name: 'Double shoes',
    status: 'active',
    startsAt: null,
    endsAt: null,
    trigger: { type: 'order' },
    conditions: [{ field: 'order.items.category', op: 'contains', value: 'shoes' }],
    effect: { type: 'multiplier', factor: 2 },
    limits: { perMember: null, totalPoints: null },
    priority: 0,
    stackable: true,
  };
  const none = () => ({ memberGrants: 0, totalPoints: 0 });

  it('2x on shoes doubles what the shoes earn, not the basket', () => {
    expect(evaluateCampaigns([doubleShoes], facts, 100, none).map((g) => g.points)).toEqual([80]);
    const { linePoints: _l, ...basketOnly } = facts.order!;
    expect(evaluateCampaigns([doubleShoes], { ...facts, order: basketOnly }, 100, none).map((g) => g.points)).toEqual([100]);
  });

  it('a fixed bonus stays what it says, whatever the lines', () => {
    const bonus = { ...doubleShoes, effect: { type: 'bonus_points' as const, points: 25 } };
    expect(evaluateCampaigns([bonus], facts, 100, none).map((g) => g.points)).toEqual([25]);
  });
});

describe('campaignBase and lineHolds at their edges', () => {
  const seven: LinePoints = () => 7;
  it('a campaign without item conditions rewards the order, whatever its lines earn', () => {
    expect(campaignBase([], 100, seven)).toBe(100);
    expect(campaignBase([{ field: 'member.tier', op: 'eq', value: 'gold' }], 100, seven)).toBe(100);
  });
  it('an `in` condition holds only for a listed value; another operator on a line field never holds', () => {
    expect(lineHolds({ field: 'order.items.brand', op: 'in', value: ['Other'] }, shoe)).toBe(false);
    expect(lineHolds({ field: 'order.items.brand', op: 'in', value: ['Acme'] }, shoe)).toBe(true);
    expect(lineHolds({ field: 'order.items.brand', op: 'eq', value: 'Acme' }, shoe)).toBe(false);
  });
});
