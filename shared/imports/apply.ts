/**
 * Applying an import job: the import workflow (infra/app/workflows/import.asl.json) runs the rows in
 * chunks, a few chunks at once, each chunk's rows a few at a time. Every row's change carries the
 * row's own record (the job and its line: put only if absent) in its transaction, so a chunk run
 * again, a restarted job or a second apply skips what was applied and nothing doubles.
 */
import * as z from 'zod';
import { config } from '../platform/config';
import { conflict } from '../platform/errors';
import { logger } from '../platform/observability/logger';
import { assignTier, bookOpeningBalance, getMemberRecord, type LedgerStore, NOTHING_OWED, upsertMembers } from '../members';
import { tagMember } from '../tags';
import { applyBulk } from './bulk';
import type { ImportJobRecord, ImportRowRecord } from './entities';
import { filteredMembers } from './filtered';
import * as repo from './repository';
import type { BulkRow, ImportRow, MemberRow } from './rows';
import { checkedRows, type ImportPorts, inLanes, loadJob, memberOf, rowContext } from './service';
import { toImportJob } from './types';

const c = config.imports;

/** Starts (or resumes, or repeats) applying a previewed job. */
export async function applyImport(workspaceId: string, jobId: string, ports: Pick<ImportPorts, 'workflows'>, now = new Date()) {
  const job = await loadJob(workspaceId, jobId);
  if (job.status === 'awaiting_upload') throw conflict('Preview the import job before applying it');
  if (job.status === 'applying' || job.status === 'undone') throw conflict(`The import job is ${job.status}`);
  const started = await repo.transition(workspaceId, jobId, [job.status], {
    status: 'applying',
    chunks: {},
    error: null,
    startedAt: now.toISOString(),
    completedAt: null,
  });
  if (!started) throw conflict('The import job changed meanwhile; read it and try again');
  try {
    await ports.workflows.start('import', `${jobId}-${now.getTime()}`, { workspaceId, jobId });
  } catch (error) {
    logger.error('import workflow not started', { workspaceId, jobId, error: error as Error });
    await markFailed({ workspaceId, jobId, failure: { Cause: 'The import could not be started; apply it again' } });
  }
  return toImportJob(started);
}

const jobInput = z.object({ workspaceId: z.string(), jobId: z.string() });

/** Workflow `Begin`: the chunks to apply (a filtered job's members listed into chunks first, once). */
export async function begin(input: unknown): Promise<{ workspaceId: string; jobId: string; chunks: number[] }> {
  const { workspaceId, jobId } = jobInput.parse(input);
  const job = await repo.getJob(workspaceId, jobId);
  let count = job?.status === 'applying' ? (job.chunkCount ?? 0) : 0;
  if (job?.status === 'applying' && job.filter && job.chunkCount === null) count = await listFiltered(job);
  return { workspaceId, jobId, chunks: Array.from({ length: count }, (_, i) => i) };
}

/**
 * The filter's members now, each once, in chunks of `chunkRows`: what every run of the job applies
 * (a member who matches later is not added; one who no longer matches is still changed once).
 */
async function listFiltered(job: ImportJobRecord): Promise<number> {
  const seen = new Set<string>();
  let chunk: string[] = [];
  let chunks = 0;
  const flush = async () => {
    await repo.putChunkMembers(job.workspaceId, job.id, chunks++, chunk);
    chunk = [];
  };
  for await (const ids of filteredMembers(job.workspaceId, job.filter!)) {
    for (const id of ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      chunk.push(id);
      if (chunk.length === c.chunkRows) await flush();
    }
  }
  if (chunk.length > 0) await flush();
  await repo.setChunkCount(job.workspaceId, job.id, chunks);
  return chunks;
}

