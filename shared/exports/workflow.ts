import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import * as z from 'zod';
import { exportSettings } from '../platform/config';
import * as repo from './repository';
import { ID_PATTERN } from '../platform/ids';
import type { ObjectStore } from '../platform/ports/object-store';
import { COLUMNS, jsonlLine } from './columns';
import { neutraliseCell } from '../platform/csv';
import { ARCHIVE_SECTIONS } from './schemas';
import { reportRunFinished } from './run-finished';
import { SECTIONS, type SectionSource } from './sections';
import { archiveKey, operationalKey, sectionPartKey, type SectionPart } from './types';
import type { ExportJobRecord } from './entities';

/**
 * The steps of the export workflow (infra/app/workflows/export.asl.json), one Task each. They pass ids,
 * keys and counts between states, never data (Step Functions' payload limit): sections are staged
 * as parts in the bucket and the archive is assembled from them by streaming.
 */

const id = (prefix: string) => z.string().regex(ID_PATTERN(prefix));
const jobRef = z.object({ workspaceId: id('ws'), jobId: id('exp') });
export type JobRef = z.infer<typeof jobRef>;

/** A Task's input is checked: a malformed state is a failed step (and so a failed job), never a half-run. */
function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const out = schema.safeParse(input);
  if (!out.success)
    throw Object.assign(new Error(`malformed workflow state: ${out.error.issues.map((i) => i.path.join('.') || '(root)').join(', ')}`), {
      name: 'MalformedState',
    });
  return out.data;
}

/** A named error: its name is what the workflow's Retry and Catch match. */
const stepError = (name: string, message: string) => Object.assign(new Error(message), { name });

async function loadJob(ref: JobRef): Promise<ExportJobRecord> {
  const job = await repo.getJob(ref.workspaceId, ref.jobId);
  if (!job) throw stepError('ExportJobMissing', `export job ${ref.jobId} does not exist`);
  return job;
}

/** Begin: pending -> running. A job that is no longer pending (failed by its deadline) is not run. */
export async function begin(input: unknown, now = new Date()) {
  const ref = parse(jobRef.extend({ kind: z.enum(['archive', 'operational']) }), input);
  const job = await repo.transition(ref.workspaceId, ref.jobId, ['pending'], { status: 'running', startedAt: now.toISOString() });
  if (!job) throw stepError('ExportJobNotPending', 'The export job was no longer pending when its run began');
  return { ...ref, kind: job.kind, ...(job.kind === 'archive' ? { sections: [...ARCHIVE_SECTIONS] } : {}) };
}

/** Items of a list, capped: at most `cap` records, and whether more existed. */
async function* capped<T>(
  pages: AsyncGenerator<Record<string, unknown>[]>,
  cap: number,
  map: (item: Record<string, unknown>) => T,
  state: { count: number; capped: boolean },
) {
  for await (const page of pages) {
    for (const item of page) {
      if (state.count >= cap) {
        state.capped = true;
        return;
      }
      state.count++;
      yield map(item);
    }
  }
}

/** BuildSection (one per section, inside the Map): the section's records as a part, `r1,r2,...`. */
export async function buildSection(input: unknown, store: ObjectStore, now = new Date()): Promise<SectionPart> {
  const ref = parse(jobRef.extend({ section: z.enum(ARCHIVE_SECTIONS) }), input);
  const def = SECTIONS[ref.section];
  const cap = exportSettings().archiveSectionCap;
  const state = { count: 0, capped: false };
  async function* read(part: SectionSource) {
    const pages = repo.readAll(ref.workspaceId, part.source, {
      attributes: part.attributes,
      pageSize: exportSettings().readPageSize,
      max: cap + 1 - state.count,
    });
    for await (const page of pages) yield part.enrich ? await part.enrich(ref.workspaceId, page) : page;
  }
  async function* body() {
    let first = true;
    // The section's lists one after the other, within one cap.
    for (const part of def.followedBy ? [def, def.followedBy] : [def]) {
      for await (const record of capped(read(part), cap, (i) => part.record(i, now), state)) {
        yield (first ? '' : ',') + JSON.stringify(record);
        first = false;
      }
      if (state.capped) return;
    }
  }
  const key = sectionPartKey(ref.workspaceId, ref.jobId, ref.section);
  await store.upload({ key, body: Readable.from(body()), contentType: 'application/json' });
  return { name: ref.section, key, recordCount: state.count, capped: state.capped };
}

const partSchema = z.object({ name: z.enum(ARCHIVE_SECTIONS), key: z.string().min(1), recordCount: z.number().int().min(0), capped: z.boolean() });

/**
 * Assemble: one JSON document, `{"manifest":{...},"members":[...],...}`, streamed from the parts
 * into the archive object, so the manifest is the first key and memory holds one upload part.
 */
