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

/** The step that moves the totals, for the transaction of the change (none when nothing moves). */
export function figuresStep(workspaceId: string, delta: Partial<Figures>): TransactStep[] {
  const moved = FIGURE_NAMES.filter((f) => delta[f]);
  if (moved.length === 0) return [];
  const shard = Math.floor(Math.random() * FIGURE_SHARDS);
  return [
    {
      op: {
        Update: {
          Key: shardKey(workspaceId, shard),
          UpdateExpression: `SET entity = :e ADD ${moved.map((f) => `${f} :${f}`).join(', ')}`,
          ExpressionAttributeValues: { ':e': 'workspaceFigures', ...Object.fromEntries(moved.map((f) => [`:${f}`, delta[f]])) },
        },
      },
    },
  ];
}

/** The totals: one Query of the shards, summed. */
export async function readFigures(workspaceId: string): Promise<Figures> {
  const page = await prefixPage<Partial<Figures>>(shardKey(workspaceId, 0).pk, skPrefix('workspaceFigures'), { limit: FIGURE_SHARDS });
  const sum = (f: keyof Figures) => page.items.reduce((n, s) => n + (s[f] ?? 0), 0);
  return { members: sum('members'), pointsIssued: sum('pointsIssued'), pointsRedeemed: sum('pointsRedeemed'), orders: sum('orders') };
}
