/**
 * Calendar arithmetic in a workspace's IANA time zone: pure. Program dates (a month's end, a calendar
 * year) are local dates, but every stored time is an instant (UTC), so each boundary is the local
 * midnight converted back to an instant, which moves with daylight saving.
 */

export const DAY_MS = 86_400_000;

interface LocalDate {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading of `instant` in `timeZone`, as if that reading were UTC (ms). */
function wallClockMs(instant: number, timeZone: string): number {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((x) => [x.type, Number(x.value)]),
  );
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) + (((instant % 1000) + 1000) % 1000);
}

/** The local calendar date of `instant` in `timeZone`. */
export function localDate(instant: number, timeZone: string): LocalDate {
  const d = new Date(wallClockMs(instant, timeZone));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * The instant at which the local midnight starting `date` happens in `timeZone`. The zone's offset is
 * read at a first guess and again at the result, which settles both sides of a DST change.
 */
export function startOfLocalDay(date: LocalDate, timeZone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day);
  let guess = wall - (wallClockMs(wall, timeZone) - wall);
  guess = wall - (wallClockMs(guess, timeZone) - guess);
  return guess;
}

/** The first instant of the local month after the one `instant` falls in: its month ends just before. */
export function startOfNextMonth(instant: number, timeZone: string): number {
  const { year, month } = localDate(instant, timeZone);
  return startOfLocalDay(month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 }, timeZone);
}

/** The first instant of the local calendar year `instant` falls in. */
export function startOfYear(instant: number, timeZone: string): number {
  return startOfLocalDay({ year: localDate(instant, timeZone).year, month: 1, day: 1 }, timeZone);
}

/** Whether `timeZone` is a time zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}
