import { describe, expect, it } from 'vitest';
import {
  addCounters,
  backfillMoves,
  counterOf,
  countedPoints,
  dayMoves,
  expiryMonth,
  localDay,
  lotsProfile,
  outstandingMove,
  type CountedEntry,
} from '../../../../shared/overview/points-day';
import {
  bucketsOf,
  daysBetween,
  liabilityByExpiry,
  pointsReport,
  ratesOf,
  moneyValueOf,
  topCampaigns,
  TOP_CAMPAIGNS,
} from '../../../../shared/overview/points-report';

/** The points aggregates: which counter each ledger entry moves, the day it lands on, and the report summed from the days. */

const entry = (type: string, amount: number, source = 'manual', createdAt = '2026-03-10T12:00:00.000Z'): CountedEntry => ({
  type,
  amount,
  source: { type: source },
  createdAt,
});
const BERLIN = 'Europe/Berlin';

describe('counterOf', () => {
  it.each([
    ['earn', 100, 'order', 'issuedBase'],
    ['earn', 100, 'reconciliation', 'issuedBase'],
    ['earn', 100, 'manual', 'issuedManual'],
    ['campaign', 50, 'campaign', 'issuedCampaign'],
    ['campaign', 50, 'order', 'issuedCampaign'],
    ['correction', 20, 'manual', 'issuedManual'],
    ['deduct', -30, 'coupon', 'redeemed'],
    ['deduct', -30, 'manual', 'deducted'],
    ['refund_reversal', -40, 'refund', 'reversed'],
    ['refund_reversal', -40, 'manual', 'reversed'],
    ['adjustment', -10, 'order', 'reversed'],
    ['adjustment', -10, 'reconciliation', 'reversed'],
    ['correction', -10, 'manual', 'deducted'],
    ['expire', -70, 'program', 'expired'],
    // Every order source, each way: a refund's own entries credit as an order's and debit as a reversal.
    ['earn', 100, 'refund', 'issuedBase'],
    ['adjustment', -10, 'refund', 'reversed'],
    // Only an earn of an order is base: another credit from an order is manual.
    ['correction', 15, 'order', 'issuedManual'],
    // A credit is a positive amount: nothing of zero is issued.
    ['campaign', 0, 'manual', 'deducted'],
    // A reward's redemption and its void are both redeemed, whatever their source.
    ['redemption', -25, 'reward', 'redeemed'],
    ['redemption_void', 25, 'reward', 'redeemed'],
    ['redemption', -25, 'manual', 'redeemed'],
    ['redemption_void', 25, 'order', 'redeemed'],
  ])('%s %d from %s counts as %s', (type, amount, source, counter) => {
    expect(counterOf(entry(type, amount, source))).toBe(counter);
  });
});

describe('countedPoints', () => {
  it('counts a debit as the points taken off, a credit as given, and a redemption’s void as taken off redeemed again', () => {
    expect(countedPoints({ type: 'deduct', amount: -30 })).toBe(30);
    expect(countedPoints({ type: 'earn', amount: 30 })).toBe(30);
    expect(countedPoints({ type: 'redemption', amount: -30 })).toBe(30);
    expect(countedPoints({ type: 'redemption_void', amount: 30 })).toBe(-30);
  });
  it('keeps the outstanding balance the ledger’s: a redemption and its void add up to nothing', () => {
    const at = Date.parse('2026-03-10T12:00:00Z');
    const noLots = { read: undefined, settled: undefined, written: undefined };
    const moved = (e: CountedEntry) => dayMoves({ lapsed: null, entries: [e], lots: noLots, orders: 0, at, timeZone: 'UTC' }).get('2026-03-10') ?? {};
    expect(moved(entry('redemption', -40, 'reward'))).toEqual({ redeemed: 40 });
    expect(moved(entry('redemption_void', 40, 'reward'))).toEqual({ redeemed: -40 });
    expect(outstandingMove(moved(entry('redemption_void', 40, 'reward')))).toBe(40);
    const both = dayMoves({
      lapsed: null,
      entries: [entry('redemption', -40, 'reward'), entry('redemption_void', 40, 'reward')],
      lots: noLots,
      orders: 0,
      at,
      timeZone: 'UTC',
    });
    expect([...both]).toEqual([]);
  });
  it('the backfill counts a void against redeemed on its own day', () => {
    const moves = backfillMoves(
      {
        entries: [
          { ...entry('redemption', -40, 'reward', '2026-03-01T10:00:00Z'), id: 'ple_01kbwzzzz1rest' },
          { ...entry('redemption_void', 40, 'reward', '2026-03-02T10:00:00Z'), id: 'ple_01kbwzzzz2rest' },
        ],
        lots: undefined,
        lastDay: '2026-03-02',
      },
      '01kbx00000',
      'UTC',
    );
    expect(Object.fromEntries(moves)).toEqual({ '2026-03-01': { redeemed: 40 }, '2026-03-02': { redeemed: -40 } });
  });
});

