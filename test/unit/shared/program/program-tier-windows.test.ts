import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changePoints, NO_DELTA, type ChangePlan } from '../../../../shared/members/ledger';
import { DAY_MS } from '../../../../shared/program/calendar';
import { DEFAULT_RULES, type ProgramRules } from '../../../../shared/program/schemas';
import {
  addToDays,
  dayKey,
  dayLeavesWindow,
  evaluateTier,
  metricMoves,
  tierReviewAt,
  windowMetric,
  type TierDays,
} from '../../../../shared/program/tier-metric';
import type { TierState } from '../../../../shared/program/tier-rules';
import type { TierRulesRecord } from '../../../../shared/program/entities';
import { MemoryLedgerStore } from '../../../support/memory-stores';

const LEVELS = [
  { key: 'bronze', name: 'Bronze', threshold: 0 },
  { key: 'silver', name: 'Silver', threshold: 500 },
  { key: 'gold', name: 'Gold', threshold: 2000 },
];
const NOW = Date.parse('2026-06-10T12:00:00Z');
const tiers = (over: Partial<TierRulesRecord> = {}): TierRulesRecord => ({
  metric: 'lifetime_points',
  levels: LEVELS,
  window: 'rolling_365_days',
  retainDays: 0,
  downgrade: 'to_qualified',
  ...over,
});

describe('tier metric per day', () => {
  it('adds a change to its local day and drops days no window reaches any more', () => {
    expect(dayKey(Date.parse('2026-12-31T23:30:00Z'), 'Europe/Berlin')).toBe('2027-01-01');
    const days = addToDays({ '2025-06-09': [5, 1], '2025-06-10': [7, 1] }, NOW, 100, 1, 'UTC');
    // 366 days before 2026-06-10 is 2025-06-09: the oldest day kept.
    expect(days).toEqual({ '2025-06-09': [5, 1], '2025-06-10': [7, 1], '2026-06-10': [100, 1] });
    expect(addToDays(days, NOW + DAY_MS, -30, 0, 'UTC')).toEqual({ '2025-06-10': [7, 1], '2026-06-10': [100, 1], '2026-06-11': [-30, 0] });
    expect(addToDays({ '2026-06-10': [1, 0] }, NOW, 0, 0, 'UTC')).toEqual({ '2026-06-10': [1, 0] });
  });

  it('counts whole days from the day the window starts on up to today, points or orders, never below zero', () => {
    const days: TierDays = { '2025-06-09': [1000, 1], '2025-06-10': [300, 2], '2026-01-01': [40, 1], '2026-06-10': [5, 1], '2026-06-11': [9, 9] };
    expect(windowMetric(days, tiers(), NOW, 'UTC')).toBe(345);
    expect(windowMetric(days, tiers({ metric: 'order_count' }), NOW, 'UTC')).toBe(4);
    expect(windowMetric(days, tiers({ window: 'calendar_year' }), NOW, 'UTC')).toBe(45);
    expect(windowMetric({ '2026-06-10': [-50, 0] }, tiers(), NOW, 'UTC')).toBe(0);
  });

  it('a day leaves a rolling window 365 days after it ends, a calendar window at the next local new year', () => {
    expect(new Date(dayLeavesWindow('2026-06-10', 'rolling_365_days', 'UTC')!).toISOString()).toBe('2027-06-11T00:00:00.000Z');
    expect(new Date(dayLeavesWindow('2026-06-10', 'calendar_year', 'Europe/Berlin')!).toISOString()).toBe('2026-12-31T23:00:00.000Z');
    expect(dayLeavesWindow('2026-06-10', 'lifetime', 'UTC')).toBeNull();
    const leaves = dayLeavesWindow('2026-06-10', 'rolling_365_days', 'UTC')!;
    expect(windowMetric({ '2026-06-10': [10, 0] }, tiers(), leaves - 1, 'UTC')).toBe(10);
    expect(windowMetric({ '2026-06-10': [10, 0] }, tiers(), leaves, 'UTC')).toBe(0);
  });

  it('finds the first instant the metric falls below a threshold, not the first day that leaves', () => {
    const days: TierDays = { '2026-01-05': [100, 0], '2026-03-01': [500, 0] };
    const falls = (below: number, t = tiers()) => metricMoves(days, t, { below, reach: null }, NOW, 'UTC');
    expect(falls(550)).toEqual({ at: Date.parse('2027-01-06T00:00:00.000Z'), falls: true });
    expect(falls(450)).toEqual({ at: Date.parse('2027-03-02T00:00:00.000Z'), falls: true });
    expect(falls(450, tiers({ window: 'lifetime' }))).toBeNull();
    expect(falls(50)).toEqual({ at: Date.parse('2027-03-02T00:00:00.000Z'), falls: true });
  });

  it('finds the first instant a reversal leaving the window raises the metric to the next threshold', () => {
    // 1,999 in the window: a reversal of 1 on 5 January, then 2,000 on 1 March.
    const days: TierDays = { '2026-01-05': [-1, 0], '2026-03-01': [2000, 0] };
    expect(metricMoves(days, tiers(), { below: 500, reach: 2000 }, NOW, 'UTC')).toEqual({ at: Date.parse('2027-01-06T00:00:00.000Z'), falls: false });
    expect(metricMoves(days, tiers(), { below: 500, reach: 2001 }, NOW, 'UTC')).toEqual({ at: Date.parse('2027-03-02T00:00:00.000Z'), falls: true });
    expect(metricMoves(days, tiers(), { below: null, reach: null }, NOW, 'UTC')).toBeNull();
    const silver: TierState = { tier: 'silver', reachedAt: NOW, retainedUntil: NOW + 400 * DAY_MS };
    // A rise is reviewed when it comes, whatever the retention; the first level can rise too.
    expect(tierReviewAt(silver, days, 1999, tiers(), NOW, 'UTC')).toBe(Date.parse('2027-01-06T00:00:00.000Z'));
    const bronzeDays: TierDays = { '2026-01-05': [-1, 0], '2026-03-01': [500, 0] };
    expect(tierReviewAt({ ...silver, tier: 'bronze' }, bronzeDays, 499, tiers(), NOW, 'UTC')).toBe(Date.parse('2027-01-06T00:00:00.000Z'));
  });

  it('reviews at the retention end when below the tier, at the drop (not before the retention) when above, never for the first level', () => {
    const gold: TierState = { tier: 'gold', reachedAt: NOW, retainedUntil: NOW + 30 * DAY_MS };
    const days: TierDays = { '2026-06-10': [2100, 0] };
    expect(tierReviewAt(gold, days, 100, tiers(), NOW, 'UTC')).toBe(NOW + 30 * DAY_MS);
    expect(new Date(tierReviewAt(gold, days, 2100, tiers(), NOW, 'UTC')!).toISOString()).toBe('2027-06-11T00:00:00.000Z');
    const longRetention = { ...gold, retainedUntil: NOW + 400 * DAY_MS };
    expect(tierReviewAt(longRetention, days, 2100, tiers(), NOW, 'UTC')).toBe(NOW + 400 * DAY_MS);
    expect(tierReviewAt(gold, days, 2100, tiers({ window: 'lifetime' }), NOW, 'UTC')).toBeNull();
    expect(tierReviewAt({ ...gold, tier: 'bronze' }, days, 0, tiers(), NOW, 'UTC')).toBeNull();
    expect(tierReviewAt({ ...gold, retainedUntil: 0 }, days, 100, tiers(), NOW, 'UTC')).toBe(NOW);
  });
});

