import { describe, expect, it } from 'vitest';
import type { DayItem, MonthItem, ShardRead } from '../../../../shared/overview/points-repository';
import { addToMonth, countedDays, foldInto, foldsDue } from '../../../../shared/overview/points-rollup';
import { pointsReport } from '../../../../shared/overview/points-report';

/** The month roll-ups: what a fold makes of a month's day items, which folds a read calls for, and the days a report sums from both. */

const item = (day: string, w: string, counters: DayItem['counters']): DayItem => ({ day, w, counters });
const read = (shard: number, days: DayItem[], months: MonthItem[] = []): ShardRead => ({ shard, days, months });

describe('foldInto', () => {
  it('makes a first roll-up of the days, each with the write it took', () => {
    const after = foldInto(undefined, '2026-01', [item('2026-01-02', 'a', { issuedBase: 10 }), item('2026-01-05', 'b', { redeemed: 3, 'x2027-01': 7 })]);
    expect(after).toEqual({
      month: '2026-01',
      v: 1,
      days: { '2026-01-02': { issuedBase: 10 }, '2026-01-05': { redeemed: 3, 'x2027-01': 7 } },
      folded: { '2026-01-02': ['a'], '2026-01-05': ['b'] },
    });
  });

  it('adds a late day item to the roll-up as it stands, keeping what it held', () => {
    const before: MonthItem = { month: '2026-01', v: 3, days: { '2026-01-02': { issuedBase: 10, expired: 1 } }, folded: { '2026-01-02': ['a'] } };
    const after = foldInto(before, '2026-01', [item('2026-01-02', 'c', { expired: 4, issuedBase: -10 }), item('2026-01-31', '', { deducted: 2 })]);
    expect(after).toEqual({
      month: '2026-01',
      v: 4,
      days: { '2026-01-02': { expired: 5 }, '2026-01-31': { deducted: 2 } },
      folded: { '2026-01-02': ['a', 'c'], '2026-01-31': [''] },
    });
    // The roll-up as read is left as it was (it is the fold's condition).
    expect(before.days['2026-01-02']).toEqual({ issuedBase: 10, expired: 1 });
    expect(before.folded['2026-01-02']).toEqual(['a']);
  });
});

describe('foldsDue', () => {
  it('folds the day items of months before the first open one, one fold per month and shard', () => {
    const folds = foldsDue(
      read(3, [
        item('2026-01-31', 'a', { issuedBase: 1 }),
        item('2026-02-01', 'b', { issuedBase: 2 }),
        item('2026-02-28', 'c', { issuedBase: 3 }),
        item('2026-03-01', 'd', { issuedBase: 4 }),
      ]),
      '2026-03',
    );
    expect(folds.map((f) => [f.shard, f.month, f.items.map((i) => i.w), f.before])).toEqual([
      [3, '2026-01', ['a'], undefined],
      [3, '2026-02', ['b', 'c'], undefined],
    ]);
    expect(folds[1]!.after).toEqual(foldInto(undefined, '2026-02', folds[1]!.items));
  });

  it('folds a late item into the month roll-up read beside it, and leaves an item the roll-up already took', () => {
    const rollup: MonthItem = { month: '2026-01', v: 1, days: { '2026-01-10': { expired: 5 } }, folded: { '2026-01-10': ['a'] } };
    const folds = foldsDue(read(0, [item('2026-01-10', 'a', { expired: 5 }), item('2026-01-10', 'z', { expired: 2 })], [rollup]), '2026-02');
    expect(folds).toHaveLength(1);
    expect(folds[0]!.before).toBe(rollup);
    expect(folds[0]!.items.map((i) => i.w)).toEqual(['z']);
    expect(folds[0]!.after.days['2026-01-10']).toEqual({ expired: 7 });
  });

  it('folds nothing while every item is in an open month or taken', () => {
    const rollup: MonthItem = { month: '2026-01', v: 1, days: {}, folded: { '2026-01-10': ['a'] } };
    expect(foldsDue(read(0, [item('2026-01-10', 'a', { expired: 5 }), item('2026-02-01', 'b', { expired: 1 })], [rollup]), '2026-02')).toEqual([]);
    expect(foldsDue(read(0, [item('2026-02-01', 'b', { expired: 1 })]), '2026-02')).toEqual([]);
  });
});

