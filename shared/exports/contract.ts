import * as z from 'zod';
import { config } from '../platform/config';
import { idSchema } from '../platform/validation/common';
import { createScheduleBody, dataHandlingSchema, exportJobSchema, exportScheduleSchema, operationalExportBody, operationalJobSchema } from './schemas';
import { pageQuery } from '../platform/validation/pagination';
import { dataOf, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });
const e = config.exports;

/**
 * Data exports (owner or admin session only; the workspace is the session's): the workspace
 * archive (spec 4.4), operational CSV/JSONL exports (spec 4.5), their download links and the
 * export-signing secret of completion notices. The runs are the export workflow's.
 */
export const exportsArea = declareArea({
  area: 'exports',
  description: 'Data exports: a full workspace archive, operational CSV/JSONL exports of members and orders, their schedules and short-lived download links.',
  access: { table: 'readWrite', exportsBucket: 'read', startsWorkflows: ['export'], signingSecrets: 'seal', secrets: ['pageCursors'] },
  endpoints: {
    startWorkspaceExport: {
      method: 'POST',
      path: '/api/flash/account/data-export',
      auth: ['adminSession'],
      permission: 'exports:workspace',
      summary: 'Start a workspace data export (one JSON archive)',
      responses: {
        202: dataOf(
          z.object({
            id: z.string(),
            status: z.literal('pending'),
            deduped: z.boolean().describe('True: an export was already pending or running; this is that job'),
          }),
        ),
      },
      description:
        'No body. At most one archive job is pending or running per workspace: a request meanwhile answers that job with `deduped: true` and starts nothing. ' +
        'The archive is one JSON document opening with `manifest` (generatedAt, sections with name, recordCount, capped), then the sections members (pseudonymous), orders and campaigns. Audited.',
    },
    listWorkspaceExports: {
      method: 'GET',
      path: '/api/flash/account/data-export',
      auth: ['adminSession'],
      permission: 'exports:workspace',
      summary: 'Workspace export jobs, newest first, with data-handling notes',
      responses: { 200: dataOf(z.object({ jobs: z.array(exportJobSchema), dataHandling: dataHandlingSchema })) },
      description: 'The latest 50 archive jobs. A job still pending or running past its deadline is reported (and recorded) as failed.',
    },
    getExportDownload: {
      method: 'GET',
      path: '/api/flash/exports/{id}/download',
      auth: ['adminSession'],
      permission: 'exports:run',
      summary: 'A fresh short-lived download link of a completed export',
      params: byId,
      responses: {
        200: dataOf(z.object({ url: z.string().describe(`Presigned GET, valid ${e.linkTtlSeconds / 60} minutes, with the file name in Content-Disposition`) })),
      },
      description: `Only for a completed job (otherwise 409 EXPORT_NOT_COMPLETED, and no link is made). Each request mints a new link valid ${e.linkTtlSeconds / 60} minutes and is audited.`,
    },
    startOperationalExport: {
      method: 'POST',
      path: '/api/flash/exports',
      auth: ['adminSession'],
      permission: 'exports:run',
      summary: 'Export members or orders as CSV or JSONL',
      body: operationalExportBody,
      responses: { 202: dataOf(z.object({ id: z.string(), status: z.literal('pending') })) },
      description:
        `Up to ${e.operationalRowCap.toLocaleString('en-US')} rows, newest first (\`capped: true\` when cut). CSV is RFC 4180 with a header row; a text cell beginning with \`=\`, \`+\`, \`-\`, \`@\`, tab or CR gets a leading single quote (spreadsheet formula injection). ` +
        '`webhookUrl` (https) receives a signed notice when the run completes or fails; it needs an export-signing secret (POST /api/flash/exports/signing-secret). Audited.',
    },
    listOperationalExports: {
      method: 'GET',
      path: '/api/flash/exports',
      auth: ['adminSession'],
      permission: 'exports:run',
      summary: 'Operational export jobs, newest first, with when their files expire',
      responses: { 200: dataOf(z.array(operationalJobSchema)) },
      description: `The latest 50 operational jobs, started by hand or by a schedule (\`scheduleId\`). A completed job's file is kept ${e.retentionDays} days (\`fileExpiresAt\`); GET /api/flash/exports/{id}/download mints a fresh link to it until then.`,
    },
    getOperationalExport: {
      method: 'GET',
      path: '/api/flash/exports/{id}',
      auth: ['adminSession'],
      permission: 'exports:run',
      summary: 'An operational export job',
      params: byId,
      responses: { 200: dataOf(operationalJobSchema) },
    },
    rotateExportSigningSecret: {
      method: 'POST',
      path: '/api/flash/exports/signing-secret',
      auth: ['adminSession'],
      permission: 'webhooks:manage',
      summary: 'Create or rotate the export-signing secret (shown once)',
      responses: { 201: dataOf(z.object({ secret: z.string().describe('whsec_...: shown only in this response'), createdAt: z.string() })) },
      description:
        'Signs completion notices the Standard Webhooks way. After a rotation the previous secret keeps signing next to the new one for 24 hours. Audited.',
    },
    createExportSchedule: {
      method: 'POST',
      path: '/api/flash/exports/schedules',
      auth: ['adminSession'],
      permission: 'exports:run',
      summary: 'Schedule a daily or weekly operational export',
      body: createScheduleBody,
      responses: { 201: dataOf(exportScheduleSchema) },
      description:
        'Runs once per period at `hour` in `timezone` (every day, or on `weekday`), starting with the first such time after its creation; a run that was missed (or seen twice) starts once. ' +
        'Each run is an operational export job (and notifies `webhookUrl`, like POST /api/flash/exports). Audited.',
    },
    listExportSchedules: {
      method: 'GET',
      path: '/api/flash/exports/schedules',
      auth: ['adminSession'],
      permission: 'exports:run',
      summary: 'The workspace export schedules',
      query: pageQuery,
      responses: { 200: pageOf(exportScheduleSchema) },
    },
    deleteExportSchedule: {
      method: 'DELETE',
      path: '/api/flash/exports/schedules/{id}',
      auth: ['adminSession'],
      permission: 'exports:run',
      summary: 'Delete an export schedule',
      params: byId,
      responses: { 204: null },
      description: 'No further runs; runs already started finish. Audited.',
    },
  },
});
