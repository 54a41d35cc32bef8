/**
 * When the time-driven campaign triggers occur: pure. A birthday is a local date in the program's
 * time zone (29 February on 28 February in other years); an inactivity spell reaches `days` whole
 * days after the member's last earn or spend.
 */
import { DAY_MS, localDate, startOfLocalDay } from '../program';

export interface LocalDay {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
}

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of a local day. */
export const dayKey = (d: LocalDay): string => `${String(d.year).padStart(4, '0')}-${pad(d.month)}-${pad(d.day)}`;

/** The local day a `YYYY-MM-DD` names. */
export function parseDay(key: string): LocalDay {
  const [year, month, day] = key.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

/** The day after `d` (month and year ends included). */
export function nextDay(d: LocalDay): LocalDay {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day) + DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** The day before `d`. */
export function previousDay(d: LocalDay): LocalDay {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day) - DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** The birthday of a member born on `birthDate` (YYYY-MM-DD) in `year`: 29 February is kept on 28 February in a year without one. */
export function birthdayIn(birthDate: string, year: number): LocalDay {
  const { month, day } = parseDay(birthDate);
  return month === 2 && day === 29 && !isLeapYear(year) ? { year, month: 2, day: 28 } : { year, month, day };
}

/** The birth dates (as MM-DD) whose birthday is the local day `d`: its own, and 29 February on 28 February of a year without one. */
export function birthMonthDaysOn(d: LocalDay): string[] {
  const own = `${pad(d.month)}-${pad(d.day)}`;
  return [...new Set([own, '02-29'])].filter((monthDay) => dayKey(birthdayIn(`2000-${monthDay}`, d.year)) === dayKey(d));
}

/**
 * The local days whose birthdays a run at `now` grants, each with the instant it starts in
 * `timeZone`: the days after the last one a run saw (`through`), or from the day the campaigns were
 * last set up (`since`) when that is later, up to today. `today` is what the next run starts after.
 */
export function birthdayDaysDue(
  through: string | undefined,
  since: number,
  now: number,
  timeZone: string,
): { days: { day: LocalDay; at: number }[]; today: string } {
  const today = localDate(now, timeZone);
  const floor = dayKey(previousDay(localDate(since, timeZone)));
  // The later of the two (day keys sort as dates).
  const from = [floor, through ?? floor].sort().at(-1)!;
  return { days: daysToVisit(parseDay(from), today).map((day) => ({ day, at: startOfLocalDay(day, timeZone) })), today: dayKey(today) };
}

/**
 * The local days after `through` up to `today`, oldest first: what a run has to look at for
 * birthdays. At most `max` days (the last ones): a longer gap only catches up the most recent year.
 */
export function daysToVisit(through: LocalDay, today: LocalDay, max = 366): LocalDay[] {
  const days: LocalDay[] = [];
  for (let d = nextDay(through); dayKey(d) <= dayKey(today); d = nextDay(d)) days.push(d);
  return days.slice(-max);
}

/** The instant an inactivity spell that started at `lastActivityAt` reaches `days` days. */
export const inactivityDueAt = (lastActivityAt: number, days: number): number => lastActivityAt + days * DAY_MS;

/**
 * The last activities whose spell reaches `days` in (`from`, `to`]: a run that looked up to `from`
 * and now looks up to `to` reads the members last active in this window, and no other.
 */
export function spellWindow(from: number, to: number, days: number): { after: number; through: number } | null {
  if (to <= from) return null;
  return { after: from - days * DAY_MS, through: to - days * DAY_MS };
}
