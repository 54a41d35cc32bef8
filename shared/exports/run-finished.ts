import { logger } from '../platform/observability/logger';
import { emitMetric } from '../platform/observability/metrics';
import type { ExportJobRecord } from './entities';

/**
 * An export run has ended: called with the job as the transition to `completed` or `failed`
 * stored it (only by the call that made the transition, so a run is counted once). Emits the
 * run by outcome, its rows and its duration from the request to the end, and one log line.
 */
export function reportRunFinished(job: ExportJobRecord): void {
  if (job.status !== 'completed' && job.status !== 'failed') return;
  const durationMs = job.completedAt ? Math.max(0, Date.parse(job.completedAt) - Date.parse(job.createdAt)) : undefined;
  const rows = job.status === 'completed' ? (job.rowCount ?? 0) : 0;
  emitMetric('exportRuns', 1, { outcome: job.status });
  if (job.status === 'completed') emitMetric('exportRows', rows);
  if (durationMs !== undefined && Number.isFinite(durationMs)) emitMetric('exportDuration', durationMs);
  logger.info('export.run_finished', {
    event: 'export.run_finished',
    workspaceId: job.workspaceId,
    jobId: job.id,
    kind: job.kind,
    outcome: job.status,
    rows,
    ...(durationMs !== undefined ? { durationMs } : {}),
  });
}
