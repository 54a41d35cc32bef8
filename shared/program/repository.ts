import type { ProgramRecord } from './entities';
import { conflict } from '../platform/errors';
import { keyOf } from '../platform/data/keys';
import { getItem } from '../platform/data/items';
import { queryRaw } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

/** The stored program; rules stored before points, time zone, order times and point values existed have none (the domain fills the defaults). */
export type StoredProgram = Omit<ProgramRecord, 'points' | 'orders' | 'timeZone' | 'pointValue'> &
  Partial<Pick<ProgramRecord, 'points' | 'orders' | 'timeZone' | 'pointValue'>>;

export async function getProgram(workspaceId: string): Promise<StoredProgram | undefined> {
  const item = await getItem<ProgramRecord & { pk: string }>(keyOf('program', { workspaceId }));
  if (!item) return undefined;
  return {
    earn: item.earn,
    tiers: item.tiers,
    ...(item.points ? { points: item.points } : {}),
    ...(item.orders ? { orders: item.orders } : {}),
    ...(item.timeZone ? { timeZone: item.timeZone } : {}),
    ...(item.pointValue ? { pointValue: item.pointValue } : {}),
    version: item.version,
    updatedAt: item.updatedAt,
  };
}

/** Whole-item replace under optimistic concurrency on `version`, with `steps` (its audit entry) in the same transaction. */
export async function putProgram(workspaceId: string, program: ProgramRecord, expectedVersion: number, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Put: {
          Item: { ...keyOf('program', { workspaceId }), entity: 'program', ...program },
          ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
          ExpressionAttributeValues: expectedVersion === 0 ? undefined : { ':v': expectedVersion },
        },
      },
      onConditionFailed: () => conflict('The program changed meanwhile; read it again (version) and retry'),
    },
    ...steps,
  ]);
}

/** The pointer that puts a workspace on the due-work run's list (a put: writing it again changes nothing). */
export function dueWorkspaceStep(workspaceId: string): TransactStep {
  return { op: { Put: { Item: { ...keyOf('programDueIndex', { workspaceId }), entity: 'programDueIndex', workspaceId } } } };
}

/** The workspaces on the due-work run's list, a page at a time. */
export async function* dueWorkspaces(pageSize: number): AsyncGenerator<string[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await queryRaw({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keyOf('programDueIndex', { workspaceId: '-' }).pk },
      Limit: pageSize,
      ExclusiveStartKey: startKey,
    });
    const ids = (out.Items ?? []).map((i) => String(i.workspaceId));
    if (ids.length) yield ids;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}
