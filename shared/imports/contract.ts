import * as z from 'zod';
import { config } from '../platform/config';
import { dataOf, pageOf } from '../platform/contract/contract';
import { withAdminTwins } from '../platform/contract/admin-twins';
import { declareArea } from '../platform/contract/endpoint';
import { idSchema } from '../platform/validation/common';
import { pageQuery } from '../platform/validation/pagination';
import { createdImportSchema, createImportBody, importJobSchema } from './schemas';

const byId = z.object({ id: idSchema });
const c = config.imports;

/** Reading jobs: API keys with `imports:read`. */
const reads = {
  listImports: {
    method: 'GET',
    path: '/api/v2/imports',
    summary: "The workspace's import jobs, newest first",
    query: pageQuery,
    responses: { 200: pageOf(importJobSchema) },
    description: 'Each job as GET /api/v2/imports/{id} answers it, the newest first, a page at a time.',
  },
  getImport: {
    method: 'GET',
    path: '/api/v2/imports/{id}',
    summary: 'An import job: status, preview and progress',
    params: byId,
    responses: { 200: dataOf(importJobSchema) },
  },
} as const;

/** Creating and running jobs: API keys with `imports:write`. */
const writes = {
  createImport: {
    method: 'POST',
    path: '/api/v2/imports',
    summary: 'Create an import job and its upload link',
    body: createImportBody,
    responses: { 201: dataOf(createdImportSchema) },
    description: `The job (\`awaiting_upload\`) and a presigned S3 PUT of its file (up to 5 GB), valid ${c.uploadLinkTtlSeconds / 60} minutes. File formats: docs/migration.md.`,
  },
  previewImport: {
    method: 'POST',
    path: '/api/v2/imports/{id}/preview',
    summary: 'Check every row of the uploaded file without writing anything',
    params: byId,
    responses: { 200: dataOf(importJobSchema) },
    description:
      `Checks each row (fields, dates, tier keys, that a named member exists) and stores on the job rows by outcome, the first ${c.previewErrors} errors with line and field, and the totals. ` +
      'Writes nothing else; may run again until the job is applied. 409 CONFLICT without an uploaded file or after an apply.',
  },
  applyImport: {
    method: 'POST',
    path: '/api/v2/imports/{id}/apply',
    summary: 'Apply a previewed import job (in the background)',
    params: byId,
    responses: { 202: dataOf(importJobSchema) },
    description:
      `The workflow applies the rows in chunks of ${c.chunkRows}, ${c.chunkConcurrency} at a time (\`progress\`). Each row once: applied again, a job skips what it applied. ` +
      'A balance is a lot with its own dates and an entry sourced `import`; lifetime points only with `countLifetime`, `loyalty.points_earned` only with `notify`. 409 CONFLICT before a preview, while applying, after an undo.',
  },
  undoImport: {
    method: 'POST',
    path: '/api/v2/imports/{id}/undo',
    summary: 'Undo an applied import job as a whole',
    params: byId,
    responses: { 200: dataOf(importJobSchema) },
    description:
      `Within ${c.undoDays} days of its end: each balance reversed (a \`correction\` from its own lot), each tier put back, each points row reversed, each tag put back; ` +
      'each member a members job created removed if untouched since (no profile or tag change, no ledger entry, no order), else kept and counted in `undo.kept`. ' +
      'Rows left undone: 409 CONFLICT, undo again. 409 CONFLICT for a job not completed or failed, or past the window.',
  },
} as const;

/** The operations as declared once, before their two credentials are added. */
export type ImportOperations = typeof reads & typeof writes;

/**
 * Import jobs: a program brought in from another platform. A job is created for one kind of file,
 * the file uploaded to its presigned link, previewed (every row checked, nothing written), then
 * applied by the import workflow; applying again skips the rows already applied. Every operation
 * is also the console's, under /api/flash, for a session whose role holds `imports:run`.
 */
export const importsArea = declareArea({
  area: 'imports',
  description: 'Import jobs: members, opening balances and tiers from a CSV or JSON Lines file.',
  // The members' and tags' writes it calls carry the page cursor code (the members area reads that key).
  access: { table: 'readWrite', exportsBucket: 'readWrite', startsWorkflows: ['import'], secrets: ['pageCursors'] },
  endpoints: { ...withAdminTwins(reads, 'imports:read', 'imports:run'), ...withAdminTwins(writes, 'imports:write', 'imports:run') },
});
