/**
 * Import jobs and their applied rows as the table stores them, with the vocabularies they are
 * written in.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const IMPORT_KINDS = ['members', 'balances', 'tiers', 'points', 'tags'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
/** The bulk kinds: one change per row to a member there already is, from a file or a members filter. */
export const BULK_KINDS = ['points', 'tags'] as const;
export type BulkKind = (typeof BULK_KINDS)[number];
export const isBulkKind = (kind: ImportKind): kind is BulkKind => (BULK_KINDS as readonly string[]).includes(kind);
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
      .describe('Rows by what applying them would do: created, matched (members), applied (balances, tiers, points, tags), invalid'),
    errors: z.array(rowErrorSchema()).describe('The first errors in line order: the line (1 = the first line of the file) and the field'),
    totals: z.object({
      members: z.number().int().describe('Members the job would create'),
      points: z.number().int().describe('Points the job would add'),
      pointsRemoved: z.number().int().describe('points: points the job would take away (a positive number)'),
      tagged: z.number().int().describe('tags: rows that add a tag'),
      untagged: z.number().int().describe('tags: rows that remove a tag'),
      pointsByExpiryMonth: z
        .record(z.string(), z.number().int())
        .describe('Points by the month (YYYY-MM, UTC) they expire; `never` for points without an expiry'),
      tiers: z.record(z.string(), z.number().int()).describe('Members the job would put in each tier'),
    }),
    previewedAt: z.string(),
  });
export type ImportPreview = z.infer<ReturnType<typeof importPreviewSchema>>;
export type RowError = z.infer<ReturnType<typeof rowErrorSchema>>;

/** The members list's filters (GET /api/v2/members): what a filtered bulk job walks. */
export const membersFilterSchema = () =>
  z.object({
    q: z.string().optional(),
    tier: z.string().optional(),
    status: z.string().optional(),
    tag: z.string().optional(),
  });
export type MembersFilter = z.infer<ReturnType<typeof membersFilterSchema>>;

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
    /** A job over a members filter instead of a file: the filter, and the one change made to each member. */
    filter: membersFilterSchema().nullable().optional(),
    change: z.record(z.string(), z.unknown()).nullable().optional(),
    /** Who created the job and in which request: the audit entries of its points changes name them. */
    actor: z
      .object({ type: z.enum(['apiKey', 'user']), id: z.string() })
      .nullable()
      .optional(),
    requestId: z.string().nullable().optional(),
    /** What undoing the job did so far: rows taken back, and members it created that were kept (touched since). */
    undo: z.object({ undone: z.number().int(), kept: z.number().int() }).nullable().optional(),
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
  /** points: the lifetime points the entry added (what its undo takes back with it). */
  lifetime?: number;
  /** tags: the tag, what the row did with it, and whether the member's tags changed (undo reverts only a change). */
  tag?: string;
  tagAction?: 'add' | 'remove';
  changed?: boolean;
  /** members: the member's profile version right after the row created it (undo removes it only if untouched since). */
  version?: number;
  /** members: its points revision then (with `version`, what "untouched since" compares). */
  rev?: number;
  at: string;
}
