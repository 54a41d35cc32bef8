import type { Readable } from 'node:stream';
import { config } from '../platform/config';
import { AppError, conflict, notFound, validationFailed } from '../platform/errors';
import { ID_PATTERN, newId } from '../platform/ids';
import type { ObjectStore } from '../platform/ports/object-store';
import type { Workflows } from '../platform/ports/workflows';
import { createMemberBody, getMemberRecord, memberIdByEmail, memberIdByExternalId } from '../members';
import type { AuditContext } from '../audit';
import { rulesOf } from '../program';
import { tagMemberBody } from '../tags';
import { type ImportJobRecord, type ImportPreview, isBulkKind, type RowError } from './entities';
import { filteredMembers } from './filtered';
import { recordsOf } from './file';
import { BULK_ROWS, checkRow, expiryMonth, type BulkRow, type CheckedRow, type ImportRow, type MemberRef, type RowContext } from './rows';
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

/** A filtered job's one change, checked as a row's would be (400 with every field it gets wrong). */
function checkedChange(input: CreateImportInput): Record<string, unknown> | null {
  if (!input.filter) {
    if (!input.format) throw validationFailed([{ in: 'body', field: 'format', message: 'is required for a file' }]);
    if (input.change) throw validationFailed([{ in: 'body', field: 'change', message: 'goes with a members filter; a file gives each row its own' }]);
    return null;
  }
  if (!isBulkKind(input.kind)) throw validationFailed([{ in: 'body', field: 'kind', message: 'a members filter takes a bulk kind: points or tags' }]);
  if (!input.change) throw validationFailed([{ in: 'body', field: 'change', message: 'is required with a members filter' }]);
  const checked = BULK_ROWS[input.kind].change(input.change, tagMemberBody);
  if ('errors' in checked) throw validationFailed(checked.errors.map((e) => ({ in: 'body', field: `change.${e.field}`, message: e.message })));
  return checked.value as unknown as Record<string, unknown>;
}

/**
 * A new job and the presigned PUT its file is uploaded with, or (with a members filter) the job
 * over the filter's members with its one change and no file. Nothing else is read or written until a preview.
 */
export async function createImport(
  workspaceId: string,
  input: CreateImportInput,
  ports: { objectStore: Pick<ObjectStore, 'signedPutUrl'> },
  audit: AuditContext,
  now = new Date(),
) {
  const id = newId('imp', now.getTime());
  const change = checkedChange(input);
  const actor = audit.actor.type === 'anonymous' ? null : audit.actor;
  const job: ImportJobRecord = {
    id,
    workspaceId,
    kind: input.kind,
    format: input.format ?? 'jsonl',
    status: 'awaiting_upload',
    countLifetime: input.countLifetime ?? false,
    notify: input.notify ?? false,
    objectKey: fileKey(workspaceId, id, input.format ?? 'jsonl'),
    preview: null,
    chunks: {},
    chunkCount: null,
    filter: input.filter ?? null,
    change,
    actor,
    requestId: audit.requestId,
    error: null,
    createdAt: now.toISOString(),
    startedAt: null,
    completedAt: null,
    undoneAt: null,
  };
  await repo.createJob(job, []);
  if (job.filter) return { ...toImportJob(job), upload: null };
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

/** A page of the workspace's jobs, newest first. */
export async function listImports(workspaceId: string, query: { limit: number; cursor?: string }) {
  const page = await repo.listJobs(workspaceId, query.limit, query.cursor);
  return { items: page.items.map((j) => toImportJob(j)), nextCursor: page.nextCursor };
}

/** What checking a row needs of the workspace: its program's tiers, the members API's shapes. */
export async function rowContext(workspaceId: string, now: Date): Promise<RowContext> {
  const rules = await rulesOf(workspaceId);
  return { now: now.getTime(), tierKeys: rules.tiers.levels.map((l) => l.key), profileSchema: createMemberBody, tagsSchema: tagMemberBody };
}

/** The member a row names, if there is one. */
export async function memberOf(workspaceId: string, ref: MemberRef): Promise<string | undefined> {
  if ('memberId' in ref) {
    const member = await getMemberRecord(workspaceId, ref.memberId);
    return member && !member.erasedAt ? member.id : undefined;
  }
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
  pointsRemoved: number;
  tagged: number;
  untagged: number;
  pointsByExpiryMonth: Record<string, number>;
  tiers: Record<string, number>;
}

const newTally = (): Tally => ({
  rows: 0,
  outcomes: {},
  errors: [],
  members: 0,
  points: 0,
  pointsRemoved: 0,
  tagged: 0,
  untagged: 0,
  pointsByExpiryMonth: {},
  tiers: {},
});

/** A bulk row's change added to the totals by its kind. */
export function countBulk(row: BulkRow, t: Tally): void {
  bump(t.outcomes, 'applied');
  (BULK_ROWS[row.kind].count as (c: BulkRow['change'], totals: Tally) => void)(row.change, t);
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
    } else if (row.kind === 'tiers') {
      bump(t.outcomes, 'applied');
      bump(t.tiers, row.tier);
    } else countBulk(row, t);
  });
}

/** What a row's member lookup says is wrong with it (nothing for a member row that matches no one: it creates one). */
function rowLookupErrors(line: number, row: ImportRow, found: string | undefined): RowError[] {
  if (row.kind === 'members') return found === 'two' ? [{ line, field: 'externalId', message: 'and email belong to two different members' }] : [];
  if (found) return [];
  const field = 'memberId' in row.member ? 'memberId' : 'externalId' in row.member ? 'externalId' : 'email';
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
  const t = job.filter ? await tallyFiltered(job) : await tallyFile(job, ports, await rowContext(workspaceId, now));
  const invalid = t.outcomes.invalid ?? 0;
  const preview: ImportPreview = {
    rows: t.rows,
    valid: t.rows - invalid,
    invalid,
    outcomes: t.outcomes,
    errors: t.errors,
    totals: {
      members: t.members,
      points: t.points,
      pointsRemoved: t.pointsRemoved,
      tagged: t.tagged,
      untagged: t.untagged,
      pointsByExpiryMonth: t.pointsByExpiryMonth,
      tiers: t.tiers,
    },
    previewedAt: now.toISOString(),
  };
  // A filtered job's chunks are counted when its apply lists the members (apply.ts).
  const chunkCount = job.filter ? null : Math.ceil(t.rows / c.chunkRows);
  const done = await repo.transition(workspaceId, jobId, ['awaiting_upload', 'previewed'], { status: 'previewed', preview, chunkCount });
  if (!done) throw conflict('The import job was applied meanwhile');
  return toImportJob(done);
}

async function tallyFile(job: ImportJobRecord, ports: Pick<ImportPorts, 'objectStore'>, ctx: RowContext): Promise<Tally> {
  const t = newTally();
  const seen = new Set<string>();
  let batch: CheckedRow[] = [];
  for await (const r of checkedRows(job, ports, ctx)) {
    batch.push(r);
    if (batch.length >= c.chunkRows) {
      await tallyBatch(job.workspaceId, batch, seen, t);
      batch = [];
    }
  }
  await tallyBatch(job.workspaceId, batch, seen, t);
  return t;
}

/** A filtered job: the members the filter matches now, each the job's one change. */
async function tallyFiltered(job: ImportJobRecord): Promise<Tally> {
  const t = newTally();
  const row = { kind: job.kind, member: { memberId: '' }, change: job.change } as unknown as BulkRow;
  for await (const ids of filteredMembers(job.workspaceId, job.filter!)) {
    for (const _ of ids) {
      t.rows++;
      countBulk(row, t);
    }
  }
  return t;
}
