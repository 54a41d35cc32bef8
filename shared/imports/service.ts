import type { Readable } from 'node:stream';
import { config } from '../platform/config';
import { AppError, conflict, notFound } from '../platform/errors';
import { ID_PATTERN, newId } from '../platform/ids';
import type { ObjectStore } from '../platform/ports/object-store';
import type { Workflows } from '../platform/ports/workflows';
import { createMemberBody, memberIdByEmail, memberIdByExternalId } from '../members';
import { rulesOf } from '../program';
import { tagMemberBody } from '../tags';
import type { ImportJobRecord, ImportPreview, RowError } from './entities';
import { recordsOf } from './file';
import { checkRow, expiryMonth, type CheckedRow, type ImportRow, type MemberRef, type RowContext } from './rows';
import * as repo from './repository';
import type { CreateImportInput } from './schemas';
import { toImportJob } from './types';

/** What import jobs reach beyond the table: the bucket their files are uploaded to, and the apply workflow. */
export interface ImportPorts {
  objectStore: Pick<ObjectStore, 'signedPutUrl' | 'read'>;
  workflows: Workflows;
}

const c = config.imports;

/** Where a job's file is uploaded: under the exports prefix of the one bucket, per workspace and job. */
export const fileKey = (workspaceId: string, jobId: string, format: string) => `exports/${workspaceId}/imports/${jobId}.${format}`;

/** A new job and the presigned PUT its file is uploaded with. Nothing is read or written until a preview. */
export async function createImport(workspaceId: string, input: CreateImportInput, ports: { objectStore: Pick<ObjectStore, 'signedPutUrl'> }, now = new Date()) {
  const id = newId('imp', now.getTime());
  const job: ImportJobRecord = {
    id,
    workspaceId,
    kind: input.kind,
    format: input.format,
    status: 'awaiting_upload',
    countLifetime: input.countLifetime ?? false,
    notify: input.notify ?? false,
    objectKey: fileKey(workspaceId, id, input.format),
    preview: null,
    chunks: {},
    chunkCount: null,
    error: null,
    createdAt: now.toISOString(),
    startedAt: null,
    completedAt: null,
    undoneAt: null,
  };
  await repo.createJob(job, []);
  const url = await ports.objectStore.signedPutUrl(job.objectKey, { expiresInSeconds: c.uploadLinkTtlSeconds });
  const expiresAt = new Date(now.getTime() + c.uploadLinkTtlSeconds * 1000).toISOString();
  return { ...toImportJob(job), upload: { method: 'PUT' as const, url, expiresAt } };
}

export async function loadJob(workspaceId: string, jobId: string): Promise<ImportJobRecord> {
  const job = ID_PATTERN('imp').test(jobId) ? await repo.getJob(workspaceId, jobId) : undefined;
  if (!job) throw notFound('Import job');
  return job;
}

export async function getImport(workspaceId: string, jobId: string) {
  return toImportJob(await loadJob(workspaceId, jobId));
}

/** What checking a row needs of the workspace: its program's tiers, the members API's shapes. */
export async function rowContext(workspaceId: string, now: Date): Promise<RowContext> {
  const rules = await rulesOf(workspaceId);
  return { now: now.getTime(), tierKeys: rules.tiers.levels.map((l) => l.key), profileSchema: createMemberBody, tagsSchema: tagMemberBody };
}

/** The member a row names, if there is one. */
export async function memberOf(workspaceId: string, ref: MemberRef): Promise<string | undefined> {
  return 'externalId' in ref ? memberIdByExternalId(workspaceId, ref.externalId) : memberIdByEmail(workspaceId, ref.email);
}

/** The job's file, record by record, each checked as a row of the job's kind (404-like 409 when nothing was uploaded). */
export async function* checkedRows(job: ImportJobRecord, ports: Pick<ImportPorts, 'objectStore'>, ctx: RowContext): AsyncGenerator<CheckedRow> {
  let body: Readable;
  try {
    body = await ports.objectStore.read(job.objectKey);
  } catch (err) {
    if ((err as Error).name === 'NoSuchKey') throw new AppError('CONFLICT', 'No file was uploaded for this import job yet: PUT it to the upload link first');
    throw err;
  }
  for await (const record of recordsOf(job.format, body)) yield checkRow(job.kind, record, ctx);
}

/** Runs `work` over `items` with at most `lanes` at once, in order of the items. */
export async function inLanes<T, R>(items: readonly T[], lanes: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
  return out;
}

/** A member row's identity (rows naming the same person are one member). */
const identityOf = (row: Extract<ImportRow, { kind: 'members' }>): string[] =>
  [row.profile.externalId ? `x:${String(row.profile.externalId)}` : null, row.profile.email ? `e:${String(row.profile.email)}` : null].filter(
    (k) => k !== null,
  );

