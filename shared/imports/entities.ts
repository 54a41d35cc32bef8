/**
 * Import jobs and their applied rows as the table stores them, with the vocabularies they are
 * written in.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const IMPORT_KINDS = ['members', 'balances', 'tiers'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * awaiting_upload -> previewed (the file read and every row checked; again on each preview) ->
 * applying -> completed | failed; a completed job may be undone once (undone).
 */
export const IMPORT_STATUSES = ['awaiting_upload', 'previewed', 'applying', 'completed', 'failed', 'undone'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const ROW_OUTCOMES = ['created', 'updated', 'unchanged', 'applied', 'invalid'] as const;
export type RowOutcome = (typeof ROW_OUTCOMES)[number];

const rowErrorSchema = () => z.object({ line: z.number().int(), field: z.string(), message: z.string() });

/** What a preview found: every row checked, nothing written. */
export const importPreviewSchema = () =>
  z.object({
    rows: z.number().int().describe('Data rows in the file (a CSV header is not a row)'),
    valid: z.number().int(),
    invalid: z.number().int(),
    outcomes: z
      .record(z.string(), z.number().int())
      .describe('Rows by what applying them would do: created, updated, unchanged (members), applied (balances, tiers), invalid'),
    errors: z.array(rowErrorSchema()).describe('The first errors in line order: the line (1 = the first line of the file) and the field'),
    totals: z.object({
      members: z.number().int().describe('Members the job would create'),
      points: z.number().int().describe('Points the job would add'),
      pointsByExpiryMonth: z
        .record(z.string(), z.number().int())
        .describe('Points by the month (YYYY-MM, UTC) they expire; `never` for points without an expiry'),
      tiers: z.record(z.string(), z.number().int()).describe('Members the job would put in each tier'),
    }),
    previewedAt: z.string(),
  });
export type ImportPreview = z.infer<ReturnType<typeof importPreviewSchema>>;
export type RowError = z.infer<ReturnType<typeof rowErrorSchema>>;

/** An import job as stored. `chunks` holds each applied chunk's counts (a set per chunk: a repeated chunk counts once). */
export const importJobRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    kind: z.enum(IMPORT_KINDS),
    format: z.enum(IMPORT_FORMATS),
    status: z.enum(IMPORT_STATUSES),
    /** Opening balances count toward lifetime points (and the tier metric). */
    countLifetime: z.boolean(),
    /** Send the member-facing events (`loyalty.points_earned`) the rows would send if earned today. */
    notify: z.boolean(),
    objectKey: z.string(),
    preview: importPreviewSchema().nullable(),
    chunks: z.record(z.string(), z.object({ done: z.number().int(), skipped: z.number().int(), failed: z.number().int() })),
    chunkCount: z.number().int().nullable(),
    error: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    undoneAt: z.string().nullable(),
  });
export type ImportJobRecord = z.infer<ReturnType<typeof importJobRecordSchema>>;

export const importJobEntity = /* @__PURE__ */ defineEntity({
  name: 'importJob',
  keys: (j: ImportJobRecord) => ({ workspaceId: j.workspaceId, jobId: j.id }),
});

/**
 * One applied row: what it did (`outcome`), to whom, and what undoing it needs (the entry it booked,
 * the tier the member had before).
 */
export interface ImportRowRecord {
  jobId: string;
  line: number;
  outcome: RowOutcome;
  memberId: string;
  entryId?: string;
  tierBefore?: { tier: string; reachedAt: string | null; retainedUntil: string | null; reviewAt: string | null };
  /** members: the member's profile version right after the row created it (undo removes it only if untouched since). */
  version?: number;
  at: string;
}
