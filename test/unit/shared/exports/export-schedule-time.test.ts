import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duePeriod, firstPeriod, isTimeZone } from '../../../../shared/exports/schedule-time';
import { WEEKDAYS } from '../../../../shared/exports/entities';

const daily = (hour: number, timezone = 'Europe/Berlin') => ({ frequency: 'daily' as const, weekday: null, hour, timezone });
const weekly = (weekday: (typeof WEEKDAYS)[number], hour: number, timezone = 'UTC') => ({ frequency: 'weekly' as const, weekday, hour, timezone });

describe('export schedule periods', () => {
  it('daily: the local date once the local hour has come, else the day before', () => {
    // 2026-03-04 is a Wednesday; Berlin is UTC+1 in March.
    expect(duePeriod(daily(6), new Date('2026-03-04T04:59:00Z'))).toBe('2026-03-03');
    expect(duePeriod(daily(6), new Date('2026-03-04T05:00:00Z'))).toBe('2026-03-04');
    // Local midnight differs from UTC: 23:30 UTC is already the next day in Berlin.
    expect(duePeriod(daily(0), new Date('2026-03-04T23:30:00Z'))).toBe('2026-03-05');
    expect(duePeriod(daily(9, 'America/New_York'), new Date('2026-03-04T13:59:00Z'))).toBe('2026-03-03');
    expect(duePeriod(daily(9, 'America/New_York'), new Date('2026-03-04T14:00:00Z'))).toBe('2026-03-04');
  });

  it('weekly: the latest local date of the weekday whose hour has come', () => {
    expect(duePeriod(weekly('wednesday', 8), new Date('2026-03-04T07:00:00Z'))).toBe('2026-02-25');
    expect(duePeriod(weekly('wednesday', 8), new Date('2026-03-04T08:00:00Z'))).toBe('2026-03-04');
    expect(duePeriod(weekly('monday', 8), new Date('2026-03-04T08:00:00Z'))).toBe('2026-03-02');
    expect(duePeriod(weekly('sunday', 23), new Date('2026-03-07T12:00:00Z'))).toBe('2026-03-01');
  });

  it('a new schedule first runs at the first run time after its creation', () => {
    expect(firstPeriod(daily(6), new Date('2026-03-04T04:00:00Z'))).toBe('2026-03-04');
    expect(firstPeriod(daily(6), new Date('2026-03-04T06:00:00Z'))).toBe('2026-03-05');
    expect(firstPeriod(weekly('monday', 8), new Date('2026-03-04T08:00:00Z'))).toBe('2026-03-09');
  });

  it('the due period never goes back in time and a period is due for at most one day (daily) or week (weekly)', () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Auckland'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2026-01-01'), max: Date.parse('2028-12-31') }),
        fc.integer({ min: 0, max: 6 * 3600_000 }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom(...zones),
        fc.option(fc.constantFrom(...WEEKDAYS), { nil: null }),
        (t, step, hour, timezone, weekday) => {
          const rule = weekday ? weekly(weekday, hour, timezone) : daily(hour, timezone);
          const a = duePeriod(rule, new Date(t))!;
          const b = duePeriod(rule, new Date(t + step))!;
          expect(b >= a).toBe(true);
          const span = (Date.parse(b) - Date.parse(a)) / 86_400_000;
          expect(span <= (weekday ? 7 : 1)).toBe(true);
        },
      ),
    );
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