export async function assemble(input: unknown, store: ObjectStore, now = new Date()) {
  const ref = parse(jobRef.extend({ parts: z.array(partSchema).min(1) }).loose(), input);
  const parts = ARCHIVE_SECTIONS.map((name) => ref.parts.find((p) => p.name === name)).filter((p): p is SectionPart => p !== undefined);
  const manifest = { generatedAt: now.toISOString(), sections: parts.map((p) => ({ name: p.name, recordCount: p.recordCount, capped: p.capped })) };
  async function* body() {
    yield `{"manifest":${JSON.stringify(manifest)}`;
    for (const part of parts) {
      yield `,${JSON.stringify(part.name)}:[`;
      for await (const chunk of await store.read(part.key)) yield chunk as Buffer;
      yield ']';
    }
    yield '}';
  }
  const key = archiveKey(ref.workspaceId, ref.jobId);
  await store.upload({ key, body: Readable.from(body()), contentType: 'application/json' });
  // The parts are staging only; the bucket's lifecycle removes any a failure leaves behind.
  await store.remove(parts.map((p) => p.key)).catch(() => undefined);
  const rowCount = parts.reduce((n, p) => n + p.recordCount, 0);
  return { workspaceId: ref.workspaceId, jobId: ref.jobId, result: { objectKey: key, rowCount, capped: parts.some((p) => p.capped) } };
}

/** WriteRows (operational export): CSV (RFC 4180, header row, formula cells neutralised) or JSONL, streamed from the table's pages. */
export async function writeRows(input: unknown, store: ObjectStore) {
  const ref = parse(jobRef.loose(), input);
  const job = await loadJob(ref);
  if (!job.dataset || !job.format) throw stepError('MalformedState', 'the job names no entity or format');
  const set = COLUMNS[job.dataset];
  const cap = exportSettings().operationalRowCap;
  const state = { count: 0, capped: false };
  const pages = repo.readAll(ref.workspaceId, set.source, { attributes: set.attributes, pageSize: exportSettings().readPageSize, max: cap + 1 });
  const rows = capped(pages, cap, set.row, state);
  const body =
    job.format === 'csv'
      ? Readable.from(rows).pipe(stringify({ header: true, columns: [...set.columns], cast: { boolean: (b) => String(b), string: neutraliseCell } }))
      : Readable.from(
          (async function* () {
            for await (const row of rows) yield jsonlLine(row);
          })(),
        );
  const key = operationalKey(ref.workspaceId, ref.jobId, job.dataset, job.format);
  await store.upload({ key, body, contentType: job.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson' });
  return { workspaceId: ref.workspaceId, jobId: ref.jobId, result: { objectKey: key, rowCount: state.count, capped: state.capped } };
}

/** MarkCompleted: running -> completed with the file and its row count; frees the archive lock. */
export async function markCompleted(input: unknown, now = new Date()) {
  const ref = parse(
    jobRef.extend({ result: z.object({ objectKey: z.string().min(1), rowCount: z.number().int().min(0), capped: z.boolean() }) }).loose(),
    input,
  );
  const job = await repo.transition(ref.workspaceId, ref.jobId, ['running'], {
    status: 'completed',
    objectKey: ref.result.objectKey,
    rowCount: ref.result.rowCount,
    capped: ref.result.capped,
    completedAt: now.toISOString(),
  });
  if (job) reportRunFinished(job);
  await repo.releaseArchiveLock(ref.workspaceId, ref.jobId);
  if (!job) throw stepError('ExportJobNotRunning', 'The export job was no longer running when it completed');
  return { workspaceId: ref.workspaceId, jobId: ref.jobId, status: 'completed' as const };
}

/** What a caught failure says, for the job's `error`: the step's own message, never a stack. */
export function describeFailure(failure: { Error?: string; Cause?: string } | undefined): string {
  const code = failure?.Error ?? 'Error';
  if (code === 'States.Timeout') return 'A step of the export timed out';
  let message = failure?.Cause ?? '';
  try {
    const parsed = JSON.parse(message) as { errorMessage?: unknown };
    if (typeof parsed?.errorMessage === 'string') message = parsed.errorMessage;
  } catch {
    /* a plain message */
  }
  const text = message ? `${code}: ${message}` : code;
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/** MarkFailed (every Catch leads here): pending or running -> failed with `error`; frees the archive lock. */
export async function markFailed(input: unknown, now = new Date()) {
  const ref = parse(jobRef.extend({ failure: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional() }).loose(), input);
  const failed = await repo.transition(ref.workspaceId, ref.jobId, ['pending', 'running'], {
    status: 'failed',
    error: `The export failed: ${describeFailure(ref.failure)}`,
    completedAt: now.toISOString(),
  });
  if (failed) reportRunFinished(failed);
  await repo.releaseArchiveLock(ref.workspaceId, ref.jobId);
  return { workspaceId: ref.workspaceId, jobId: ref.jobId, status: 'failed' as const };
}

export const notifyInput = jobRef.extend({ status: z.enum(['completed', 'failed']) }).loose();
export { loadJob };
