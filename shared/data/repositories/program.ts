import type { ProgramRecord } from '../../records/program';
import { conflict } from '../../errors';
import { keyOf } from '../keys';
import { getItem, transactWrite, type TransactStep } from '../table';

export async function getProgram(workspaceId: string): Promise<ProgramRecord | undefined> {
  const item = await getItem<ProgramRecord & { pk: string }>(keyOf('program', { workspaceId }));
  if (!item) return undefined;
  return { earn: item.earn, tiers: item.tiers, version: item.version, updatedAt: item.updatedAt };
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
