import type { Program } from '../../domain/program/schemas';
import { conflict } from '../../domain/errors';
import { keyOf } from '../keys';
import { getItem, isConditionFailed, putItem } from '../table';

export async function getProgram(workspaceId: string): Promise<Program | undefined> {
  const item = await getItem<Program & { pk: string }>(keyOf('program', { workspaceId }));
  if (!item) return undefined;
  return { earn: item.earn, tiers: item.tiers, version: item.version, updatedAt: item.updatedAt };
}

/** Whole-item replace under optimistic concurrency on `version`. */
export async function putProgram(workspaceId: string, program: Program, expectedVersion: number): Promise<void> {
  try {
    await putItem({
      Item: { ...keyOf('program', { workspaceId }), entity: 'program', ...program },
      ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
      ExpressionAttributeValues: expectedVersion === 0 ? undefined : { ':v': expectedVersion },
    });
  } catch (err) {
    if (isConditionFailed(err)) throw conflict('The program changed meanwhile; read it again (version) and retry');
    throw err;
  }
}
