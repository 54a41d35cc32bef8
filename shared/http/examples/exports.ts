import type { exportsArea } from '../../exports';
import type { AreaExamples } from './types';
import { at, exportJob, exportSchedule, ids, operationalExportJob } from './world';

export const exportsExamples: AreaExamples<typeof exportsArea> = {
  startWorkspaceExport: { responses: { 202: { data: { id: 'exp_01jpz8y0b2d4f6h8k0n2q4t6wz', status: 'pending', deduped: false } } } },
  listWorkspaceExports: {
    responses: {
      200: {
        data: {
          jobs: [exportJob],
          dataHandling: {
            summary: 'One JSON archive of the workspace: members, points, orders, coupons, tags, custom objects and settings',
            facts: ['Secrets (API keys, webhook secrets, password hashes) are never exported', 'Download links expire after 600 seconds'],
          },
        },
      },
    },
  },
  getExportDownload: {
    params: { id: ids.export },
    responses: {
      200: { data: { url: `https://exports.example.com/ws_01jpz8a1b2c3d4e5f6g7h8j9k0/${ids.export}.json?X-Amz-Expires=600&X-Amz-Signature=5c2f0e9a` } },
    },
  },
  startOperationalExport: {
    summary: 'All members as CSV, announced to a webhook when ready',
    request: { entity: 'members', format: 'csv', webhookUrl: 'https://hooks.example.com/exports' },
    responses: { 202: { data: { id: operationalExportJob.id, status: 'pending' } } },
  },
  listOperationalExports: {
    responses: {
      200: {
        data: [
          {
            ...operationalExportJob,
            status: 'completed',
            rowCount: 5230,
            completedAt: '2026-03-20T10:00:41.000Z',
            scheduleId: ids.schedule,
            fileExpiresAt: '2026-03-27T10:00:41.000Z',
          },
        ],
      },
    },
  },
  getOperationalExport: {
    params: { id: operationalExportJob.id },
    responses: {
      200: {
        data: {
          ...operationalExportJob,
          status: 'completed',
          rowCount: 5230,
          completedAt: '2026-03-20T10:00:41.000Z',
          fileExpiresAt: '2026-03-27T10:00:41.000Z',
        },
      },
    },
  },
  rotateExportSigningSecret: { responses: { 201: { data: { secret: 'whsec_Tg4nW8qK2xR6vZ0mB3cF7hJ1dL5sP9yA4eU2iO8wX6k=', createdAt: at.now } } } },
  createExportSchedule: {
    summary: 'Every Monday at 06:00 Berlin time: orders as JSONL, announced to a webhook (signed: needs the export-signing secret)',
    request: {
      entity: 'orders',
      format: 'jsonl',
      frequency: 'weekly',
      weekday: 'monday',
      hour: 6,
      timezone: 'Europe/Berlin',
      webhookUrl: 'https://hooks.example.com/exports',
    },
    responses: { 201: { data: exportSchedule } },
  },
  listExportSchedules: { query: { limit: 50 }, responses: { 200: { data: [exportSchedule], nextCursor: null } } },
  deleteExportSchedule: { params: { id: ids.schedule }, responses: {} },
};