describe('tier evaluation', () => {
  it('an earn in a rolling window upgrades with a retention; the window rolling past it downgrades once the retention ended', () => {
    const start: TierState = { tier: 'bronze', reachedAt: 0, retainedUntil: 0 };
    const rules = tiers({ retainDays: 30, downgrade: 'one_level' });
    const up = evaluateTier({ state: start, days: {}, lifetimeValue: 2100, points: 2100, orders: 1 }, rules, NOW, 'UTC');
    expect(up.decision).toEqual({ tier: 'gold', reachedAt: NOW, retainedUntil: NOW + 30 * DAY_MS, change: 'upgraded' });
    expect(up.value).toBe(2100);
    expect(new Date(up.reviewAt!).toISOString()).toBe('2027-06-11T00:00:00.000Z');
    const later = up.reviewAt!;
    const down = evaluateTier({ state: up.decision, days: up.days, lifetimeValue: 2100, points: 0, orders: 0 }, rules, later, 'UTC');
    expect(down.decision).toMatchObject({ tier: 'silver', change: 'downgraded', reachedAt: later, retainedUntil: later + 30 * DAY_MS });
    expect(down.value).toBe(0);
    // One level at a time: the next step is due when silver's own retention ends.
    expect(down.reviewAt).toBe(later + 30 * DAY_MS);
  });

  it('a lifetime window uses the lifetime counters, and only a reversal can lower it', () => {
    const gold: TierState = { tier: 'gold', reachedAt: 0, retainedUntil: 0 };
    const e = evaluateTier({ state: gold, days: {}, lifetimeValue: 600, points: -1500, orders: 0 }, tiers({ window: 'lifetime' }), NOW, 'UTC');
    expect(e.decision).toMatchObject({ tier: 'silver', change: 'downgraded' });
    expect(e.reviewAt).toBeNull();
  });
});

