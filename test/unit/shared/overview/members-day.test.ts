import { describe, expect, it } from 'vitest';
import { ACTIVE_WINDOW, activeIn, activityMove, tierCounts, tierMove } from '../../../../shared/overview/members-day';
import { dayGap, previousPeriod } from '../../../../shared/overview/points-report';

describe('tierMove', () => {
  it('takes one off the tier left and adds one to the tier reached', () => {
    expect(tierMove('bronze', 'silver')).toEqual({ 't.bronze': -1, 't.silver': 1 });
    expect(tierMove(undefined, 'bronze')).toEqual({ 't.bronze': 1 });
    expect(tierMove('gold', undefined)).toEqual({ 't.gold': -1 });
    expect(tierMove('gold', 'gold')).toEqual({});
  });
});

describe('tierCounts', () => {
  it('reads the tier counters only, zeros left out', () => {
    expect([...tierCounts({ 't.bronze': 3, 't.gold': 0, members: 9, a1: 2, 'tx.silver': 4 })]).toEqual([['bronze', 3]]);
    expect([...tierCounts({ 't.': 1 })]).toEqual([['', 1]]);
  });
});

describe('dayGap', () => {
  it('counts whole days, across months and years', () => {
    expect(dayGap('2026-01-31', '2026-02-01')).toBe(1);
    expect(dayGap('2025-12-31', '2026-03-01')).toBe(60);
    expect(dayGap('2026-03-01', '2026-03-01')).toBe(0);
    expect(dayGap('2026-03-02', '2026-03-01')).toBe(-1);
  });
});

describe('activityMove', () => {
  it('counts a first activity of the day under the days since the previous one', () => {
    expect(activityMove(undefined, '2026-03-10')).toEqual({ aNew: 1 });
    expect(activityMove('2026-03-09', '2026-03-10')).toEqual({ a1: 1 });
    expect(activityMove('2026-03-10', '2026-03-10')).toEqual({});
    expect(activityMove('2026-03-11', '2026-03-10')).toEqual({});
  });

  it('counts a gap of the window itself, and a longer one as new', () => {
    expect(activityMove('2026-01-01', '2026-04-03')).toEqual({ [`a${ACTIVE_WINDOW}`]: 1 });
    expect(ACTIVE_WINDOW).toBe(92);
    expect(activityMove('2025-12-31', '2026-04-03')).toEqual({ aNew: 1 });
  });
});

/** Members' active days played through activityMove: the counters a day would hold. */
function daysOf(members: string[][]): { day: string; counters: Record<string, number> }[] {
  const byDay = new Map<string, Record<string, number>>();
  for (const days of members) {
    let previous: string | undefined;
    for (const day of days) {
      for (const [k, v] of Object.entries(activityMove(previous, day))) {
        const c = byDay.get(day) ?? {};
        c[k] = (c[k] ?? 0) + (v as number);
        byDay.set(day, c);
      }
      previous = day;
    }
  }
  return [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, counters]) => ({ day, counters }));
}

/** The distinct members with an active day in the period: what activeIn must equal. */
const distinct = (members: string[][], from: string, to: string) => members.filter((days) => days.some((d) => d >= from && d <= to)).length;

describe('activeIn', () => {
  const members = [
    ['2026-01-05', '2026-02-10', '2026-02-11', '2026-03-30'],
    ['2026-02-10'],
    ['2025-06-01', '2026-02-28', '2026-03-01'],
    ['2026-03-01', '2026-03-02', '2026-03-31'],
    ['2025-01-01'],
  ];
  const days = daysOf(members);

  it.each([
    ['2026-02-10', '2026-02-10'],
    ['2026-02-11', '2026-02-11'],
    ['2026-02-01', '2026-02-28'],
    ['2026-02-11', '2026-03-01'],
    ['2026-03-01', '2026-03-31'],
    ['2026-03-02', '2026-03-30'],
    ['2026-01-01', '2026-03-31'],
    ['2026-01-06', '2026-02-09'],
    ['2025-06-01', '2025-06-01'],
  ])('counts each member active in %s..%s once', (from, to) => {
    expect(activeIn(days, from, to)).toBe(distinct(members, from, to));
  });

  it('is exact up to the window and null beyond it, or for a period backwards', () => {
    expect(activeIn(days, '2026-01-01', '2026-04-02')).toBe(4);
    expect(activeIn(days, '2025-12-31', '2026-04-01')).toBe(4);
    expect(activeIn(days, '2025-12-31', '2026-04-02')).toBeNull();
    expect(activeIn(days, '2026-03-02', '2026-03-01')).toBeNull();
  });

  it('reads the activity counters only', () => {
    expect(activeIn([{ day: '2026-03-01', counters: { a1: 1, aNew: 2, issuedBase: 5, 't.gold': 1, ab: 7 } }], '2026-03-01', '2026-03-01')).toBe(3);
    expect(activeIn([{ day: '2026-03-01', counters: { a0: 4 } }], '2026-03-01', '2026-03-01')).toBe(0);
  });
});

describe('previousPeriod', () => {
  it('is the period of equal length just before', () => {
    expect(previousPeriod('2026-03-01', '2026-03-31')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
    expect(previousPeriod('2026-03-10', '2026-03-10')).toEqual({ from: '2026-03-09', to: '2026-03-09' });
    expect(previousPeriod('2026-01-01', '2026-01-07')).toEqual({ from: '2025-12-25', to: '2025-12-31' });
  });
});
