import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../shared/program/calendar';
import {
  evaluateCampaigns,
  fieldValue,
  holds,
  inactiveDaysAt,
  isLive,
  multiplierPoints,
  type CampaignFacts,
  type CampaignRule,
} from '../../../../shared/campaigns/evaluation';
import { decideTier, metricInWindow, windowStart, type TierPolicy, type TierState } from '../../../../shared/program/tier-rules';

const LEVELS = [
  { key: 'bronze', name: 'Bronze', threshold: 0 },
  { key: 'silver', name: 'Silver', threshold: 500 },
  { key: 'gold', name: 'Gold', threshold: 2000 },
];
const NOW = Date.parse('2026-06-10T12:00:00Z');

describe('tier windows', () => {
  it('lifetime counts everything; rolling counts the last 365 days; calendar the local year', () => {
    expect(windowStart('lifetime', NOW, 'UTC')).toBeNull();
    expect(windowStart('rolling_365_days', NOW, 'UTC')).toBe(NOW - 365 * DAY_MS);
    expect(new Date(windowStart('calendar_year', NOW, 'Europe/Berlin')!).toISOString()).toBe('2025-12-31T23:00:00.000Z');
    const c = [
      { at: NOW - 400 * DAY_MS, value: 100 },
      { at: NOW - 365 * DAY_MS, value: 10 },
      { at: Date.parse('2026-01-01T00:30:00+01:00'), value: 20 },
      { at: Date.parse('2025-12-31T23:30:00+01:00'), value: 40 },
      { at: NOW + 1, value: 1000 },
    ];
    expect(metricInWindow(c, 'lifetime', NOW, 'UTC')).toBe(170);
    expect(metricInWindow(c, 'rolling_365_days', NOW, 'UTC')).toBe(70);
    expect(metricInWindow(c, 'calendar_year', NOW, 'Europe/Berlin')).toBe(20);
    // What happens at the very moment counts; a millisecond later does not.
    expect(
      metricInWindow(
        [
          { at: NOW, value: 5 },
          { at: NOW + 1, value: 7 },
        ],
        'lifetime',
        NOW,
        'UTC',
      ),
    ).toBe(5);
  });
});

