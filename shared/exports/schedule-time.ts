/**
 * When a schedule's runs are due: pure. A schedule runs once per period, at `hour` o'clock in its
 * IANA time zone, every day or on one weekday. A period is named by the local date of its run
 * (`YYYY-MM-DD`), so periods sort in time and "this period already ran" is one string comparison.
 */
import { WEEKDAYS, type Weekday } from './entities';

export interface ScheduleRule {
  frequency: 'daily' | 'weekly';
  /** Weekly only. */
  weekday: Weekday | null;
  /** 0-23, local time. */
  hour: number;
  timezone: string;
}

/** Whether `tz` is a time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

interface LocalParts {
  date: string;
  hour: number;
  weekday: number;
}

function localParts(at: Date, timezone: string): LocalParts {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    weekday: WEEKDAYS.indexOf(String(parts.weekday).toLowerCase() as Weekday),
  };
}

/** The calendar date `days` after `date` (YYYY-MM-DD). */
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The latest period whose run time has come at `now` (undefined: none yet, e.g. a weekly schedule
 * before its first weekday). A tick that comes late, or twice, finds the same period.
 */
export function duePeriod(rule: ScheduleRule, now: Date): string | undefined {
  const local = localParts(now, rule.timezone);
  const reached = local.hour >= rule.hour;
  if (rule.frequency === 'daily') return reached ? local.date : addDays(local.date, -1);
  const target = WEEKDAYS.indexOf(rule.weekday ?? 'monday');
  let back = (local.weekday - target + 7) % 7;
  if (back === 0 && !reached) back = 7;
  return addDays(local.date, -back);
}

/** The period a schedule created at `createdAt` runs first: the first one whose run time comes after its creation. */
export function firstPeriod(rule: ScheduleRule, createdAt: Date): string {
  const current = duePeriod(rule, createdAt);
  return addDays(current ?? localParts(createdAt, rule.timezone).date, rule.frequency === 'daily' ? 1 : 7);
}
