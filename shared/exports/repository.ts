import { exportJobEntity, type ExportJobRecord, exportScheduleEntity, type ExportScheduleRecord } from './entities';
import type { StoredSecret } from '../webhooks';
import { indexPartition, keyOf, skPrefix } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { deleteItem, getItem, isConditionFailed, type Item } from '../platform/data/items';
import { updateFromStatus } from '../platform/data/status-transition';
import { prefixPage, queryRaw, type Page } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

/**
 * Export jobs (workspace partition, few per workspace) and the archive lock that keeps one
 * pending or running archive job per workspace.
 */

const jobKey = (workspaceId: string, jobId: string) => keyOf('exportJob', { workspaceId, jobId });
const lockKey = (workspaceId: string) => keyOf('exportArchiveLock', { workspaceId });

/** Raised when the workspace already has a live archive job: the caller answers with that job. */
export class ArchiveJobActive extends Error {
  constructor(readonly jobId: string) {
    super('An archive export is already pending or running');
    this.name = 'ArchiveJobActive';
  }
}

const jobPut = (job: ExportJobRecord): TransactStep => ({
  op: { Put: { Item: exportJobEntity.toItem(job), ConditionExpression: 'attribute_not_exists(pk)' } },
});

/**
 * The archive job, its lock and `steps` (the audit entry) in one transaction. The lock is taken only
 * if none is held, or the one held is past its job's deadline; otherwise `ArchiveJobActive` names the
 * job that holds it.
 */
