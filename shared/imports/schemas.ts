import * as z from 'zod';
import { listMembersQuery } from '../members';
import { IMPORT_FORMATS, IMPORT_KINDS, IMPORT_STATUSES, importPreviewSchema } from './entities';

const membersFilter = listMembersQuery
  .pick({ q: true, tier: true, status: true, tag: true })
  .describe('Instead of a file (points and tags): the members the members list answers with these filters, each given `change`');
const change = z
  .record(z.string().max(64), z.unknown())
  .describe('With `filter`: the one change made to each member, the fields of a row of the kind (points: points, reason; tags: tag, action)');

export const createImportBody = z
  .strictObject({
    kind: z
      .enum(IMPORT_KINDS)
      .describe(
        'members: profiles (created, or matched by externalId then e-mail); balances: opening balances as lots with their dates; tiers: tiers with their dates; ' +
          'points: a signed points change with its reason per member; tags: a tag added or removed per member',
      ),
    format: z
      .enum(IMPORT_FORMATS)
      .optional()
      .describe('Required with a file. csv: a header row naming the fields, then one row per line; jsonl: one JSON object per line'),
    filter: membersFilter.optional(),
    change: change.optional(),
    countLifetime: z.boolean().optional().describe('balances: count the points toward lifetime points and the tier metric (default false)'),
    notify: z.boolean().optional().describe('balances: send `loyalty.points_earned` for each row, as if earned today (default false)'),
  })
  .meta({ id: 'CreateImport' });
export type CreateImportInput = z.infer<typeof createImportBody>;

const chunkCounts = z.object({
  done: z.number().int().describe('Rows applied by this run'),
  skipped: z.number().int().describe('Rows an earlier run had applied already'),
  failed: z.number().int().describe('Rows not applied: invalid, or refused when applied'),
});

/** An import job as answered. */
export const importJobSchema = z
  .object({
    id: z.string().describe('imp_...'),
    kind: z.enum(IMPORT_KINDS),
    format: z.enum(IMPORT_FORMATS),
    status: z
      .enum(IMPORT_STATUSES)
      .describe('awaiting_upload, previewed (may be previewed again), applying, completed or failed (apply again resumes: applied rows are skipped), undone'),
    countLifetime: z.boolean(),
    notify: z.boolean(),
    filter: membersFilter.nullable().describe('A job over a members filter: the filter (null: a file job)'),
    change: change.nullable().describe('A job over a members filter: its one change'),
    preview: importPreviewSchema().nullable().describe('The last preview; null before the first'),
    progress: chunkCounts
      .extend({
        rows: z.number().int().nullable().describe('Rows in the file (from the preview)'),
        chunks: z.number().int().nullable().describe('Chunks the rows are applied in'),
        chunksDone: z.number().int(),
        estimatedCompletionAt: z
          .string()
          .nullable()
          .describe('While applying: when the job should end at the pace of its rows so far; null before a chunk is counted, or once it is not applying'),
      })
      .describe('Of the last apply: rows done, skipped and failed so far'),
    undo: z
      .object({
        undone: z.number().int().describe('Rows taken back (a members job: members removed, and members it matched)'),
        kept: z.number().int().describe('Members the job created and kept: touched since (a profile or tag change, a ledger entry, an order)'),
      })
      .nullable()
      .describe('What undoing the job did so far; null before an undo'),
    error: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    undoneAt: z.string().nullable(),
  })
  .meta({ id: 'ImportJob' });
export type ImportJob = z.infer<typeof importJobSchema>;

export const createdImportSchema = importJobSchema
  .extend({
    upload: z
      .object({
        method: z.literal('PUT'),
        url: z.string().describe('Presigned S3 PUT of the file: send the file as the request body'),
        expiresAt: z.string(),
      })
      .nullable()
      .describe('Where to upload the file (once, or again to replace it before applying); null for a job over a members filter'),
  })
  .meta({ id: 'CreatedImport' });
