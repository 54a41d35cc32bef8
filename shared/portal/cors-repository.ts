import { createHash } from 'node:crypto';
import { keyOf } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { queryRaw } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

export interface StoredCorsSettings {
  origins: string[];
  updatedAt: string;
  version: number;
}

const settingsKey = (workspaceId: string) => keyOf('corsSettings', { workspaceId });
const originHash = (origin: string) => createHash('sha256').update(origin, 'utf8').digest('hex');
const indexKey = (origin: string, workspaceId: string) => keyOf('corsOriginIndex', { originHash: originHash(origin), workspaceId });

export async function getCorsSettings(workspaceId: string): Promise<StoredCorsSettings | undefined> {
  const item = await getItem<Record<string, unknown>>(settingsKey(workspaceId));
  return item ? { origins: item.origins as string[], updatedAt: String(item.updatedAt), version: Number(item.version) } : undefined;
}

/**
 * Replaces the allow-list (conditional on the version read; none: the item must not exist yet) and,
 * in the same transaction, the preflight index: a pointer for each added origin, none left for a
 * removed one. `steps` (the audit entry) join it.
 */
export async function putCorsSettings(
  workspaceId: string,
  next: string[],
  updatedAt: string,
  current: StoredCorsSettings | undefined,
  steps: TransactStep[],
): Promise<void> {
  const before = new Set(current?.origins ?? []);
  const after = new Set(next);
  await transactWrite([
    {
      op: {
        Put: {
          Item: { ...settingsKey(workspaceId), entity: 'corsSettings', workspaceId, origins: next, updatedAt, version: (current?.version ?? 0) + 1 },
          ConditionExpression: current ? 'version = :v' : 'attribute_not_exists(pk)',
          ...(current ? { ExpressionAttributeValues: { ':v': current.version } } : {}),
        },
      },
      onConditionFailed: () => new StaleRead('CORS settings'),
    },
    ...next.filter((o) => !before.has(o)).map((o) => ({ op: { Put: { Item: { ...indexKey(o, workspaceId), entity: 'corsOriginIndex' } } } })),
    ...[...before].filter((o) => !after.has(o)).map((o) => ({ op: { Delete: { Key: indexKey(o, workspaceId) } } })),
    ...steps,
  ]);
}

/** Whether any workspace allows the origin (one Query of one item). */
export async function originAllowedAnywhere(origin: string): Promise<boolean> {
  const { pk } = indexKey(origin, 'any');
  const out = await queryRaw({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Limit: 1, ProjectionExpression: 'pk' });
  return (out.Items?.length ?? 0) > 0;
}