export async function createArchiveJob(job: ExportJobRecord, steps: TransactStep[], nowEpoch: number): Promise<void> {
  await transactWrite([
    {
      op: {
        Put: {
          Item: { ...lockKey(job.workspaceId), entity: 'exportArchiveLock', jobId: job.id, deadlineAt: job.deadlineAt },
          ConditionExpression: 'attribute_not_exists(pk) OR deadlineAt < :now',
          ExpressionAttributeValues: { ':now': nowEpoch },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (current) => new ArchiveJobActive(String(current?.jobId ?? '')),
    },
    jobPut(job),
    ...steps,
  ]);
}

/** An operational job (no lock: several may run) with `steps` (its audit entry). */
export async function createJob(job: ExportJobRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([jobPut(job), ...steps]);
}

export async function getJob(workspaceId: string, jobId: string): Promise<ExportJobRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(jobKey(workspaceId, jobId));
  return item ? exportJobEntity.fromItem(item) : undefined;
}

/** Newest first (job ids are time-ordered). */
export async function listJobs(workspaceId: string, kind: ExportJobRecord['kind'], limit: number, cursor?: string): Promise<Page<ExportJobRecord>> {
  const page = await prefixPage<Record<string, unknown>>(keyOf('workspace', { workspaceId }).pk, skPrefix('exportJob'), {
    limit,
    cursor,
    filters: [{ attr: 'kind', op: '=', value: kind }],
  });
  return { ...page, items: page.items.map(exportJobEntity.fromItem) };
}

/**
 * Moves a job to `status` with `fields`, only from one of the states `from`: the workflow's steps
 * and the deadline sweep never overwrite a job that already ended. Resolves with the job after the
 * change, or undefined when it was not in one of those states.
 */
export async function transition(
  workspaceId: string,
  jobId: string,
  from: readonly ExportJobRecord['status'][],
  fields: Partial<ExportJobRecord>,
): Promise<ExportJobRecord | undefined> {
  const out = await updateFromStatus(jobKey(workspaceId, jobId), from, fields);
  return out ? exportJobEntity.fromItem(out) : undefined;
}

/** Frees the workspace's archive lock if `jobId` holds it. */
export async function releaseArchiveLock(workspaceId: string, jobId: string): Promise<void> {
  try {
    await deleteItem({ Key: lockKey(workspaceId), ConditionExpression: 'jobId = :j', ExpressionAttributeValues: { ':j': jobId } });
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

/** The lists an export reads. */
export type ExportSource = 'members' | 'orders' | 'couponPools' | 'campaigns' | 'ledger';

/**
 * Where each source's items are: a workspace list on gsi1, or (campaigns: few per workspace) the
 * items of one sort-key prefix in the workspace partition.
 */
const SOURCES: Record<Exclude<ExportSource, 'ledger'>, { entity: 'member' | 'order' | 'couponPool' } | { prefixOf: 'campaign' }> = {
  members: { entity: 'member' },
  orders: { entity: 'order' },
  couponPools: { entity: 'couponPool' },
  campaigns: { prefixOf: 'campaign' },
};

function sourceQuery(workspaceId: string, source: Exclude<ExportSource, 'ledger'>) {
  const where = SOURCES[source];
  if ('prefixOf' in where) {
    return {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keyOf('workspace', { workspaceId }).pk, ':prefix': skPrefix(where.prefixOf) },
    };
  }
  return {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': indexPartition(where.entity, 'gsi1', { workspaceId }) },
  };
}

/**
 * Every item of a workspace's list of `source`, page by page (`pageSize` items per Query), with
 * only `attributes` read from the table: what an export may not hold is never even fetched. Stops
 * after `max` items. Memory holds one page.
 */
export async function* readAll(
  workspaceId: string,
  source: ExportSource,
  opts: { attributes: readonly string[]; pageSize: number; max: number },
): AsyncGenerator<Item[]> {
  if (source === 'ledger') {
    yield* readLedger(workspaceId, opts);
    return;
  }
  const query = sourceQuery(workspaceId, source);
  const names = Object.fromEntries(opts.attributes.map((a, i) => [`#p${i}`, a]));
  let startKey: Record<string, unknown> | undefined;
  let seen = 0;
  if (opts.max <= 0) return;
  do {
    const out = await queryRaw({
      ...query,
      ExpressionAttributeNames: names,
      ProjectionExpression: Object.keys(names).join(', '),
      ScanIndexForward: false,
      Limit: Math.min(opts.pageSize, opts.max - seen),
      ExclusiveStartKey: startKey,
    });
    const items = (out.Items ?? []) as Item[];
    seen += items.length;
    if (items.length) yield items;
    startKey = out.LastEvaluatedKey;
  } while (startKey && seen < opts.max);
}

/** Members whose ledgers are read at once. */
const LEDGER_READS = 8;

/**
 * Every ledger entry of the workspace: the members page by page (their ids only), then each
 * member's ledger partition, oldest entry first, a few members at a time. Entries live with their
 * member (one partition each), so the journal is grouped by member; `createdAt` orders it in time.
 */
async function* readLedger(workspaceId: string, opts: { attributes: readonly string[]; pageSize: number; max: number }): AsyncGenerator<Item[]> {
  const names = Object.fromEntries(opts.attributes.map((a, i) => [`#p${i}`, a]));
  let seen = 0;
  for await (const members of readAll(workspaceId, 'members', { attributes: ['id'], pageSize: opts.pageSize, max: Number.MAX_SAFE_INTEGER })) {
    for (let i = 0; i < members.length; i += LEDGER_READS) {
      const ledgers = await Promise.all(members.slice(i, i + LEDGER_READS).map((m) => ledgerOf(workspaceId, String(m.id), names, opts.max - seen)));
      for (const entries of ledgers) {
        if (seen >= opts.max) return;
        const taken = entries.slice(0, opts.max - seen);
        seen += taken.length;
        if (taken.length) yield taken;
      }
    }
  }
}

/** One member's ledger entries, oldest first, at most `max`. */
async function ledgerOf(workspaceId: string, memberId: string, names: Record<string, string>, max: number): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await queryRaw({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keyOf('member', { workspaceId, memberId }).pk, ':prefix': skPrefix('ledgerEntry') },
      ExpressionAttributeNames: names,
      ProjectionExpression: Object.keys(names).join(', '),
      ExclusiveStartKey: startKey,
    });
    items.push(...((out.Items ?? []) as Item[]));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < max);
  return items;
}

// --- Export-signing secrets ---

export interface StoredSigningSecrets {
  secrets: StoredSecret[];
  version: number;
}

const secretKey = (workspaceId: string) => keyOf('exportSigningSecret', { workspaceId });

export async function getSigningSecrets(workspaceId: string): Promise<StoredSigningSecrets | undefined> {
  const item = await getItem<Record<string, unknown>>(secretKey(workspaceId));
  return item ? { secrets: item.secrets as StoredSecret[], version: Number(item.version) } : undefined;
}

