import { importJobEntity, type ImportJobRecord, type ImportRowRecord } from './entities';
import { keyOf, skPrefix } from '../platform/data/keys';
import { getItem, isConditionFailed, putItem, updateItem } from '../platform/data/items';
import { updateFromStatus } from '../platform/data/status-transition';
import { batchGetItems, type Page, prefixPage, queryRaw } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

/**
 * Import jobs (workspace partition, few per workspace) and the record of each applied row (a
 * partition per job): the only store calls of the imports area.
 */

const jobKey = (workspaceId: string, jobId: string) => keyOf('importJob', { workspaceId, jobId });
const rowKey = (workspaceId: string, jobId: string, line: number) => keyOf('importRow', { workspaceId, jobId, line: String(line).padStart(10, '0') });

export { transactWrite };

export async function createJob(job: ImportJobRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([{ op: { Put: { Item: importJobEntity.toItem(job), ConditionExpression: 'attribute_not_exists(pk)' } } }, ...steps]);
}

export async function getJob(workspaceId: string, jobId: string): Promise<ImportJobRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(jobKey(workspaceId, jobId));
  return item ? importJobEntity.fromItem(item) : undefined;
}

/** A page of the workspace's jobs, newest first (their ids sort by time). */
export async function listJobs(workspaceId: string, limit: number, cursor?: string): Promise<Page<ImportJobRecord>> {
  const page = await prefixPage<Record<string, unknown>>(keyOf('workspace', { workspaceId }).pk, skPrefix('importJob'), { limit, cursor });
  return { ...page, items: page.items.map(importJobEntity.fromItem) };
}

/**
 * Sets `fields` on the job only while it is in one of the states `from` (a job that moved on is
 * never written back). Resolves with the job after the change, undefined when it was elsewhere.
 */
export async function transition(
  workspaceId: string,
  jobId: string,
  from: readonly ImportJobRecord['status'][],
  fields: Partial<ImportJobRecord>,
): Promise<ImportJobRecord | undefined> {
  const out = await updateFromStatus(jobKey(workspaceId, jobId), from, fields);
  return out ? importJobEntity.fromItem(out) : undefined;
}

/** A chunk's counts on the job (one map entry per chunk: a chunk run again replaces its own). */
export async function recordChunk(workspaceId: string, jobId: string, chunk: number, counts: ImportJobRecord['chunks'][string]): Promise<void> {
  await updateItem({
    Key: jobKey(workspaceId, jobId),
    UpdateExpression: 'SET chunks.#c = :counts',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#c': String(chunk) },
    ExpressionAttributeValues: { ':counts': counts },
    ReturnValues: 'NONE',
  });
}

/** Raised by a row's transaction when the row was already applied (a re-run, or a parallel one). */
export class RowAlreadyApplied extends Error {
  constructor() {
    super('The row was already applied');
    this.name = 'RowAlreadyApplied';
  }
}

/** The row's record, put only if absent: the step that makes a row's change happen once. */
export function rowStep(workspaceId: string, row: ImportRowRecord): TransactStep {
  return {
    op: { Put: { Item: { ...rowKey(workspaceId, row.jobId, row.line), entity: 'importRow', ...row }, ConditionExpression: 'attribute_not_exists(pk)' } },
    onConditionFailed: () => new RowAlreadyApplied(),
  };
}

/** The row's record alone, for a change that is already its own transaction (a member upserted). */
export async function putRow(workspaceId: string, row: ImportRowRecord): Promise<void> {
  try {
    await putItem({ Item: { ...rowKey(workspaceId, row.jobId, row.line), entity: 'importRow', ...row }, ConditionExpression: 'attribute_not_exists(pk)' });
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

/** The lines of `lines` already applied (one BatchGetItem per 100 lines). */
export async function appliedLines(workspaceId: string, jobId: string, lines: readonly number[]): Promise<Set<number>> {
  const items = await batchGetItems<ImportRowRecord>(
    lines.map((l) => rowKey(workspaceId, jobId, l)),
    { attributes: ['line'] },
  );
  return new Set(items.map((i) => Number(i.line)));
}

/** The job's applied rows in line order, page by page (what an undo walks). */
export async function* appliedRows(workspaceId: string, jobId: string): AsyncGenerator<ImportRowRecord[]> {
  const pk = keyOf('importRow', { workspaceId, jobId, line: '0' }).pk;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await queryRaw({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
      Limit: 200,
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    });
    yield (out.Items ?? []).map(({ pk: _pk, sk: _sk, entity: _e, ...row }) => row as ImportRowRecord);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}

/** Removes a row's record (its undo is done). */
export function deleteRowStep(workspaceId: string, row: Pick<ImportRowRecord, 'jobId' | 'line'>): TransactStep {
  return { op: { Delete: { Key: rowKey(workspaceId, row.jobId, row.line) } } };
}

const chunkKey = (workspaceId: string, jobId: string, chunk: number) => keyOf('importChunk', { workspaceId, jobId, chunk: String(chunk).padStart(6, '0') });

/** A filtered job's members of one chunk (written once, when its apply first begins). */
export async function putChunkMembers(workspaceId: string, jobId: string, chunk: number, memberIds: readonly string[]): Promise<void> {
  await putItem({ Item: { ...chunkKey(workspaceId, jobId, chunk), entity: 'importChunk', memberIds: [...memberIds] } });
}

export async function chunkMembers(workspaceId: string, jobId: string, chunk: number): Promise<string[]> {
  const item = await getItem<{ memberIds?: string[] }>(chunkKey(workspaceId, jobId, chunk));
  return item?.memberIds ?? [];
}

/** Sets the chunk count of a job (a filtered job's, once its members are listed). */
export async function setChunkCount(workspaceId: string, jobId: string, chunkCount: number): Promise<void> {
  await updateItem({
    Key: jobKey(workspaceId, jobId),
    UpdateExpression: 'SET chunkCount = :n',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':n': chunkCount },
    ReturnValues: 'NONE',
  });
}
