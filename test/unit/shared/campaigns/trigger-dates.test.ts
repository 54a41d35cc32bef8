import { describe, expect, it } from 'vitest';
import { credit, NO_LOTS } from '../../../../shared/members/member-lots';
import {
  birthdayDaysDue,
  birthdayIn,
  birthMonthDaysOn,
  dayKey,
  daysToVisit,
  inactivityDueAt,
  isLeapYear,
  nextDay,
  parseDay,
  previousDay,
  spellWindow,
} from '../../../../shared/campaigns/trigger-dates';

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString();
const at = (s: string) => Date.parse(s);

describe('birthdays', () => {
  it('leap years: every 4th, not every 100th, every 400th', () => {
    expect([2024, 2025, 2026, 2028, 1900, 2000, 2100].map(isLeapYear)).toEqual([true, false, false, true, false, true, false]);
  });

  it('a birthday is its month and day in the year; 29 February is kept on 28 February without a leap day', () => {
    expect(birthdayIn('1990-12-10', 2027)).toEqual({ year: 2027, month: 12, day: 10 });
    expect(birthdayIn('2000-02-29', 2027)).toEqual({ year: 2027, month: 2, day: 28 });
    expect(birthdayIn('2000-02-29', 2028)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(birthdayIn('2000-02-29', 2100)).toEqual({ year: 2100, month: 2, day: 28 });
    expect(birthdayIn('2000-02-28', 2028)).toEqual({ year: 2028, month: 2, day: 28 });
    expect(birthdayIn('1990-03-01', 2027)).toEqual({ year: 2027, month: 3, day: 1 });
    // Only 29 February moves: not another month's 29th, not another day of February.
    expect(birthdayIn('1990-01-29', 2027)).toEqual({ year: 2027, month: 1, day: 29 });
    expect(birthdayIn('1990-03-29', 2027)).toEqual({ year: 2027, month: 3, day: 29 });
    expect(birthdayIn('1990-02-15', 2027)).toEqual({ year: 2027, month: 2, day: 15 });
  });

  it('the birth dates a local day celebrates: its own, plus 29 February on 28 February of a common year', () => {
    expect(birthMonthDaysOn({ year: 2027, month: 2, day: 28 })).toEqual(['02-28', '02-29']);
    expect(birthMonthDaysOn({ year: 2028, month: 2, day: 28 })).toEqual(['02-28']);
    expect(birthMonthDaysOn({ year: 2028, month: 2, day: 29 })).toEqual(['02-29']);
    expect(birthMonthDaysOn({ year: 2027, month: 3, day: 1 })).toEqual(['03-01']);
    expect(birthMonthDaysOn({ year: 2027, month: 1, day: 5 })).toEqual(['01-05']);
    expect(birthMonthDaysOn({ year: 2027, month: 12, day: 28 })).toEqual(['12-28']);
    expect(birthMonthDaysOn({ year: 2027, month: 3, day: 28 })).toEqual(['03-28']);
    expect(birthMonthDaysOn({ year: 2027, month: 2, day: 27 })).toEqual(['02-27']);
  });

  it('a run grants the days after the last one it saw up to today in the program time zone, each from its local midnight', () => {
    const keys = (r: ReturnType<typeof birthdayDaysDue>) => r.days.map((d) => [dayKey(d.day), iso(d.at)]);
    const longAgo = at('2020-01-01T00:00:00Z');
    // 23:30 UTC on 31 December is already 1 January in Berlin: the new year's first day is due, from 23:00 UTC.
    const newYear = birthdayDaysDue('2026-12-31', longAgo, at('2026-12-31T23:30:00Z'), 'Europe/Berlin');
    expect(keys(newYear)).toEqual([['2027-01-01', '2026-12-31T23:00:00.000Z']]);
    expect(newYear.today).toBe('2027-01-01');
    // In UTC it is still 31 December, which the last run saw: nothing is due.
    expect(birthdayDaysDue('2026-12-31', longAgo, at('2026-12-31T23:30:00Z'), 'UTC')).toEqual({ days: [], today: '2026-12-31' });
    // In Tokyo the day starts at 15:00 UTC the day before.
    expect(keys(birthdayDaysDue('2027-02-27', longAgo, at('2027-02-28T15:00:00Z'), 'Asia/Tokyo'))).toEqual([
      ['2027-02-28', '2027-02-27T15:00:00.000Z'],
      ['2027-03-01', '2027-02-28T15:00:00.000Z'],
    ]);
    // Without a run before: from the day the campaigns were set up (that day included).
    expect(keys(birthdayDaysDue(undefined, at('2027-03-10T12:00:00Z'), at('2027-03-11T12:00:00Z'), 'UTC'))).toEqual([
      ['2027-03-10', '2027-03-10T00:00:00.000Z'],
      ['2027-03-11', '2027-03-11T00:00:00.000Z'],
    ]);
    // A run long ago never grants the days before the campaigns were set up.
    expect(keys(birthdayDaysDue('2025-01-01', at('2027-03-11T12:00:00Z'), at('2027-03-11T13:00:00Z'), 'UTC'))).toEqual([
      ['2027-03-11', '2027-03-11T00:00:00.000Z'],
    ]);
    // A later run mark wins over the set-up day.
    expect(keys(birthdayDaysDue('2027-03-11', at('2027-03-01T00:00:00Z'), at('2027-03-12T01:00:00Z'), 'UTC'))).toEqual([
      ['2027-03-12', '2027-03-12T00:00:00.000Z'],
    ]);
  });

  it('days are counted across month, year and leap-day ends', () => {
    expect(nextDay({ year: 2027, month: 2, day: 28 })).toEqual({ year: 2027, month: 3, day: 1 });
    expect(nextDay({ year: 2028, month: 2, day: 28 })).toEqual({ year: 2028, month: 2, day: 29 });
    expect(nextDay({ year: 2026, month: 12, day: 31 })).toEqual({ year: 2027, month: 1, day: 1 });
    expect(previousDay({ year: 2027, month: 1, day: 1 })).toEqual({ year: 2026, month: 12, day: 31 });
    expect(previousDay({ year: 2028, month: 3, day: 1 })).toEqual({ year: 2028, month: 2, day: 29 });
    expect(dayKey({ year: 2027, month: 3, day: 9 })).toBe('2027-03-09');
    expect(dayKey({ year: 999, month: 10, day: 19 })).toBe('0999-10-19');
    expect(parseDay('2027-03-09')).toEqual({ year: 2027, month: 3, day: 9 });
  });

  it('a run visits the days after the last one it saw up to today, at most a year of them', () => {
    expect(daysToVisit(parseDay('2026-12-30'), parseDay('2027-01-02')).map(dayKey)).toEqual(['2026-12-31', '2027-01-01', '2027-01-02']);
    expect(daysToVisit(parseDay('2027-01-02'), parseDay('2027-01-02'))).toEqual([]);
    expect(daysToVisit(parseDay('2027-01-03'), parseDay('2027-01-02'))).toEqual([]);
    const long = daysToVisit(parseDay('2020-01-01'), parseDay('2027-01-02'));
    expect(long).toHaveLength(366);
    expect(dayKey(long[0]!)).toBe('2026-01-02');
    expect(dayKey(long.at(-1)!)).toBe('2027-01-02');
    expect(daysToVisit(parseDay('2027-01-01'), parseDay('2027-01-05'), 2).map(dayKey)).toEqual(['2027-01-04', '2027-01-05']);
  });
});

describe('inactivity', () => {
  it('a spell reaches its days exactly that many whole days after the last activity', () => {
    expect(iso(inactivityDueAt(at('2026-12-01T10:00:00Z'), 90))).toBe('2027-03-01T10:00:00.000Z');
    expect(inactivityDueAt(0, 1)).toBe(DAY);
  });

  it('a run from `from` to `to` reads the last activities whose spell reached `days` in between, and nothing when time did not move', () => {
    const from = at('2027-03-01T00:00:00Z');
    const to = at('2027-03-02T00:00:00Z');
    expect(spellWindow(from, to, 90)).toEqual({ after: from - 90 * DAY, through: to - 90 * DAY });
    expect(spellWindow(to, to, 90)).toBeNull();
    expect(spellWindow(to, from, 90)).toBeNull();
    expect(spellWindow(from, from + 1, 0)).toEqual({ after: from, through: from + 1 });
  });

  it("a campaign's reward is no activity: the spell keeps its start; an earn moves it", () => {
    const rules = { expiry: { policy: 'none' as const }, warnDays: [], pendingDays: 0 };
    const earned = credit(NO_LOTS, { id: 'a', points: 10, orderId: null }, 1000, rules, 'UTC');
    expect(earned.lastActivityAt).toBe(1000);
    const rewarded = credit(earned, { id: 'b', points: 5, orderId: null }, 2000, rules, 'UTC', false);
    expect(rewarded.lastActivityAt).toBe(1000);
    expect(rewarded.lots.map((l) => l.points)).toEqual([10, 5]);
    expect(credit(NO_LOTS, { id: 'c', points: 5, orderId: null }, 2000, rules, 'UTC', false).lastActivityAt).toBeNull();
    expect(credit(rewarded, { id: 'd', points: 1, orderId: null }, 3000, rules, 'UTC').lastActivityAt).toBe(3000);
  });
});