describe('tier decisions', () => {
  const policy = (downgrade: TierPolicy['downgrade'], retainDays = 30): TierPolicy => ({ window: 'rolling_365_days', retainDays, downgrade });
  const gold: TierState = { tier: 'gold', reachedAt: NOW - 10 * DAY_MS, retainedUntil: NOW + 20 * DAY_MS };

  it('goes up at once, with a fresh retention', () => {
    expect(decideTier({ tier: 'bronze', reachedAt: 0, retainedUntil: 0 }, 2500, LEVELS, policy('one_level'), NOW)).toEqual({
      tier: 'gold',
      reachedAt: NOW,
      retainedUntil: NOW + 30 * DAY_MS,
      change: 'upgraded',
    });
  });

  it('keeps a tier while it qualifies or its retention runs, then steps down as the policy says', () => {
    expect(decideTier(gold, 2000, LEVELS, policy('one_level'), NOW + 40 * DAY_MS)).toEqual({ ...gold, change: null });
    expect(decideTier(gold, 0, LEVELS, policy('one_level'), NOW)).toEqual({ ...gold, change: null });
    expect(decideTier(gold, 0, LEVELS, policy('one_level'), gold.retainedUntil - 1)).toEqual({ ...gold, change: null });
    const at = gold.retainedUntil;
    expect(decideTier(gold, 0, LEVELS, policy('one_level'), at)).toEqual({
      tier: 'silver',
      reachedAt: at,
      retainedUntil: at + 30 * DAY_MS,
      change: 'downgraded',
    });
    expect(decideTier(gold, 0, LEVELS, policy('to_qualified'), at)).toEqual({
      tier: 'bronze',
      reachedAt: at,
      retainedUntil: at + 30 * DAY_MS,
      change: 'downgraded',
    });
    expect(decideTier(gold, 600, LEVELS, policy('to_qualified', 0), at).tier).toBe('silver');
    // An unknown stored tier (levels changed) counts as the first level.
    expect(decideTier({ tier: 'ruby', reachedAt: 0, retainedUntil: 0 }, 0, LEVELS, policy('one_level'), NOW)).toEqual({
      tier: 'bronze',
      reachedAt: 0,
      retainedUntil: 0,
      change: null,
    });
  });

  it('never drops before the retention ends, never below the first level, and always up to the qualified tier', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.integer({ min: 0, max: 60 * DAY_MS }), metric: fc.integer({ min: 0, max: 3000 }) }), { maxLength: 25 }),
        fc.constantFrom('one_level' as const, 'to_qualified' as const),
        fc.integer({ min: 0, max: 90 }),
        (steps, downgrade, retainDays) => {
          let state: TierState = { tier: 'bronze', reachedAt: 0, retainedUntil: 0 };
          let now = NOW;
          for (const s of steps) {
            now += s.dt;
            const next = decideTier(state, s.metric, LEVELS, { window: 'lifetime', retainDays, downgrade }, now);
            const idx = (k: string) => LEVELS.findIndex((l) => l.key === k);
            if (idx(next.tier) < idx(state.tier)) {
              expect(now).toBeGreaterThanOrEqual(state.retainedUntil);
              expect(next.change).toBe('downgraded');
            }
            const qualified = LEVELS.filter((l) => s.metric >= l.threshold).length - 1;
            expect(idx(next.tier)).toBeGreaterThanOrEqual(Math.min(qualified, idx(state.tier)));
            expect(idx(next.tier)).toBeGreaterThanOrEqual(0);
            state = next;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

const campaign = (over: Partial<CampaignRule> = {}): CampaignRule => ({
  campaignId: 'cmp_a',
  name: 'Double weekend',
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
// 2026-06-13 is a Saturday (in Berlin too at noon UTC).
const facts = (over: Partial<CampaignFacts> = {}): CampaignFacts => ({
  trigger: 'order',
  at: Date.parse('2026-06-13T12:00:00Z'),
  timeZone: 'Europe/Berlin',
  member: { tier: 'silver', tags: ['vip', 'newsletter'] },
  order: {
    total: 80.5,
    currency: 'EUR',
    storeId: 'sto_1',
    items: [
      { sku: 'A1', category: 'shoes' },
      { sku: 'B2', brand: 'acme' },
    ],
    isFirst: true,
  },
  ...over,
});
const none = () => ({ memberGrants: 0, totalPoints: 0 });

describe('campaign conditions', () => {
  it('reads every field from the facts', () => {
    const f = facts();
    expect(fieldValue('order.total', f)).toBe(80.5);
    expect(fieldValue('order.currency', f)).toBe('EUR');
    expect(fieldValue('order.storeId', f)).toBe('sto_1');
    expect(fieldValue('order.items.sku', f)).toEqual(['A1', 'B2']);
    expect(fieldValue('order.items.category', f)).toEqual(['shoes']);
    expect(fieldValue('order.items.brand', f)).toEqual(['acme']);
    expect(fieldValue('order.isFirst', f)).toBe(true);
    expect(fieldValue('member.tier', f)).toBe('silver');
    expect(fieldValue('member.tags', f)).toEqual(['vip', 'newsletter']);
    expect(fieldValue('date.weekday', f)).toBe('saturday');
    expect(fieldValue('date.weekday', facts({ at: Date.parse('2026-06-13T22:30:00Z') }))).toBe('sunday');
    expect(fieldValue('order.total', facts({ order: undefined }))).toBeUndefined();
    expect(fieldValue('order.storeId', facts({ order: { ...f.order!, storeId: null } }))).toBeUndefined();
  });

  it('applies each operator', () => {
    const f = facts();
    const t = (field: any, op: any, value: any) => holds({ field, op, value }, f);
    expect(t('order.total', 'gte', 80.5)).toBe(true);
    expect(t('order.total', 'gte', 80.51)).toBe(false);
    expect(t('order.total', 'lte', 80.5)).toBe(true);
    expect(t('order.total', 'lte', 80.49)).toBe(false);
    expect(t('order.total', 'gte', '80')).toBe(false);
    expect(t('order.total', 'lte', '90')).toBe(false);
    expect(t('order.currency', 'eq', 'EUR')).toBe(true);
    expect(t('order.currency', 'eq', 'USD')).toBe(false);
    expect(t('order.currency', 'neq', 'USD')).toBe(true);
    expect(t('order.currency', 'neq', 'EUR')).toBe(false);
    expect(t('order.currency', 'in', ['USD', 'EUR'])).toBe(true);
    expect(t('order.currency', 'in', ['USD'])).toBe(false);
    expect(t('order.currency', 'contains', 'EUR')).toBe(false);
    expect(t('order.isFirst', 'eq', true)).toBe(true);
    expect(t('order.items.sku', 'contains', 'B2')).toBe(true);
    expect(t('order.items.sku', 'contains', 'C3')).toBe(false);
    expect(t('order.items.sku', 'in', ['C3', 'A1'])).toBe(true);
    expect(t('order.items.sku', 'in', ['C3'])).toBe(false);
    expect(t('order.items.sku', 'eq', 'A1')).toBe(false);
    expect(t('member.tags', 'contains', 'vip')).toBe(true);
    expect(t('member.tier', 'in', ['gold', 'silver'])).toBe(true);
    expect(t('date.weekday', 'in', ['saturday', 'sunday'])).toBe(true);
    expect(holds({ field: 'order.total', op: 'gte', value: 0 }, facts({ trigger: 'birthday', order: undefined }))).toBe(false);
    expect(holds({ field: 'order.currency', op: 'neq', value: 'X' }, facts({ order: undefined }))).toBe(false);
  });

  it('compares only numbers by size, on both sides of the bound, and reads one value given to `in` as a list of one', () => {
    const f = facts();
    const t = (field: any, op: any, value: any, on = f) => holds({ field, op, value }, on);
    expect(t('order.total', 'lte', 100)).toBe(true);
    expect(t('order.total', 'gte', 10)).toBe(true);
    // true >= 1 and false <= 0 hold in JavaScript; a yes/no field is not a number.
    expect(t('order.isFirst', 'gte', 1)).toBe(false);
    expect(t('order.isFirst', 'lte', 0, facts({ order: { ...f.order!, isFirst: false } }))).toBe(false);
    expect(t('member.tier', 'in', 'silver')).toBe(true);
    expect(t('member.tier', 'in', 'gold')).toBe(false);
    expect(t('order.items.sku', 'in', 'B2')).toBe(true);
    expect(t('order.items.sku', 'in', 'C3')).toBe(false);
  });
});

describe('campaign evaluation', () => {
  it('grants bonus points, multipliers and coupons, highest priority first', () => {
    const grants = evaluateCampaigns(
      [
        campaign({ campaignId: 'cmp_b', name: 'Bonus', priority: 1 }),
        campaign({ campaignId: 'cmp_m', name: 'Double', effect: { type: 'multiplier', factor: 2 }, priority: 5 }),
        campaign({ campaignId: 'cmp_c', name: 'Gift', effect: { type: 'coupon', poolId: 'pool_1' }, priority: 1 }),
      ],
      facts(),
      80,
      none,
    );
    expect(grants).toEqual([
      { campaignId: 'cmp_m', points: 80, poolId: null, reason: "Double: 2x the order's points (+80)" },
      { campaignId: 'cmp_b', points: 50, poolId: null, reason: 'Bonus: 50 bonus points' },
      { campaignId: 'cmp_c', points: 0, poolId: 'pool_1', reason: 'Gift: a coupon from pool pool_1' },
    ]);
  });

  it('skips campaigns that are not live, listen to another trigger, or whose conditions fail', () => {
    const at = facts().at;
    const skipped = [
      campaign({ status: 'draft' }),
      campaign({ status: 'paused' }),
      campaign({ status: 'ended' }),
      campaign({ startsAt: at + 1 }),
      campaign({ endsAt: at }),
      campaign({ trigger: { type: 'birthday' } }),
      campaign({ conditions: [{ field: 'order.total', op: 'gte', value: 100 }] }),
      campaign({
        conditions: [
          { field: 'order.total', op: 'gte', value: 10 },
          { field: 'member.tier', op: 'eq', value: 'gold' },
        ],
      }),
    ];
    for (const c of skipped) expect(evaluateCampaigns([c], facts(), 80, none)).toEqual([]);
    expect(isLive(campaign({ startsAt: at, endsAt: at + 1 }), at)).toBe(true);
    expect(evaluateCampaigns([campaign({ conditions: [{ field: 'order.total', op: 'gte', value: 10 }] })], facts(), 80, none)).toHaveLength(1);
  });

  it('a non-stackable campaign applies alone', () => {
    const alone = campaign({ campaignId: 'cmp_x', stackable: false, priority: 9 });
    const other = campaign({ campaignId: 'cmp_y', priority: 1 });
    expect(evaluateCampaigns([other, alone], facts(), 80, none).map((g) => g.campaignId)).toEqual(['cmp_x']);
    const late = campaign({ campaignId: 'cmp_z', stackable: false, priority: 0 });
    expect(evaluateCampaigns([other, late], facts(), 80, none).map((g) => g.campaignId)).toEqual(['cmp_y']);
    // A non-stackable campaign that grants nothing (limit reached) lets the others through.
    const spent = campaign({ campaignId: 'cmp_x', stackable: false, priority: 9, limits: { perMember: 1, totalPoints: null } });
    expect(
      evaluateCampaigns([spent, other], facts(), 80, (id) => (id === 'cmp_x' ? { memberGrants: 1, totalPoints: 0 } : none())).map((g) => g.campaignId),
    ).toEqual(['cmp_y']);
    // Same priority: by id.
    expect(evaluateCampaigns([campaign({ campaignId: 'cmp_b' }), campaign({ campaignId: 'cmp_a' })], facts(), 1, none).map((g) => g.campaignId)).toEqual([
      'cmp_a',
      'cmp_b',
    ]);
  });

  it('respects per-member grants and the points budget', () => {
    const c = campaign({ limits: { perMember: 2, totalPoints: 120 } });
    expect(evaluateCampaigns([c], facts(), 80, () => ({ memberGrants: 1, totalPoints: 0 }))[0]!.points).toBe(50);
    expect(evaluateCampaigns([c], facts(), 80, () => ({ memberGrants: 2, totalPoints: 0 }))).toEqual([]);
    expect(evaluateCampaigns([c], facts(), 80, () => ({ memberGrants: 0, totalPoints: 100 }))[0]!.points).toBe(20);
    expect(evaluateCampaigns([c], facts(), 80, () => ({ memberGrants: 0, totalPoints: 120 }))).toEqual([]);
    expect(evaluateCampaigns([c], facts(), 80, () => ({ memberGrants: 0, totalPoints: 130 }))).toEqual([]);
    const coupon = campaign({ effect: { type: 'coupon', poolId: 'p' }, limits: { perMember: 1, totalPoints: null } });
    expect(evaluateCampaigns([coupon], facts(), 0, none)).toHaveLength(1);
    expect(evaluateCampaigns([coupon], facts(), 0, () => ({ memberGrants: 1, totalPoints: 0 }))).toEqual([]);
  });

  it('multipliers add base x factor - base, exactly, never negative', () => {
    expect(multiplierPoints(10, 1.1)).toBe(1);
    expect(multiplierPoints(100, 1.5)).toBe(50);
    expect(multiplierPoints(7, 3)).toBe(14);
    expect(multiplierPoints(100, 0.5)).toBe(0);
    expect(multiplierPoints(100, 1)).toBe(0);
    expect(evaluateCampaigns([campaign({ effect: { type: 'multiplier', factor: 1 } })], facts(), 80, none)).toEqual([]);
  });

  it('an inactivity campaign fires once the member has been inactive its number of days', () => {
    const winBack = campaign({ trigger: { type: 'inactivity', days: 60 } });
    const f = facts({ trigger: 'inactivity', order: undefined });
    expect(evaluateCampaigns([winBack], f, 0, none, 59)).toEqual([]);
    expect(evaluateCampaigns([winBack], f, 0, none, 60)).toHaveLength(1);
    expect(evaluateCampaigns([winBack], f, 0, none)).toEqual([]);
    expect(inactiveDaysAt(NOW, NOW + 60 * DAY_MS - 1)).toBe(59);
    expect(inactiveDaysAt(NOW, NOW + 60 * DAY_MS)).toBe(60);
  });
});

describe('conditions on a trigger without an order', () => {
  it('order fields have no value on a birthday, and their conditions never hold', () => {
    const facts: CampaignFacts = { trigger: 'birthday', at: Date.parse('2026-03-01T10:00:00Z'), timeZone: 'UTC', member: { tier: 'gold', tags: ['vip'] } };
    for (const field of [
      'order.total',
      'order.currency',
      'order.storeId',
      'order.items.sku',
      'order.items.category',
      'order.items.brand',
      'order.isFirst',
    ] as const) {
      expect(fieldValue(field, facts), field).toBeUndefined();
    }
    expect(holds({ field: 'order.isFirst', op: 'eq', value: true }, facts)).toBe(false);
    expect(holds({ field: 'order.storeId', op: 'neq', value: 'sto_x' }, facts)).toBe(false);
    expect(holds({ field: 'member.tier', op: 'eq', value: 'gold' }, facts)).toBe(true);
  });
});