/** Replaces the secrets, conditional on the version read (none: the item must not exist yet). */
export async function putSigningSecrets(
  workspaceId: string,
  secrets: StoredSecret[],
  expectedVersion: number | undefined,
  steps: TransactStep[],
): Promise<void> {
  await transactWrite([
    {
      op: {
        Put: {
          Item: { ...secretKey(workspaceId), entity: 'exportSigningSecret', workspaceId, secrets, version: (expectedVersion ?? 0) + 1 },
          ...(expectedVersion === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } }),
        },
      },
      onConditionFailed: () => new StaleRead('export-signing secret'),
    },
    ...steps,
  ]);
}

// --- Export schedules ---

const scheduleKey = (workspaceId: string, scheduleId: string) => keyOf('exportSchedule', { workspaceId, scheduleId });
const scheduleIndexKey = (workspaceId: string, scheduleId: string) => keyOf('exportScheduleIndex', { workspaceId, scheduleId });

/** The schedule, its pointer in the scheduler's index and `steps` (the audit entry), together. */
export async function createSchedule(s: ExportScheduleRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    { op: { Put: { Item: exportScheduleEntity.toItem(s), ConditionExpression: 'attribute_not_exists(pk)' } } },
    { op: { Put: { Item: { ...scheduleIndexKey(s.workspaceId, s.id), entity: 'exportScheduleIndex', workspaceId: s.workspaceId, scheduleId: s.id } } } },
    ...steps,
  ]);
}

export async function deleteSchedule(workspaceId: string, scheduleId: string, steps: TransactStep[], onMissing: () => Error): Promise<void> {
  await transactWrite([
    { op: { Delete: { Key: scheduleKey(workspaceId, scheduleId), ConditionExpression: 'attribute_exists(pk)' } }, onConditionFailed: onMissing },
    { op: { Delete: { Key: scheduleIndexKey(workspaceId, scheduleId) } } },
    ...steps,
  ]);
}

export async function getSchedule(workspaceId: string, scheduleId: string): Promise<ExportScheduleRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(scheduleKey(workspaceId, scheduleId));
  return item ? exportScheduleEntity.fromItem(item) : undefined;
}

export async function listSchedules(workspaceId: string, limit: number, cursor?: string): Promise<Page<ExportScheduleRecord>> {
  const page = await prefixPage<Record<string, unknown>>(keyOf('workspace', { workspaceId }).pk, skPrefix('exportSchedule'), { limit, cursor });
  return { ...page, items: page.items.map(exportScheduleEntity.fromItem) };
}

/** Every schedule pointer, page by page (the tick). */
export async function* schedulePointers(pageSize: number): AsyncGenerator<{ workspaceId: string; scheduleId: string }[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await queryRaw({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keyOf('exportScheduleIndex', { workspaceId: '-', scheduleId: '-' }).pk },
      Limit: pageSize,
      ExclusiveStartKey: startKey,
    });
    const items = (out.Items ?? []).map((i) => ({ workspaceId: String(i.workspaceId), scheduleId: String(i.scheduleId) }));
    if (items.length) yield items;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}

/** Thrown when the period was claimed already (or the schedule is gone): nothing to run. */
export class PeriodTaken extends Error {
  constructor() {
    super('this period has run already');
    this.name = 'PeriodTaken';
  }
}

/**
 * Claims `period` of a schedule and creates its job in one transaction: the schedule's
 * `lastPeriod` moves forward only if it is before `period`, so however many ticks find the period
 * due, one creates its job.
 */
export async function claimPeriod(s: ExportScheduleRecord, period: string, job: ExportJobRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: scheduleKey(s.workspaceId, s.id),
          UpdateExpression: 'SET lastPeriod = :p, lastJobId = :j',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastPeriod) OR lastPeriod = :none OR lastPeriod < :p)',
          ExpressionAttributeValues: { ':p': period, ':j': job.id, ':none': null },
        },
      },
      onConditionFailed: () => new PeriodTaken(),
    },
    jobPut(job),
    ...steps,
  ]);
}
