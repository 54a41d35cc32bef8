import type { importsArea } from '../../imports';
import { twinned } from '../../platform/contract/admin-twins';
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
  filter: null,
  change: null,
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
    totals: {
      members: 0,
      points: 486_250,
      pointsRemoved: 0,
      tagged: 0,
      untagged: 0,
      pointsByExpiryMonth: { '2026-06': 120_400, '2026-12': 310_850, never: 55_000 },
      tiers: {},
    },
    previewedAt: '2026-03-20T09:02:11.000Z',
  },
  progress: { rows: 1204, chunks: 7, chunksDone: 0, done: 0, skipped: 0, failed: 0, estimatedCompletionAt: null },
  undo: null,
  error: null,
  createdAt: '2026-03-20T09:00:00.000Z',
  startedAt: null,
  completedAt: null,
  undoneAt: null,
};

const pointsId = 'imp_01jpzb3c5e7g9j1m3p5r7t9wx2';

/** A points file previewed: 5,000 goodwill points and a few corrections, two rows refused. */
const pointsPreviewed = {
  ...previewed,
  id: pointsId,
  kind: 'points' as const,
  preview: {
    rows: 412,
    valid: 410,
    invalid: 2,
    outcomes: { applied: 410, invalid: 2 },
    errors: [
      { line: 7, field: 'points', message: 'must not be 0: give + to add, - to take away' },
      { line: 133, field: 'email', message: 'names no member of this workspace' },
    ],
    totals: { members: 0, points: 200_000, pointsRemoved: 1_350, tagged: 0, untagged: 0, pointsByExpiryMonth: {}, tiers: {} },
    previewedAt: '2026-03-20T09:02:11.000Z',
  },
  progress: { rows: 412, chunks: 3, chunksDone: 0, done: 0, skipped: 0, failed: 0, estimatedCompletionAt: null },
};

// One example per operation; its console twin shows the same.
export const importsExamples: AreaExamples<typeof importsArea> = twinned({
  listImports: { query: { limit: 50 }, responses: { 200: { data: [previewed], nextCursor: null } } },
  createImport: {
    summary: 'Tag every Gold member: a tags job over a members filter (no file to upload)',
    request: { kind: 'tags', filter: { tier: 'gold' }, change: { tag: 'gold-launch', action: 'add' } },
    responses: {
      201: {
        data: {
          ...previewed,
          kind: 'tags',
          format: 'jsonl',
          filter: { tier: 'gold' },
          change: { tag: 'gold-launch', action: 'add' },
          status: 'awaiting_upload',
          preview: null,
          progress: { rows: null, chunks: null, chunksDone: 0, done: 0, skipped: 0, failed: 0, estimatedCompletionAt: null },
          upload: null,
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
          progress: { rows: 1204, chunks: 7, chunksDone: 4, done: 798, skipped: 0, failed: 2, estimatedCompletionAt: '2026-03-20T09:06:01.000Z' },
          startedAt: '2026-03-20T09:05:00.000Z',
        },
      },
    },
  },
  previewImport: {
    summary: 'A points file: points added and taken, the first errors by line and field',
    params: { id: pointsId },
    responses: { 200: { data: pointsPreviewed } },
  },
  undoImport: {
    params: { id },
    responses: {
      200: {
        data: {
          ...previewed,
          status: 'undone',
          progress: { rows: 1204, chunks: 7, chunksDone: 7, done: 1201, skipped: 0, failed: 3, estimatedCompletionAt: null },
          undo: { undone: 1201, kept: 0 },
          startedAt: '2026-03-20T09:05:00.000Z',
          completedAt: '2026-03-20T09:06:12.000Z',
          undoneAt: '2026-03-21T08:00:00.000Z',
        },
      },
    },
  },
  applyImport: { params: { id }, responses: { 202: { data: { ...previewed, status: 'applying', startedAt: '2026-03-20T09:05:00.000Z' } } } },
});
