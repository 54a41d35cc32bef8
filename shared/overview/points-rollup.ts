/**
 * The points month roll-ups, pure: a closed month's day items of one shard folded into one item
 * (`pointsMonth`), so a report of a year reads a dozen items per shard instead of hundreds.
 *
 * A fold deletes the day items it took, each on the condition that its last write (`w`, a random id
 * every change sets) is still the one read, in the transaction that writes the roll-up: a point is
 * in the roll-up or in a day item, never both. A change dated in a folded month (an expiry booked
 * late) makes a new day item, counted beside the roll-up and folded by a later read. The roll-up
 * lists the writes it absorbed per day, so a reader whose Query saw a day item just before a fold
 * deleted it, and the roll-up just after, counts it once.
 */
import { addCounters, type DayCounters } from './points-day';
import type { CountedDay, DayItem, Fold, MonthItem, ShardRead } from './points-repository';

const monthOf = (day: string) => day.slice(0, 7);

/** Whether the shard's roll-up of the day's month already holds this day item's last write. */
function absorbed(item: DayItem, months: ReadonlyMap<string, MonthItem>): boolean {
  return months.get(monthOf(item.day))?.folded[item.day]?.includes(item.w) ?? false;
}

const byMonth = (read: ShardRead) => new Map(read.months.map((m) => [m.month, m]));

/** Every counted day through `to` (included), oldest first: the roll-ups' days and the day items not yet folded, summed over the shards. */
export function countedDays(reads: readonly ShardRead[], to: string): CountedDay[] {
  const sums = new Map<string, DayCounters>();
  const add = (day: string, counters: DayCounters) => {
    if (day <= to) sums.set(day, addCounters(sums.get(day) ?? {}, counters));
  };
  for (const read of reads) {
    const months = byMonth(read);
    for (const m of read.months) for (const [day, counters] of Object.entries(m.days)) add(day, counters);
    for (const item of read.days) if (!absorbed(item, months)) add(item.day, item.counters);
  }
  return [...sums]
    .filter(([, counters]) => Object.keys(counters).length > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, counters]) => ({ day, counters }));
}

/** The roll-up a month's day items make, added to the roll-up as it stands (none yet: a first fold). */
export function foldInto(before: MonthItem | undefined, month: string, items: readonly DayItem[]): MonthItem {
  const days = { ...before?.days };
  const folded = { ...before?.folded };
  for (const item of items) {
    days[item.day] = addCounters(days[item.day] ?? {}, item.counters);
    folded[item.day] = [...(folded[item.day] ?? []), item.w];
  }
  return { month, v: (before?.v ?? 0) + 1, days, folded };
}

/**
 * The folds a shard's read calls for: its day items of months before `openFrom` (`yyyy-mm`, the
 * first month still open), one fold per month, skipping items its roll-up already absorbed.
 */
export function foldsDue(read: ShardRead, openFrom: string): Fold[] {
  const months = byMonth(read);
  const due = new Map<string, DayItem[]>();
  for (const item of read.days) {
    const month = monthOf(item.day);
    if (month >= openFrom || absorbed(item, months)) continue;
    due.set(month, [...(due.get(month) ?? []), item]);
  }
  return [...due].map(([month, items]) => {
    const before = months.get(month);
    return { shard: read.shard, month, before, items, after: foldInto(before, month, items) };
  });
}

/** A month item with `moves` added to its days (what the backfill writes: it folds no day items). */
export function addToMonth(before: MonthItem | undefined, month: string, moves: ReadonlyMap<string, DayCounters>): MonthItem {
  const days = { ...before?.days };
  for (const [day, counters] of moves) if (monthOf(day) === month) days[day] = addCounters(days[day] ?? {}, counters);
  return { month, v: (before?.v ?? 0) + 1, days, folded: before?.folded ?? {} };
}