interface Tally {
  rows: number;
  outcomes: Record<string, number>;
  errors: RowError[];
  members: number;
  points: number;
  pointsByExpiryMonth: Record<string, number>;
  tiers: Record<string, number>;
}

const bump = (o: Record<string, number>, key: string, by = 1) => {
  o[key] = (o[key] ?? 0) + by;
};

/** One batch of checked rows tallied, the member lookups made side by side. */
async function tallyBatch(workspaceId: string, batch: CheckedRow[], seen: Set<string>, t: Tally): Promise<void> {
  const looked = await inLanes(batch, c.previewConcurrency, async (r) => {
    if (!('row' in r)) return undefined;
    if (r.row.kind === 'members') {
      const [byExternalId, byEmail] = await Promise.all([
        r.row.profile.externalId ? memberIdByExternalId(workspaceId, String(r.row.profile.externalId)) : undefined,
        r.row.profile.email ? memberIdByEmail(workspaceId, String(r.row.profile.email)) : undefined,
      ]);
      return byExternalId && byEmail && byExternalId !== byEmail ? 'two' : (byExternalId ?? byEmail);
    }
    return memberOf(workspaceId, r.row.member);
  });
  batch.forEach((r, i) => {
    t.rows++;
    const errors = 'errors' in r ? r.errors : rowLookupErrors(r.line, r.row, looked[i]);
    if (errors.length > 0 || !('row' in r)) {
      bump(t.outcomes, 'invalid');
      for (const e of errors) if (t.errors.length < c.previewErrors) t.errors.push(e);
      return;
    }
    const row = r.row;
    if (row.kind === 'members') {
      const ids = identityOf(row);
      const created = !looked[i] && !ids.some((k) => seen.has(k));
      for (const k of ids) seen.add(k);
      bump(t.outcomes, created ? 'created' : 'matched');
      if (created) t.members++;
    } else if (row.kind === 'balances') {
      bump(t.outcomes, 'applied');
      t.points += row.points;
      bump(t.pointsByExpiryMonth, expiryMonth(row.expiresAt), row.points);
    } else {
      bump(t.outcomes, 'applied');
      bump(t.tiers, row.tier);
    }
  });
}

/** What a row's member lookup says is wrong with it (nothing for a member row that matches no one: it creates one). */
function rowLookupErrors(line: number, row: ImportRow, found: string | undefined): RowError[] {
  if (row.kind === 'members') return found === 'two' ? [{ line, field: 'externalId', message: 'and email belong to two different members' }] : [];
  if (found) return [];
  const field = 'externalId' in row.member ? 'externalId' : 'email';
  return [{ line, field, message: 'names no member of this workspace' }];
}

/**
 * Checks every row of the uploaded file and stores what applying it would do; writes nothing
 * else. May run again (a corrected file uploaded to the same link) until the job is applied.
 */
export async function previewImport(workspaceId: string, jobId: string, ports: Pick<ImportPorts, 'objectStore'>, now = new Date()) {
  const job = await loadJob(workspaceId, jobId);
  if (job.status !== 'awaiting_upload' && job.status !== 'previewed')
    throw conflict(`The import job is ${job.status}; only a job not applied yet is previewed`);
  const ctx = await rowContext(workspaceId, now);
  const t: Tally = { rows: 0, outcomes: {}, errors: [], members: 0, points: 0, pointsByExpiryMonth: {}, tiers: {} };
  const seen = new Set<string>();
  let batch: CheckedRow[] = [];
  for await (const r of checkedRows(job, ports, ctx)) {
    batch.push(r);
    if (batch.length >= c.chunkRows) {
      await tallyBatch(workspaceId, batch, seen, t);
      batch = [];
    }
  }
  await tallyBatch(workspaceId, batch, seen, t);
  const invalid = t.outcomes.invalid ?? 0;
  const preview: ImportPreview = {
    rows: t.rows,
    valid: t.rows - invalid,
    invalid,
    outcomes: t.outcomes,
    errors: t.errors,
    totals: { members: t.members, points: t.points, pointsByExpiryMonth: t.pointsByExpiryMonth, tiers: t.tiers },
    previewedAt: now.toISOString(),
  };
  const chunkCount = Math.ceil(t.rows / c.chunkRows);
  const done = await repo.transition(workspaceId, jobId, ['awaiting_upload', 'previewed'], { status: 'previewed', preview, chunkCount });
  if (!done) throw conflict('The import job was applied meanwhile');
  return toImportJob(done);
}