/** Rows of one chunk: its valid rows by line, and how many were invalid. */
async function chunkRows(
  job: ImportJobRecord,
  chunk: number,
  ports: Pick<ImportPorts, 'objectStore'>,
): Promise<{ rows: { line: number; row: ImportRow }[]; invalid: number }> {
  if (job.filter) {
    // A member's line is its place in the listed members (1 = the first).
    const ids = await repo.chunkMembers(job.workspaceId, job.id, chunk);
    const rows = ids.map((memberId, i) => ({
      line: chunk * c.chunkRows + i + 1,
      row: { kind: job.kind, member: { memberId }, change: job.change } as unknown as BulkRow,
    }));
    return { rows, invalid: 0 };
  }
  const ctx = await rowContext(job.workspaceId, new Date(job.preview?.previewedAt ?? job.createdAt));
  const from = chunk * c.chunkRows;
  const rows: { line: number; row: ImportRow }[] = [];
  let invalid = 0;
  let index = 0;
  for await (const r of checkedRows(job, ports, ctx)) {
    if (index >= from + c.chunkRows) break;
    if (index++ < from) continue;
    if ('row' in r) rows.push(r);
    else invalid++;
  }
  return { rows, invalid };
}

type Outcome = 'done' | 'skipped' | 'failed';

/** Workflow `ApplyChunk`: one chunk's rows, and the chunk's counts on the job. */
export async function applyChunk(
  input: unknown,
  ports: Pick<ImportPorts, 'objectStore'> & { ledger: LedgerStore },
): Promise<{ chunk: number; done: number; skipped: number; failed: number }> {
  const { workspaceId, jobId, chunk } = jobInput.extend({ chunk: z.number().int().min(0) }).parse(input);
  const job = await repo.getJob(workspaceId, jobId);
  if (job?.status !== 'applying') return { chunk, done: 0, skipped: 0, failed: 0 };
  const { rows, invalid } = await chunkRows(job, chunk, ports);
  const applied = await repo.appliedLines(
    workspaceId,
    jobId,
    rows.map((r) => r.line),
  );
  const todo = rows.filter((r) => !applied.has(r.line));
  const outcomes: Outcome[] =
    job.kind === 'members'
      ? await applyMembers(job, todo as { line: number; row: MemberRow }[])
      : await applyInMemberOrder(job, todo as { line: number; row: Exclude<ImportRow, MemberRow> }[], ports.ledger);
  const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
  const counts = { done: count('done'), skipped: applied.size + count('skipped'), failed: invalid + count('failed') };
  await repo.recordChunk(workspaceId, jobId, chunk, counts);
  return { chunk, ...counts };
}

/**
 * A chunk's rows `rowConcurrency` members at a time, each member's rows one after another in the
 * file's order (whichever way each names the member): a file that adds points and then takes some
 * back from one member means that order, and two rows of one member never race for its revision.
 */
async function applyInMemberOrder(job: ImportJobRecord, todo: { line: number; row: Exclude<ImportRow, MemberRow> }[], store: LedgerStore): Promise<Outcome[]> {
  const ids = await inLanes(todo, c.rowConcurrency, (r) => memberOf(job.workspaceId, r.row.member));
  const byMember = new Map<string, number[]>();
  todo.forEach((_, i) => {
    const key = ids[i] ?? `none:${i}`;
    const rows = byMember.get(key);
    if (rows) rows.push(i);
    else byMember.set(key, [i]);
  });
  const outcomes: Outcome[] = new Array(todo.length);
  await inLanes([...byMember.values()], c.rowConcurrency, async (indexes) => {
    for (const i of indexes) outcomes[i] = await applyRow(job, todo[i]!.line, todo[i]!.row, ids[i], store);
  });
  return outcomes;
}

