import { keyOf, skPrefix } from '../platform/data/keys';
import { prefixPage } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';

/**
 * The overview's running totals of a workspace. Members are counted here; points and orders were,
 * until the points day counters took them over (points-repository.ts): their figures here are what
 * was counted before.
 */
export interface Figures {
  members: number;
  pointsIssued: number;
  pointsRedeemed: number;
  orders: number;
}

export const FIGURE_NAMES = ['members', 'pointsIssued', 'pointsRedeemed', 'orders'] as const satisfies readonly (keyof Figures)[];

/** Shards of the totals: a change moves one, chosen at random, so two concurrent changes rarely share an item. */
export const FIGURE_SHARDS = 8;

const shardKey = (workspaceId: string, shard: number) => keyOf('workspaceFigures', { workspaceId, shard: String(shard) });

/**
 * The step that moves the totals, for the transaction of the change (none when nothing moves).
 * `tiers`: members entering (+1) or leaving (-1) a tier outside a points change (enrolled, removed,
 * a tier set by an import), as `t.<key>` counters (`members-day.ts`).
 */
export function figuresStep(workspaceId: string, delta: Partial<Figures>, tiers: Readonly<Record<string, number>> = {}): TransactStep[] {
  const moved: [string, number][] = [
    ...FIGURE_NAMES.flatMap((f): [string, number][] => (delta[f] ? [[f, delta[f]]] : [])),
    ...Object.entries(tierMoveOf(tiers)).filter(([, v]) => v !== 0),
  ];
  if (moved.length === 0) return [];
  const shard = Math.floor(Math.random() * FIGURE_SHARDS);
  return [
    {
      op: {
        Update: {
          Key: shardKey(workspaceId, shard),
          UpdateExpression: `SET entity = :e ADD ${moved.map((_, i) => `#f${i} :f${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(moved.map(([f], i) => [`#f${i}`, f])),
          ExpressionAttributeValues: { ':e': 'workspaceFigures', ...Object.fromEntries(moved.map(([, v], i) => [`:f${i}`, v])) },
        },
      },
    },
  ];
}

/** `{ gold: 1, silver: -1 }` as the counters' names. */
const tierMoveOf = (tiers: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(Object.entries(tiers).map(([key, v]) => [`t.${key}`, v]));

/** The totals, and every counter of the shards summed (the tiers' among them): one Query. */
export async function readFigures(workspaceId: string): Promise<Figures & { counters: Record<string, number> }> {
  const page = await prefixPage<Record<string, unknown>>(shardKey(workspaceId, 0).pk, skPrefix('workspaceFigures'), { limit: FIGURE_SHARDS });
  const counters: Record<string, number> = {};
  for (const item of page.items) for (const [k, v] of Object.entries(item)) if (typeof v === 'number') counters[k] = (counters[k] ?? 0) + v;
  const sum = (f: keyof Figures) => counters[f] ?? 0;
  return { members: sum('members'), pointsIssued: sum('pointsIssued'), pointsRedeemed: sum('pointsRedeemed'), orders: sum('orders'), counters };
}