describe('days and months in the program time zone', () => {
  it('dates an instant by its local day', () => {
    expect(localDay(Date.parse('2026-03-31T22:30:00Z'), BERLIN)).toBe('2026-04-01');
    expect(localDay(Date.parse('2026-03-31T21:30:00Z'), BERLIN)).toBe('2026-03-31');
    expect(localDay(Date.parse('2026-01-05T00:00:00Z'), 'UTC')).toBe('2026-01-05');
  });
  it('puts an end-of-month expiry (the next month’s first instant) in the month it ends', () => {
    expect(expiryMonth(Date.parse('2026-03-31T22:00:00Z'), BERLIN)).toBe('2026-03');
    expect(expiryMonth(Date.parse('2026-04-01T00:00:00Z'), 'UTC')).toBe('2026-03');
    expect(expiryMonth(Date.parse('2026-04-01T00:00:01Z'), 'UTC')).toBe('2026-04');
  });
});

describe('lotsProfile and addCounters', () => {
  it('sums dated lots per expiry month and the pending points; undated and empty lots count nowhere', () => {
    const lots = {
      lots: [
        { points: 10, expiresAt: Date.parse('2026-05-10T00:00:00Z') },
        { points: 5, expiresAt: Date.parse('2026-05-20T00:00:00Z') },
        { points: 7, expiresAt: Date.parse('2026-06-02T00:00:00Z') },
        { points: 9, expiresAt: null },
        { points: 0, expiresAt: Date.parse('2026-07-02T00:00:00Z') },
      ],
      pending: [{ points: 3 }, { points: 4 }],
    };
    expect(lotsProfile(lots, 'UTC')).toEqual({ 'x2026-05': 15, 'x2026-06': 7, pending: 7 });
    expect(lotsProfile(undefined, 'UTC')).toEqual({});
    expect(lotsProfile({ lots: [], pending: [] }, 'UTC')).toEqual({});
  });
  it('adds or subtracts counter by counter and drops zeros', () => {
    expect(addCounters({ redeemed: 5, expired: 2 }, { redeemed: 5, deducted: 1 }, -1)).toEqual({ expired: 2, deducted: -1 });
    expect(addCounters({ redeemed: 5 }, { redeemed: 2, orders: 1 })).toEqual({ redeemed: 7, orders: 1 });
  });
  it('outstanding: every credit less every debit, pending and orders aside', () => {
    expect(
      outstandingMove({ issuedBase: 100, issuedCampaign: 20, issuedManual: 3, redeemed: 40, reversed: 10, expired: 5, deducted: 2, pending: 50, orders: 4 }),
    ).toBe(66);
    expect(outstandingMove({})).toBe(0);
  });
});