/** A balance, tier or bulk row of `memberId` (undefined: the row names no member): the member's change and the row's record in one transaction. */
async function applyRow(
  job: ImportJobRecord,
  line: number,
  row: Exclude<ImportRow, MemberRow>,
  memberId: string | undefined,
  store: LedgerStore,
): Promise<Outcome> {
  const ws = job.workspaceId;
  const record = (memberId: string, extra: Partial<ImportRowRecord>): ImportRowRecord => ({
    jobId: job.id,
    line,
    outcome: 'applied',
    memberId,
    at: new Date().toISOString(),
    ...extra,
  });
  try {
    if (!memberId) return 'failed';
    if (row.kind === 'points' || row.kind === 'tags') {
      await applyBulk(job, row, memberId, (extra) => repo.rowStep(ws, record(memberId, extra)), store);
      return 'done';
    }
    if (row.kind === 'balances') {
      // The entry's id is the plan's; the row record names it once the plan made it (undo reverses it).
      let entryId = '';
      await bookOpeningBalance(store, ws, memberId, {
        points: row.points,
        earnedAt: row.earnedAt,
        expiresAt: row.expiresAt,
        jobId: job.id,
        countLifetime: job.countLifetime,
        notify: job.notify,
        steps: (id) => {
          entryId = id;
          return [repo.rowStep(ws, record(memberId, { entryId }))];
        },
      });
      return 'done';
    }
    await assignTier(store, ws, memberId, {
      tier: row.tier,
      reachedAt: new Date(row.qualifiedAt).toISOString(),
      retainedUntil: new Date(row.retainedUntil).toISOString(),
      steps: (before) => [
        repo.rowStep(
          ws,
          record(memberId, {
            tierBefore: {
              tier: before.tier,
              reachedAt: before.record?.reachedAt ?? null,
              retainedUntil: before.record?.retainedUntil ?? null,
              reviewAt: before.record?.reviewAt ?? null,
            },
          }),
        ),
      ],
    });
    return 'done';
  } catch (err) {
    if (err instanceof repo.RowAlreadyApplied) return 'skipped';
    logger.warn('import row not applied', { workspaceId: ws, jobId: job.id, line, error: err as Error });
    return 'failed';
  }
}

/** Member rows: upserted (rows naming one person in order), tagged, then each row's record. */
async function applyMembers(job: ImportJobRecord, rows: { line: number; row: MemberRow }[]): Promise<Outcome[]> {
  const ws = job.workspaceId;
  const noTriggers = async () => NOTHING_OWED;
  const { results } = await upsertMembers(
    ws,
    rows.map((r) => r.row.profile),
    noTriggers,
  );
  return inLanes(results, c.rowConcurrency, async (result): Promise<Outcome> => {
    const { line, row } = rows[result.index]!;
    if (result.outcome === 'failed' || !result.memberId) return 'failed';
    try {
      if (row.tags.length > 0) await tagMember(ws, result.memberId, row.tags, noTriggers);
      // A member it created is removed by an undo only if untouched since: its version and revision now say what that is.
      const created = result.outcome === 'created' ? await getMemberRecord(ws, result.memberId) : undefined;
      const as = created ? { version: created.version, rev: created.rev } : {};
      await repo.putRow(ws, { jobId: job.id, line, outcome: result.outcome, memberId: result.memberId, ...as, at: new Date().toISOString() });
      return 'done';
    } catch (err) {
      logger.warn('import row not applied', { workspaceId: ws, jobId: job.id, line, error: err as Error });
      return 'failed';
    }
  });
}

/** Workflow `Finish`: applying -> completed. */
export async function finish(input: unknown): Promise<void> {
  const { workspaceId, jobId } = jobInput.parse(input);
  await repo.transition(workspaceId, jobId, ['applying'], { status: 'completed', completedAt: new Date().toISOString() });
}

/** Workflow `MarkFailed` (any failure of a step): applying -> failed, with the reason; applying again resumes. */
export async function markFailed(input: unknown): Promise<void> {
  const { workspaceId, jobId } = jobInput.parse(input);
  const failure = (input as { failure?: { Error?: string; Cause?: string } }).failure;
  const error = failure?.Cause ?? failure?.Error ?? 'The import stopped';
  await repo.transition(workspaceId, jobId, ['applying'], { status: 'failed', error: error.slice(0, 500), completedAt: new Date().toISOString() });
}
