import type { importsArea } from '../../imports';
import type { AreaExamples } from './types';

const id = 'imp_01jpz9a0b2d4f6h8k0n2q4t6wz';

/** An opening-balances job as it stands after its preview: 1,204 rows, 3 of them refused. */
const previewed = {
  id,
  kind: 'balances' as const,
  format: 'csv' as const,
  status: 'previewed' as const,
  countLifetime: false,
  notify: false,
  preview: {
    rows: 1204,
    valid: 1201,
    invalid: 3,
    outcomes: { applied: 1201, invalid: 3 },
    errors: [
      { line: 18, field: 'points', message: 'must be a whole number' },
      { line: 240, field: 'expiresAt', message: 'is in the past: expired points are not imported' },
      { line: 977, field: 'externalId', message: 'names no member of this workspace' },
    ],
    totals: { members: 0, points: 486_250, pointsByExpiryMonth: { '2026-06': 120_400, '2026-12': 310_850, never: 55_000 }, tiers: {} },
    previewedAt: '2026-03-20T09:02:11.000Z',
  },
  progress: { rows: 1204, chunks: 7, chunksDone: 0, done: 0, skipped: 0, failed: 0 },
  error: null,
  createdAt: '2026-03-20T09:00:00.000Z',
  startedAt: null,
  completedAt: null,
  undoneAt: null,
};

export const importsExamples: AreaExamples<typeof importsArea> = {
  createImport: {
    summary: 'Opening balances as CSV, not counted toward lifetime points',
    request: { kind: 'balances', format: 'csv' },
    responses: {
      201: {
        data: {
          ...previewed,
          status: 'awaiting_upload',
          preview: null,
          progress: { rows: null, chunks: null, chunksDone: 0, done: 0, skipped: 0, failed: 0 },
          upload: {
            method: 'PUT',
            url: `https://exports.example.com/exports/ws_01jpz8a1b2c3d4e5f6g7h8j9k0/imports/${id}.csv?X-Amz-Expires=3600&X-Amz-Signature=9b1e4d7a`,
            expiresAt: '2026-03-20T10:00:00.000Z',
          },
        },
      },
    },
  },
  getImport: {
    params: { id },
    responses: {
      200: {
        data: {
          ...previewed,
          status: 'applying',
          progress: { rows: 1204, chunks: 7, chunksDone: 4, done: 798, skipped: 0, failed: 2 },
          startedAt: '2026-03-20T09:05:00.000Z',
        },
      },
    },
  },
  previewImport: { params: { id }, responses: { 200: { data: previewed } } },
  undoImport: {
    params: { id },
    responses: {
      200: {
        data: {
          ...previewed,
          status: 'undone',
          progress: { rows: 1204, chunks: 7, chunksDone: 7, done: 1201, skipped: 0, failed: 3 },
          startedAt: '2026-03-20T09:05:00.000Z',
          completedAt: '2026-03-20T09:06:12.000Z',
          undoneAt: '2026-03-21T08:00:00.000Z',
        },
      },
    },
  },
  applyImport: { params: { id }, responses: { 202: { data: { ...previewed, status: 'applying', startedAt: '2026-03-20T09:05:00.000Z' } } } },
};