describe('dayMoves', () => {
  const at = Date.parse('2026-03-10T12:00:00Z');
  const noLots = { read: undefined, settled: undefined, written: undefined };
  it('counts each entry positive in its counter on the day of the change, with the orders', () => {
    const moves = dayMoves({
      lapsed: null,
      entries: [entry('earn', 100, 'order'), entry('campaign', 20, 'campaign'), null],
      lots: noLots,
      orders: 1,
      at,
      timeZone: 'UTC',
    });
    expect([...moves]).toEqual([['2026-03-10', { issuedBase: 100, issuedCampaign: 20, orders: 1 }]]);
    const debit = dayMoves({ lapsed: null, entries: [entry('deduct', -30, 'coupon')], lots: noLots, orders: 0, at, timeZone: 'UTC' });
    expect([...debit]).toEqual([['2026-03-10', { redeemed: 30 }]]);
  });
  it('moves pending and the expiry months by the difference of the lots', () => {
    const may = Date.parse('2026-05-15T00:00:00Z');
    const moves = dayMoves({
      lapsed: null,
      entries: [entry('deduct', -4, 'coupon')],
      lots: {
        read: { lots: [{ points: 10, expiresAt: may }], pending: [{ points: 8 }] },
        settled: undefined,
        written: { lots: [{ points: 6, expiresAt: may }], pending: [] },
      },
      orders: 0,
      at,
      timeZone: 'UTC',
    });
    expect([...moves]).toEqual([['2026-03-10', { redeemed: 4, 'x2026-05': -4, pending: -8 }]]);
  });
  it('books a lapsed expiry and the lots it took on the day the points lapsed, the rest on the day of the change', () => {
    const feb = Date.parse('2026-02-28T10:00:00Z');
    const moves = dayMoves({
      lapsed: entry('expire', -10, 'program', '2026-02-28T10:00:00.000Z'),
      entries: [entry('earn', 5, 'manual')],
      lots: {
        read: { lots: [{ points: 10, expiresAt: feb }], pending: [] },
        settled: { lots: [], pending: [] },
        written: { lots: [{ points: 5, expiresAt: Date.parse('2027-03-10T00:00:00Z') }], pending: [] },
      },
      orders: 0,
      at,
      timeZone: 'UTC',
    });
    expect(Object.fromEntries(moves)).toEqual({ '2026-02-28': { expired: 10, 'x2026-02': -10 }, '2026-03-10': { issuedManual: 5, 'x2027-03': 5 } });
  });
  it('moves nothing for a change without entries, orders or lots', () => {
    expect(dayMoves({ lapsed: null, entries: [null], lots: noLots, orders: 0, at, timeZone: 'UTC' }).size).toBe(0);
    expect(dayMoves({ lapsed: null, entries: [null], lots: noLots, orders: 0, also: {}, at, timeZone: 'UTC' }).size).toBe(0);
  });
  it('adds the members counters (a tier moved, a first activity) to the day of the change, beside a lapsed expiry of another day', () => {
    const moves = dayMoves({
      lapsed: entry('expire', -10, 'program', '2026-02-28T10:00:00.000Z'),
      entries: [entry('earn', 5, 'manual')],
      lots: noLots,
      orders: 1,
      also: { 't.bronze': -1, 't.silver': 1, a3: 1 },
      at,
      timeZone: 'UTC',
    });
    expect(Object.fromEntries(moves)).toEqual({
      '2026-02-28': { expired: 10 },
      '2026-03-10': { issuedManual: 5, orders: 1, 't.bronze': -1, 't.silver': 1, a3: 1 },
    });
    const tierOnly = dayMoves({ lapsed: null, entries: [], lots: noLots, orders: 0, also: { 't.gold': 1, 't.silver': -1 }, at, timeZone: 'UTC' });
    expect([...tierOnly]).toEqual([['2026-03-10', { 't.gold': 1, 't.silver': -1 }]]);
  });
});