describe('countedDays', () => {
  const january: MonthItem = {
    month: '2026-01',
    v: 2,
    days: { '2026-01-02': { issuedBase: 10, 'x2027-01': 10 }, '2026-01-20': { redeemed: 4 } },
    folded: { '2026-01-02': ['a'], '2026-01-20': ['b', 'late'] },
  };

  it('sums roll-ups, unfolded day items and every shard per day, oldest first', () => {
    const days = countedDays(
      [
        read(0, [item('2026-01-20', 'new', { expired: 1 }), item('2026-02-03', 'c', { issuedManual: 5 })], [january]),
        read(1, [item('2026-01-02', 'a', { issuedBase: 7 })]),
      ],
      '2026-12-31',
    );
    expect(days).toEqual([
      { day: '2026-01-02', counters: { issuedBase: 17, 'x2027-01': 10 } },
      { day: '2026-01-20', counters: { redeemed: 4, expired: 1 } },
      { day: '2026-02-03', counters: { issuedManual: 5 } },
    ]);
  });

  it('orders the days by date whatever order the shards hold them in, and leaves out a day that sums to nothing', () => {
    const days = countedDays(
      [
        read(0, [item('2026-03-09', 'a', { issuedBase: 3 }), item('2026-03-01', 'b', { redeemed: 2 })]),
        read(1, [item('2026-03-05', 'c', {}), item('2026-02-28', 'd', { expired: 1 })]),
      ],
      '2026-12-31',
    );
    expect(days.map((d) => d.day)).toEqual(['2026-02-28', '2026-03-01', '2026-03-09']);
  });

  it('counts a day item its roll-up already took once (a read that met a fold half way)', () => {
    const days = countedDays([read(0, [item('2026-01-20', 'late', { redeemed: 9 }), item('2026-01-02', 'a', { issuedBase: 10 })], [january])], '2026-12-31');
    expect(days).toEqual([
      { day: '2026-01-02', counters: { issuedBase: 10, 'x2027-01': 10 } },
      { day: '2026-01-20', counters: { redeemed: 4 } },
    ]);
  });

  it('leaves out the days after `to`, from day items and roll-ups alike, and days that add up to nothing', () => {
    const days = countedDays(
      [
        read(
          0,
          [item('2026-01-21', 'q', { issuedBase: 1 }), item('2026-01-19', 'r', { issuedBase: 2, redeemed: -4 }), item('2026-01-20', 's', { redeemed: -4 })],
          [january],
        ),
      ],
      '2026-01-20',
    );
    expect(days).toEqual([
      { day: '2026-01-02', counters: { issuedBase: 10, 'x2027-01': 10 } },
      { day: '2026-01-19', counters: { issuedBase: 2, redeemed: -4 } },
    ]);
    expect(countedDays([read(0, [], [january])], '2026-01-19')).toEqual([{ day: '2026-01-02', counters: { issuedBase: 10, 'x2027-01': 10 } }]);
    expect(countedDays([read(0, [], [january])], '2026-01-02')).toHaveLength(1);
    expect(countedDays([read(0, [], [january])], '2026-01-01')).toEqual([]);
  });
});

describe('a report over folded months and open days', () => {
  // Three shards' days of a quarter: two closed months, and March still day by day.
  const days: DayItem[][] = [0, 1, 2].map((shard) =>
    ['2026-01-01', '2026-01-15', '2026-01-31', '2026-02-01', '2026-02-14', '2026-02-28', '2026-03-01', '2026-03-05', '2026-03-09'].map((day, i) =>
      item(day, `w${shard}${i}`, {
        issuedBase: 100 * (shard + 1) + i,
        redeemed: 10 + i,
        expired: i % 3,
        pending: i % 2 === 0 ? 7 : -5,
        [`x2027-0${1 + (i % 3)}`]: 90 * (shard + 1) - 10 - (i % 3),
      }),
    ),
  );
  const unfolded = days.map((d, shard) => read(shard, d));
  const folded = unfolded.map((r) => {
    const folds = foldsDue(r, '2026-03');
    const taken = new Set(folds.flatMap((f) => f.items));
    return read(
      r.shard,
      r.days.filter((d) => !taken.has(d)),
      folds.map((f) => f.after),
    );
  });

  it('folds the closed months of every shard and leaves March in days', () => {
    expect(folded.map((r) => [r.months.map((m) => m.month), r.days.map((d) => d.day)])).toEqual(
      [0, 1, 2].map(() => [
        ['2026-01', '2026-02'],
        ['2026-03-01', '2026-03-05', '2026-03-09'],
      ]),
    );
  });

  it.each([
    ['2026-01-01', '2026-03-09', 'day'],
    ['2026-01-15', '2026-03-05', 'month'],
    ['2026-02-01', '2026-03-31', 'day'],
    ['2026-01-31', '2026-02-14', 'day'],
  ] as const)('from %s to %s by %s: the same figures as the days summed one by one', (from, to, granularity) => {
    const opts = { from, to, granularity, timeZone: 'UTC', pointValue: { EUR: 0.01 } };
    const dayByDay = pointsReport({ ...opts, days: countedDays(unfolded, to) });
    expect(pointsReport({ ...opts, days: countedDays(folded, to) })).toEqual(dayByDay);
    expect(dayByDay.totals.issued.total).toBeGreaterThan(0);
  });
});

describe('addToMonth', () => {
  it("adds the moves of the month's days to the month item as it stands, and no other month's", () => {
    const before: MonthItem = { month: '2026-01', v: 2, days: { '2026-01-02': { issuedBase: 10 } }, folded: { '2026-01-02': ['a'] } };
    const moves = new Map<string, DayItem['counters']>([
      ['2026-01-02', { issuedBase: 5, redeemed: 1 }],
      ['2026-01-09', { expired: 3 }],
      ['2026-02-01', { deducted: 9 }],
    ]);
    expect(addToMonth(before, '2026-01', moves)).toEqual({
      month: '2026-01',
      v: 3,
      days: { '2026-01-02': { issuedBase: 15, redeemed: 1 }, '2026-01-09': { expired: 3 } },
      folded: { '2026-01-02': ['a'] },
    });
    expect(addToMonth(undefined, '2026-02', moves)).toEqual({ month: '2026-02', v: 1, days: { '2026-02-01': { deducted: 9 } }, folded: {} });
    expect(before.days['2026-01-02']).toEqual({ issuedBase: 10 });
  });
});
