import { randomBytes } from 'node:crypto';
import { keyOf } from '../platform/data/keys';
import { getItem } from '../platform/data/items';
import { queryRaw } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

/**
 * Shards of a workspace's points days. A change moves one shard's day item, chosen at random: two
 * concurrent changes rarely share an item (no transaction conflict), and the shards are partitions
 * of their own, so a busy workspace's counters do not pile into one. A report reads them all.
 */
export const POINTS_SHARDS = 8;
/** The shard the backfill writes (month items only): no change picks it, every read reads it. */
export const BACKFILL_SHARD = POINTS_SHARDS;

const dayKey = (workspaceId: string, shard: number, day: string) => keyOf('pointsDay', { workspaceId, shard, day });
const monthKey = (workspaceId: string, shard: number, month: string) => keyOf('pointsMonth', { workspaceId, shard, month });

/** A fresh write id: what a fold's delete checks is still the day item's last write. */
const writeId = () => randomBytes(6).toString('base64url');

/** The steps that move the day counters, for the transaction of the change: one item per day moved (almost always one). */
export function pointsDaySteps(
  workspaceId: string,
  moves: ReadonlyMap<string, Readonly<Record<string, number | undefined>>>,
  shard = Math.floor(Math.random() * POINTS_SHARDS),
): TransactStep[] {
  return [...moves].map(([day, counters]) => {
    const moved = Object.entries(counters).filter((c): c is [string, number] => c[1] !== undefined && c[1] !== 0);
    const names = Object.fromEntries(moved.map(([k], i) => [`#c${i}`, k]));
    const values = Object.fromEntries(moved.map(([, v], i) => [`:c${i}`, v]));
    return {
      op: {
        Update: {
          Key: dayKey(workspaceId, shard, day),
          UpdateExpression: `SET entity = :e, #day = :day, w = :w ADD ${moved.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
          ExpressionAttributeNames: { ...names, '#day': 'day' },
          ExpressionAttributeValues: { ...values, ':e': 'pointsDay', ':day': day, ':w': writeId() },
        },
      },
    };
  });
}

/** Counters by name (points-day.ts names them: `DayCounters`). */
type Counters = Record<string, number>;

/** A day item of one shard as read: its local day, its last write and its counters. */
export interface DayItem {
  day: string;
  /** The last change's write id; '' for an item written before writes carried one. */
  w: string;
  counters: Counters;
}

/** A month roll-up of one shard: the counters of each folded day, and the writes it absorbed per day. */
export interface MonthItem {
  month: string;
  /** Folds so far: the next fold's condition. */
  v: number;
  days: Record<string, Counters>;
  folded: Record<string, string[]>;
}

/** One shard's items through a period's end month: its day items left unfolded, and its roll-ups. */
export interface ShardRead {
  shard: number;
  days: DayItem[];
  months: MonthItem[];
}

/** Counters of one local day summed over the shards and roll-ups. */
export interface CountedDay {
  day: string;
  counters: Counters;
}

/** A fold to commit: the shard's roll-up of a month as read (if any), the day items to take into it, and the roll-up they make. */
export interface Fold {
  shard: number;
  month: string;
  before: MonthItem | undefined;
  items: DayItem[];
  after: MonthItem;
}

const NOT_COUNTERS = new Set(['pk', 'sk', 'entity', 'day', 'w']);

function dayItemOf(item: Record<string, unknown>): DayItem {
  const counters: Record<string, number> = {};
  for (const [k, v] of Object.entries(item)) if (!NOT_COUNTERS.has(k) && typeof v === 'number') counters[k] = v;
  return { day: String(item.day), w: typeof item.w === 'string' ? item.w : '', counters };
}

const monthItemOf = (item: Record<string, unknown>): MonthItem => ({
  month: String(item.month),
  v: Number(item.v),
  days: (item.days ?? {}) as MonthItem['days'],
  folded: (item.folded ?? {}) as MonthItem['folded'],
});

/**
 * One shard's items through `to`'s month: every day item left unfolded (a day sorts before every
 * month: `DAY#` < `MONTH#`) and the roll-ups, in one Query. Days after `to` come along (at most the
 * open month's); the sum leaves them out.
 */
async function readShard(workspaceId: string, shard: number, to: string): Promise<ShardRead> {
  const read: ShardRead = { shard, days: [], months: [] };
  const { pk, sk } = monthKey(workspaceId, shard, to.slice(0, 7));
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryRaw({
      KeyConditionExpression: 'pk = :pk AND sk <= :to',
      ExpressionAttributeValues: { ':pk': pk, ':to': sk },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    });
    for (const item of page.Items ?? []) {
      if (item.entity === 'pointsMonth') read.months.push(monthItemOf(item));
      else if (item.entity === 'pointsDay') read.days.push(dayItemOf(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return read;
}

/** Every shard's items through `to` (`yyyy-mm-dd`), the backfill's included: one Query per shard, in parallel. */
export const readPointShards = (workspaceId: string, to: string): Promise<ShardRead[]> =>
  Promise.all(Array.from({ length: POINTS_SHARDS + 1 }, (_, shard) => readShard(workspaceId, shard, to)));

/**
 * One shard's day items of the closed months (before `openFrom`, `yyyy-mm`) and the roll-ups of
 * those months: what the scheduled fold needs, without the roll-ups of every earlier month a
 * report reads. Only day items sort below `DAY#{openFrom}-01` in the shard's partition.
 */
async function readClosedDays(workspaceId: string, shard: number, openFrom: string): Promise<ShardRead> {
  const read: ShardRead = { shard, days: [], months: [] };
  const { pk, sk } = dayKey(workspaceId, shard, `${openFrom}-01`);
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryRaw({
      KeyConditionExpression: 'pk = :pk AND sk < :open',
      ExpressionAttributeValues: { ':pk': pk, ':open': sk },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    });
    for (const item of page.Items ?? []) if (item.entity === 'pointsDay') read.days.push(dayItemOf(item));
    start = page.LastEvaluatedKey;
  } while (start);
  const months = [...new Set(read.days.map((d) => d.day.slice(0, 7)))];
  const items = await Promise.all(months.map((month) => getItem(monthKey(workspaceId, shard, month))));
  read.months = items.flatMap((i) => (i ? [monthItemOf(i)] : []));
  return read;
}

/** Every shard's day items of closed months, with their months' roll-ups: one Query per shard (and a read per month found), in parallel. */
export const readClosedPointDays = (workspaceId: string, openFrom: string): Promise<ShardRead[]> =>
  Promise.all(Array.from({ length: POINTS_SHARDS }, (_, shard) => readClosedDays(workspaceId, shard, openFrom)));

/**
 * Commits one fold: the roll-up written on the condition that it is still as read, and each day
 * item it took deleted on the condition that its last write is still the one read. Rejects (and
 * changes nothing) when a change or another fold came between.
 */
export async function commitFold(workspaceId: string, fold: Fold): Promise<void> {
  const { shard, month, before, items, after } = fold;
  const steps: TransactStep[] = [
    {
      op: {
        Put: {
          Item: { ...monthKey(workspaceId, shard, month), entity: 'pointsMonth', ...after },
          ConditionExpression: before ? 'v = :v' : 'attribute_not_exists(pk)',
          ...(before ? { ExpressionAttributeValues: { ':v': before.v } } : {}),
        },
      },
    },
    ...items.map(
      (item): TransactStep => ({
        op: {
          Delete: {
            Key: dayKey(workspaceId, shard, item.day),
            ...(item.w
              ? { ConditionExpression: 'w = :w', ExpressionAttributeValues: { ':w': item.w } }
              : { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(w)' }),
          },
        },
      }),
    ),
  ];
  await transactWrite(steps);
}

/** Where a workspace's backfill stands (absent: never started). */
export interface BackfillProgress {
  /** Entries written before this instant were never counted: the backfill counts them. */
  cutOver: string;
  /** The member list's cursor of the next page; null once every member was counted. */
  cursor: string | null;
  members: number;
  done: boolean;
  v: number;
}

const progressKey = (workspaceId: string) => keyOf('pointsBackfill', { workspaceId });

export async function backfillProgress(workspaceId: string): Promise<BackfillProgress | undefined> {
  const item = await getItem<BackfillProgress & { entity: string }>(progressKey(workspaceId));
  return item && { cutOver: item.cutOver, cursor: item.cursor ?? null, members: item.members, done: item.done, v: item.v };
}

/** The backfill's month items of these months as they stand. */
export async function backfillMonths(workspaceId: string, months: readonly string[]): Promise<Map<string, MonthItem>> {
  const items = await Promise.all(months.map((month) => getItem(monthKey(workspaceId, BACKFILL_SHARD, month))));
  return new Map(items.flatMap((i) => (i ? [[String(i.month), monthItemOf(i)] as const] : [])));
}

/**
 * Commits one page of the backfill: its month items and the progress that says the page is done, in
 * one transaction on the condition that both are as read, so a page is counted exactly once however
 * often (or however many at once) it is run.
 */
export async function commitBackfillPage(
  workspaceId: string,
  progress: { before: BackfillProgress | undefined; after: BackfillProgress },
  months: readonly { before: MonthItem | undefined; after: MonthItem }[],
): Promise<void> {
  const versioned = (before: { v: number } | undefined) =>
    before ? { ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': before.v } } : { ConditionExpression: 'attribute_not_exists(pk)' };
  await transactWrite([
    ...months.map(
      (m): TransactStep => ({
        op: { Put: { Item: { ...monthKey(workspaceId, BACKFILL_SHARD, m.after.month), entity: 'pointsMonth', ...m.after }, ...versioned(m.before) } },
      }),
    ),
    { op: { Put: { Item: { ...progressKey(workspaceId), entity: 'pointsBackfill', ...progress.after }, ...versioned(progress.before) } } },
  ]);
}
