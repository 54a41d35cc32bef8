import * as z from 'zod';
import { config } from '../platform/config';
import { dataOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';
import { idSchema } from '../platform/validation/common';
import { createdImportSchema, createImportBody, importJobSchema } from './schemas';

const byId = z.object({ id: idSchema });
const c = config.imports;

/**
 * Import jobs: a program brought in from another platform. A job is created for one kind of file,
 * the file uploaded to its presigned link, previewed (every row checked, nothing written), then
 * applied by the import workflow; applying again skips the rows already applied.
 */
export const importsArea = declareArea({
  area: 'imports',
  description: 'Import jobs: members, opening balances (lots with their own dates) and tiers from a CSV or JSON Lines file, previewed before they are applied.',
  access: { table: 'readWrite', exportsBucket: 'readWrite', startsWorkflows: ['import'] },
  endpoints: {
    createImport: {
      method: 'POST',
      path: '/api/v2/imports',
      auth: ['apiKey'],
      scope: 'imports:write',
      summary: 'Create an import job and its upload link',
      body: createImportBody,
      responses: { 201: dataOf(createdImportSchema) },
      description:
        `Answers the job (\`awaiting_upload\`) and a presigned S3 PUT valid ${c.uploadLinkTtlSeconds / 60} minutes: send the file (up to 5 GB) as its body. ` +
        'Nothing is read until the job is previewed. The file formats, with examples: docs/migration.md.',
    },
    getImport: {
      method: 'GET',
      path: '/api/v2/imports/{id}',
      auth: ['apiKey'],
      scope: 'imports:read',
      summary: 'An import job: status, preview and progress',
      params: byId,
      responses: { 200: dataOf(importJobSchema) },
    },
    previewImport: {
      method: 'POST',
      path: '/api/v2/imports/{id}/preview',
      auth: ['apiKey'],
      scope: 'imports:write',
      summary: 'Check every row of the uploaded file without writing anything',
      params: byId,
      responses: { 200: dataOf(importJobSchema) },
      description:
        `Reads the uploaded file and checks each row (fields, dates, tier keys, that the member a balance or tier names exists) and stores on the job what applying it would do: rows by outcome, the first ${c.previewErrors} errors with their line and field, and the totals it would add (members created, points by expiry month, members per tier). ` +
        'Writes nothing else; may run again after a corrected file is uploaded, until the job is applied. 409 CONFLICT when no file was uploaded or the job was applied.',
    },
    applyImport: {
      method: 'POST',
      path: '/api/v2/imports/{id}/apply',
      auth: ['apiKey'],
      scope: 'imports:write',
      summary: 'Apply a previewed import job (in the background)',
      params: byId,
      responses: { 202: dataOf(importJobSchema) },
      description:
        `Answers at once with the job \`applying\`; the workflow applies the rows in chunks of ${c.chunkRows}, ${c.chunkConcurrency} chunks at a time, and the job's \`progress\` counts them. ` +
        'Each row is applied once: a job applied again (after it failed, or completed) skips the rows already applied. Invalid rows are skipped and counted as failed. ' +
        'Opening balances become lots with their own earn and expiry dates and a ledger entry sourced `import` with the job id; they count toward lifetime points only with `countLifetime`, and send `loyalty.points_earned` only with `notify`. ' +
        '409 CONFLICT before a preview, while applying, or after an undo.',
    },
    undoImport: {
      method: 'POST',
      path: '/api/v2/imports/{id}/undo',
      auth: ['apiKey'],
      scope: 'imports:write',
      summary: 'Undo an applied import job as a whole',
      params: byId,
      responses: { 200: dataOf(importJobSchema) },
      description:
        `Within ${c.undoDays} days of the job's end: each opening balance it booked is reversed (a \`correction\` naming the entry, taken from that lot first, with the lifetime points it added), each tier it set is put back as it was. ` +
        'The job becomes `undone` and is not applied again. A row that cannot be undone leaves the job as it was with 409 CONFLICT naming how many are left; undo again takes back only those. ' +
        '409 CONFLICT for a members job, a job not completed or failed, or past the window.',
    },
  },
});