/** The ledger (in memory) keeps the tier state and emits the downgrade. */
describe('tier on each points change', () => {
  const WS = 'ws_01j9z3k4m5n6p7q8r9s0t1v2w3';
  const MEMBER = 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3';
  const rules = (over: Partial<ProgramRules['tiers']>): ProgramRules => ({ ...DEFAULT_RULES, tiers: { ...DEFAULT_RULES.tiers, ...over } });
  const points = (amount: number): ChangePlan<string> => ({
    delta: { ...NO_DELTA, balance: amount, lifetime: amount },
    entry: { type: amount > 0 ? 'earn' : 'adjustment', reason: null, source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null } },
    result: ({ member }) => member.tier,
  });
  const at = (store: MemoryLedgerStore, plan: ChangePlan<string>, when: number) =>
    changePoints({ workspaceId: WS, memberId: MEMBER, plan: () => ({ plan }), now: () => new Date(when), store });

  it('a reversal below the tier keeps it until the retention ends, then the next change downgrades it and emits loyalty.tier_downgraded', async () => {
    const store = new MemoryLedgerStore();
    store.rules = rules({ retainDays: 10 });
    store.addMember({ id: MEMBER, workspaceId: WS, tier: 'bronze' });
    expect(await at(store, points(600), NOW)).toBe('silver');
    expect(store.tiers.get(MEMBER)).toMatchObject({
      reachedAt: new Date(NOW).toISOString(),
      retainedUntil: new Date(NOW + 10 * DAY_MS).toISOString(),
      reviewAt: null,
    });
    expect(await at(store, points(-200), NOW + DAY_MS)).toBe('silver');
    expect(store.tiers.get(MEMBER)!.reviewAt).toBe(new Date(NOW + 10 * DAY_MS).toISOString());
    expect(await at(store, points(1), NOW + 10 * DAY_MS)).toBe('bronze');
    expect(store.eventTypes().filter((t) => t.startsWith('loyalty.tier'))).toEqual(['loyalty.tier_upgraded', 'loyalty.tier_downgraded']);
  });

  it('without retention (the default) a reversal below the tier downgrades at once, as before', async () => {
    const store = new MemoryLedgerStore();
    store.addMember({ id: MEMBER, workspaceId: WS, tier: 'bronze' });
    expect(await at(store, points(600), NOW)).toBe('silver');
    expect(await at(store, points(-200), NOW + 1)).toBe('bronze');
    expect(store.eventTypes().filter((t) => t.startsWith('loyalty.tier'))).toEqual(['loyalty.tier_upgraded', 'loyalty.tier_downgraded']);
  });

  it('a change that only reviews the tier writes nothing while the tier and its review stay', async () => {
    const store = new MemoryLedgerStore();
    store.rules = rules({ window: 'rolling_365_days', retainDays: 10 });
    store.addMember({ id: MEMBER, workspaceId: WS, tier: 'bronze' });
    await at(store, points(600), NOW);
    const review: ChangePlan<string> = { ...points(0), delta: NO_DELTA, onlyIfTierMoves: { unchanged: () => 'unchanged' } };
    const commits = store.committed.length;
    expect(await at(store, review, NOW + 100 * DAY_MS)).toBe('unchanged');
    expect(store.committed.length).toBe(commits);
    expect(await at(store, review, NOW + 366 * DAY_MS)).toBe('bronze');
    expect(store.eventTypes().at(-1)).toBe('loyalty.tier_downgraded');
  });
});

