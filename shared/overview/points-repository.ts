import { keyOf } from '../platform/data/keys';
import { queryRaw } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';

/**
 * Shards of a workspace's points days. A change moves one shard's day item, chosen at random: two
 * concurrent changes rarely share an item (no transaction conflict), and the shards are partitions
 * of their own, so a busy workspace's counters do not pile into one. A report reads them all.
 */
export const POINTS_SHARDS = 8;

const dayKey = (workspaceId: string, shard: number, day: string) => keyOf('pointsDay', { workspaceId, shard, day });

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
          UpdateExpression: `SET entity = :e, #day = :day ADD ${moved.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
          ExpressionAttributeNames: { ...names, '#day': 'day' },
          ExpressionAttributeValues: { ...values, ':e': 'pointsDay', ':day': day },
        },
      },
    };
  });
}

/** Counters of one local day, summed over the shards (what points-day.ts names `DayCounters`). */
export interface CountedDay {
  day: string;
  counters: Record<string, number>;
}

const NOT_COUNTERS = new Set(['pk', 'sk', 'entity', 'day']);

/**
 * Every day up to `to` (included; `yyyy-mm-dd`), oldest first, each summed over the shards: one
 * Query per shard, in parallel. What the workspace did before a period is its opening balance, so
 * the report reads from the first day (a few hundred small items a year per shard).
 */
export async function daysThrough(workspaceId: string, to: string): Promise<CountedDay[]> {
  const byDay = new Map<string, Record<string, number>>();
  await Promise.all(
    Array.from({ length: POINTS_SHARDS }, async (_, shard) => {
      const { pk } = dayKey(workspaceId, shard, to);
      let start: Record<string, unknown> | undefined;
      do {
        const page = await queryRaw({
          KeyConditionExpression: 'pk = :pk AND sk <= :to',
          ExpressionAttributeValues: { ':pk': pk, ':to': `DAY#${to}` },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        });
        for (const item of page.Items ?? []) {
          const day = String(item.day);
          const sum = byDay.get(day) ?? {};
          for (const [k, v] of Object.entries(item)) if (!NOT_COUNTERS.has(k) && typeof v === 'number') sum[k] = (sum[k] ?? 0) + v;
          byDay.set(day, sum);
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
  return [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, counters]) => ({ day, counters }));
}