describe('the report', () => {
  it('lists the days and months of a period, months clipped to it', () => {
    expect(daysBetween('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(daysBetween('2026-03-02', '2026-03-01')).toEqual([]);
    expect(bucketsOf('2026-01-15', '2026-03-02', 'month')).toEqual([
      { start: '2026-01-15', end: '2026-01-31' },
      { start: '2026-02-01', end: '2026-02-28' },
      { start: '2026-03-01', end: '2026-03-02' },
    ]);
    expect(bucketsOf('2026-01-30', '2026-01-31', 'day')).toEqual([
      { start: '2026-01-30', end: '2026-01-30' },
      { start: '2026-01-31', end: '2026-01-31' },
    ]);
  });
  it('rates over the points issued, 4 decimals, null while nothing was issued', () => {
    expect(ratesOf({ issued: { base: 2, campaign: 1, manual: 0, total: 3 }, redeemed: 1, expired: 2 })).toEqual({ redemption: 0.3333, breakage: 0.6667 });
    expect(ratesOf({ issued: { base: 0, campaign: 0, manual: 0, total: 0 }, redeemed: 0, expired: 0 })).toEqual({ redemption: null, breakage: null });
  });
  it('values points at a price with up to 6 decimals, rounded to the minor unit', () => {
    expect(moneyValueOf(312_500, 0.01, 'EUR')).toBe(3125);
    expect(moneyValueOf(333, 0.005, 'EUR')).toBe(1.67);
    expect(moneyValueOf(1_000_001, 0.000001, 'USD')).toBe(1);
    expect(moneyValueOf(1234, 0.5, 'JPY')).toBe(617);
    expect(moneyValueOf(3, 0.1, 'EUR')).toBe(0.3);
  });
  it('splits the liability by expiry month and leaves the rest undated', () => {
    expect(liabilityByExpiry({ issuedManual: 100, 'x2026-06': 30, 'x2026-05': 20, 'x2026-07': 0 })).toEqual([
      { month: '2026-05', points: 20 },
      { month: '2026-06', points: 30 },
      { month: null, points: 50 },
    ]);
    expect(liabilityByExpiry({ issuedManual: 20, 'x2026-05': 20 })).toEqual([{ month: '2026-05', points: 20 }]);
    // Months in any order as the counters hold them come out oldest first.
    const months = liabilityByExpiry({ issuedManual: 100, 'x2026-09': 10, 'x2026-05': 20, 'x2027-01': 30, 'x2026-07': 40 });
    expect(months.map((m) => m.month)).toEqual(['2026-05', '2026-07', '2026-09', '2027-01']);
  });
  it('values the outstanding points in each currency, in alphabetical order of the currency', () => {
    const report = pointsReport({
      days: [{ day: '2026-02-01', counters: { issuedBase: 100 } }],
      from: '2026-02-01',
      to: '2026-02-28',
      granularity: 'month',
      timeZone: 'UTC',
      pointValue: { USD: 0.02, CHF: 0.01, GBP: 0.01, EUR: 0.01 },
    });
    expect(report.value.map((v) => v.currency)).toEqual(['CHF', 'EUR', 'GBP', 'USD']);
  });
  it('opens with what came before, moves by the period and closes with the running sum', () => {
    const report = pointsReport({
      days: [
        { day: '2026-01-20', counters: { issuedBase: 100, pending: 10 } },
        { day: '2026-02-01', counters: { issuedCampaign: 20, redeemed: 30, 'x2027-02': 20 } },
        { day: '2026-02-03', counters: { issuedManual: 5, expired: 7, reversed: 3, deducted: 1, pending: -10, orders: 2 } },
        { day: '2026-03-01', counters: { issuedBase: 9 } },
      ],
      from: '2026-02-01',
      to: '2026-02-28',
      granularity: 'day',
      timeZone: 'UTC',
      pointValue: { USD: 0.02, EUR: 0.01 },
    });
    expect(report.totals).toEqual({
      opening: 100,
      issued: { base: 0, campaign: 20, manual: 5, total: 25 },
      redeemed: 30,
      reversed: 3,
      expired: 7,
      deducted: 1,
      outstanding: 84,
      pending: 0,
    });
    expect(report.buckets).toHaveLength(28);
    expect(report.buckets[0]).toMatchObject({ start: '2026-02-01', outstanding: 90, pending: 10, redeemed: 30 });
    expect(report.buckets[1]).toMatchObject({ start: '2026-02-02', outstanding: 90, pending: 10, redeemed: 0 });
    expect(report.buckets[2]).toMatchObject({ outstanding: 84, pending: 0, expired: 7 });
    expect(report.rates).toEqual({ period: { redemption: 1.2, breakage: 0.28 }, lifeToDate: { redemption: 0.24, breakage: 0.056 } });
    expect(report.liabilityByExpiry).toEqual([
      { month: '2027-02', points: 20 },
      { month: null, points: 64 },
    ]);
    expect(report.value).toEqual([
      { currency: 'EUR', pointValue: 0.01, amount: 0.84 },
      { currency: 'USD', pointValue: 0.02, amount: 1.68 },
    ]);
    const months = pointsReport({ days: [], from: '2026-01-01', to: '2026-02-10', granularity: 'month', timeZone: 'UTC', pointValue: {} });
    expect(months.buckets.map((b) => [b.start, b.end, b.outstanding])).toEqual([
      ['2026-01-01', '2026-01-31', 0],
      ['2026-02-01', '2026-02-10', 0],
    ]);
    expect(months.liabilityByExpiry).toEqual([]);
  });
});

describe('backfillMoves', () => {
  // The cut-over's id time (as idTimePrefix spells it): ids made before it sort before it.
  const cut = '01kbx00000';
  const madeBefore = (n: number) => `ple_01kbwzzzz${n}rest`;
  const madeAfter = (n: number) => `ple_01kbx00000${n}rest`;
  const e = (id: string, type: string, amount: number, source: string, createdAt: string) => ({ ...entry(type, amount, source, createdAt), id });
  const lots = {
    lots: [
      { points: 70, expiresAt: Date.parse('2026-05-01T00:00:00Z') },
      { points: 30, expiresAt: null },
    ],
    pending: [{ points: 40, orderId: 'ord_01kbwzzzzzrest' }],
  };

  it("counts each entry written before the cut-over on its day, and the member's lots on its last change's day", () => {
    const moves = backfillMoves(
      {
        entries: [
          e(madeBefore(1), 'earn', 100, 'order', '2026-03-01T10:00:00Z'),
          e(madeBefore(2), 'deduct', -20, 'coupon', '2026-03-01T11:00:00Z'),
          e(madeBefore(3), 'expire', -10, 'program', '2026-03-02T23:30:00Z'),
          e(madeBefore(4), 'earn', 0, 'manual', '2026-03-03T00:00:00Z'),
        ],
        lots,
        lastDay: '2026-03-04',
      },
      cut,
      BERLIN,
    );
    expect(Object.fromEntries(moves)).toEqual({
      '2026-03-01': { issuedBase: 100, redeemed: 20 },
      '2026-03-03': { expired: 10 },
      // Midnight UTC is 2 a.m. in Berlin: the lot's last moment is in May there.
      '2026-03-04': { 'x2026-05': 70, pending: 40 },
    });
  });

  it("leaves the lots of a member whose points moved since the cut-over, by an entry or a pending order, to the counters' differences", () => {
    const entries = [e(madeBefore(1), 'earn', 100, 'order', '2026-03-01T10:00:00Z'), e(madeAfter(2), 'earn', 5, 'manual', '2026-03-05T10:00:00Z')];
    expect(Object.fromEntries(backfillMoves({ entries, lots, lastDay: '2026-03-05' }, cut, 'UTC'))).toEqual({ '2026-03-01': { issuedBase: 100 } });
    const waiting = { ...lots, pending: [...lots.pending, { points: 8, orderId: 'ord_01kbx00000z/cmp_1' }] };
    expect(Object.fromEntries(backfillMoves({ entries: entries.slice(0, 1), lots: waiting, lastDay: '2026-03-05' }, cut, 'UTC'))).toEqual({
      '2026-03-01': { issuedBase: 100 },
    });
  });

  it('books a member without entries by its lots alone, and nothing for a member without either', () => {
    expect(Object.fromEntries(backfillMoves({ entries: [], lots, lastDay: '2026-03-06' }, cut, 'UTC'))).toEqual({
      '2026-03-06': { 'x2026-04': 70, pending: 40 },
    });
    expect(backfillMoves({ entries: [], lots: undefined, lastDay: '2026-03-06' }, cut, 'UTC').size).toBe(0);
    expect(
      backfillMoves({ entries: [e(madeAfter(1), 'earn', 9, 'manual', '2026-03-01T10:00:00Z')], lots: undefined, lastDay: '2026-03-06' }, cut, 'UTC').size,
    ).toBe(0);
  });
});

describe('campaigns by cost', () => {
  it('counts a campaign reward under its campaign, and nothing else', () => {
    const at = Date.parse('2026-03-10T12:00:00Z');
    const noLots = { read: undefined, settled: undefined, written: undefined };
    const grant = (campaignId: string | undefined, amount: number, type = 'campaign') => ({
      type,
      amount,
      source: { type: 'campaign', ...(campaignId ? { campaignId } : {}) },
      createdAt: '2026-03-10T12:00:00.000Z',
    });
    const moves = dayMoves({
      lapsed: null,
      entries: [grant('cmp_a', 30), grant('cmp_a', 20), grant('cmp_b', 5), grant(undefined, 7), grant('cmp_c', -4)],
      lots: noLots,
      orders: 0,
      at,
      timeZone: 'UTC',
    });
    expect(moves.get('2026-03-10')).toEqual({ issuedCampaign: 62, 'c.cmp_a': 50, 'n.cmp_a': 2, 'c.cmp_b': 5, 'n.cmp_b': 1, deducted: 4 });
  });

  it('ranks by points, then by id, with the period before and at most the limit', () => {
    const moved = { 'c.cmp_b': 50, 'n.cmp_b': 2, 'c.cmp_a': 50, 'n.cmp_a': 5, 'c.cmp_c': 80, 'n.cmp_c': 1, 'c.cmp_z': 0, 'n.cmp_z': 0, issuedCampaign: 180 };
    const previous = { 'c.cmp_a': 12, 'c.cmp_q': 99 };
    expect(topCampaigns(moved, previous)).toEqual([
      { campaignId: 'cmp_c', points: 80, rewards: 1, previousPoints: 0 },
      { campaignId: 'cmp_a', points: 50, rewards: 5, previousPoints: 12 },
      { campaignId: 'cmp_b', points: 50, rewards: 2, previousPoints: 0 },
    ]);
    expect(topCampaigns(moved, previous, 2).map((c) => c.campaignId)).toEqual(['cmp_c', 'cmp_a']);
    expect(TOP_CAMPAIGNS).toBe(10);
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c.cmp_${String(i).padStart(2, '0')}`, 100 - i]));
    expect(topCampaigns(many, {}).map((c) => c.campaignId)).toEqual(Array.from({ length: 10 }, (_, i) => `cmp_${String(i).padStart(2, '0')}`));
    // A campaign whose rewards were all given back in the period (a void) still shows while it has rewards.
    expect(topCampaigns({ 'c.cmp_v': 0, 'n.cmp_v': 1 }, {})).toEqual([{ campaignId: 'cmp_v', points: 0, rewards: 1, previousPoints: 0 }]);
  });

  it('reports the campaigns of the period and the figures of the period before', () => {
    const r = pointsReport({
      days: [
        { day: '2026-02-27', counters: { issuedManual: 100 } },
        { day: '2026-02-28', counters: { issuedCampaign: 30, 'c.cmp_a': 30, 'n.cmp_a': 1, expired: 10 } },
        { day: '2026-03-01', counters: { issuedCampaign: 50, 'c.cmp_a': 50, 'n.cmp_a': 2, redeemed: 20 } },
        { day: '2026-03-02', counters: { issuedCampaign: 5, 'c.cmp_b': 5, 'n.cmp_b': 1 } },
      ],
      from: '2026-03-01',
      to: '2026-03-02',
      granularity: 'day',
      timeZone: 'UTC',
      pointValue: {},
    });
    expect(r.campaigns).toEqual([
      { campaignId: 'cmp_a', points: 50, rewards: 2, previousPoints: 30 },
      { campaignId: 'cmp_b', points: 5, rewards: 1, previousPoints: 0 },
    ]);
    expect(r.previous).toEqual({
      from: '2026-02-27',
      to: '2026-02-28',
      totals: {
        opening: 0,
        issued: { base: 0, campaign: 30, manual: 100, total: 130 },
        redeemed: 0,
        reversed: 0,
        expired: 10,
        deducted: 0,
        outstanding: 120,
        pending: 0,
      },
    });
    expect(r.totals).toMatchObject({ opening: 120, outstanding: 155 });
  });
});