describe('tier property', () => {
  const windows = ['lifetime', 'rolling_365_days', 'calendar_year'] as const;
  it('a tier never drops before its retention ends, and never changes before its review is due without activity', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.integer({ min: 0, max: 120 * DAY_MS }), points: fc.integer({ min: -800, max: 1500 }) }), { maxLength: 20 }),
        fc.constantFrom(...windows),
        fc.constantFrom('one_level' as const, 'to_qualified' as const),
        fc.integer({ min: 0, max: 400 }),
        (steps, window, downgrade, retainDays) => {
          const rules = tiers({ window, downgrade, retainDays });
          const idx = (k: string) => LEVELS.findIndex((l) => l.key === k);
          let state: TierState = { tier: 'bronze', reachedAt: 0, retainedUntil: 0 };
          let days: TierDays = {};
          let lifetime = 0;
          let now = NOW;
          for (const s of steps) {
            now += s.dt;
            lifetime += s.points;
            const e = evaluateTier({ state, days, lifetimeValue: Math.max(0, lifetime), points: s.points, orders: 0 }, rules, now, 'UTC');
            if (idx(e.decision.tier) < idx(state.tier)) expect(now).toBeGreaterThanOrEqual(state.retainedUntil);
            // Without activity nothing changes before the review (or ever, without one).
            const quiet = (t: number) =>
              evaluateTier({ state: e.decision, days: e.days, lifetimeValue: Math.max(0, lifetime), points: 0, orders: 0 }, rules, t, 'UTC');
            const before = e.reviewAt === null ? now + 800 * DAY_MS : e.reviewAt - 1;
            if (before >= now) expect(quiet(before).decision.change).toBeNull();
            state = e.decision;
            days = e.days;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('tier metric edges', () => {
  const utc = (iso: string) => Date.parse(iso);

  it('a change of neither points nor orders adds no day; one of orders alone does', () => {
    expect(addToDays({}, NOW, 0, 0, 'UTC')).toEqual({});
    expect(addToDays({}, NOW, 0, 2, 'UTC')).toEqual({ '2026-06-10': [0, 2] });
    expect(addToDays({}, NOW, 5, 0, 'UTC')).toEqual({ '2026-06-10': [5, 0] });
  });

  it('a lifetime window counts every day kept up to today', () => {
    const days: TierDays = { '2025-01-01': [10, 1], '2026-06-10': [5, 1], '2026-06-11': [100, 1] };
    expect(windowMetric(days, tiers({ window: 'lifetime' }), NOW, 'UTC')).toBe(15);
    expect(windowMetric(days, tiers({ window: 'lifetime', metric: 'order_count' }), NOW, 'UTC')).toBe(2);
  });

  it('takes the days leaving the window in time order, whatever order the days are stored in', () => {
    const days: TierDays = { '2026-05-01': [50, 0], '2026-03-01': [500, 0], '2026-01-05': [100, 0] };
    expect(metricMoves(days, tiers(), { below: 600, reach: null }, NOW, 'UTC')).toEqual({ at: utc('2027-01-06T00:00:00Z'), falls: true });
    expect(metricMoves(days, tiers(), { below: 100, reach: null }, NOW, 'UTC')).toEqual({ at: utc('2027-03-02T00:00:00Z'), falls: true });
  });

  it('looks only at days leaving after now: one that left before, or leaves at now, does not count', () => {
    // 2025-01-01 and 2025-03-01 left the window on 2 January and 2 March 2026: before now.
    const old: TierDays = { '2025-01-01': [10, 0], '2025-03-01': [10, 0], '2026-03-01': [500, 0] };
    expect(metricMoves(old, tiers(), { below: 100, reach: null }, NOW, 'UTC')).toEqual({ at: utc('2027-03-02T00:00:00Z'), falls: true });
    const days: TierDays = { '2026-03-01': [500, 0], '2026-05-01': [100, 0] };
    const leaves = utc('2027-03-02T00:00:00Z');
    expect(metricMoves(days, tiers(), { below: 550, reach: null }, leaves, 'UTC')).toEqual({ at: utc('2027-05-02T00:00:00Z'), falls: true });
    expect(metricMoves(days, tiers(), { below: 550, reach: null }, leaves - 1, 'UTC')).toEqual({ at: leaves, falls: true });
  });

  it('a metric exactly at the lower bound has not fallen below it', () => {
    const days: TierDays = { '2026-01-05': [100, 0], '2026-03-01': [500, 0] };
    // 500 remain after 6 January 2027, none after 2 March 2027.
    expect(metricMoves(days, tiers(), { below: 500, reach: null }, NOW, 'UTC')).toEqual({ at: utc('2027-03-02T00:00:00Z'), falls: true });
    expect(metricMoves(days, tiers(), { below: 501, reach: null }, NOW, 'UTC')).toEqual({ at: utc('2027-01-06T00:00:00Z'), falls: true });
  });

  it('a metric exactly at the tier threshold keeps the tier until the window drops it, one below it until the retention ends', () => {
    const gold: TierState = { tier: 'gold', reachedAt: NOW, retainedUntil: NOW + 30 * DAY_MS };
    const days: TierDays = { '2026-06-10': [2000, 0] };
    expect(tierReviewAt(gold, days, 2000, tiers(), NOW, 'UTC')).toBe(utc('2027-06-11T00:00:00Z'));
    expect(tierReviewAt(gold, days, 1999, tiers(), NOW, 'UTC')).toBe(NOW + 30 * DAY_MS);
  });

  it('a tier the ladder no longer knows has no threshold to fall below: reviewed when the metric next moves', () => {
    const gone: TierState = { tier: 'diamond', reachedAt: NOW, retainedUntil: NOW + 30 * DAY_MS };
    expect(tierReviewAt(gone, { '2026-06-10': [100, 0] }, 100, tiers(), NOW, 'UTC')).toBe(utc('2027-06-11T00:00:00Z'));
  });
});
