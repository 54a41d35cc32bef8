import { assertMayExport } from './access';
import type { Role } from '../platform/contract/roles';
import { exportSettings } from '../platform/config';
import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { ID_PATTERN, newId } from '../platform/ids';
import { logger } from '../platform/observability/logger';
import type { Egress } from '../platform/ports/egress';
import type { ObjectStore } from '../platform/ports/object-store';
import type { Workflows } from '../platform/ports/workflows';
import { audited, recordAccess, type AuditContext } from '../audit';

import { AppError, notFound, validationFailed } from '../platform/errors';
import { dataHandling } from './data-handling';
import type { OperationalExportInput } from './schemas';
import * as secrets from './signing-secrets';
import { downloadFilename, toJob, toOperationalJob } from './types';
import type { ExportJobRecord } from './entities';
import { reportRunFinished } from './run-finished';

/** What starting and downloading exports reach beyond the table. */
export interface ExportPorts {
  workflows: Workflows;
  objectStore: Pick<ObjectStore, 'signedGetUrl'>;
  egress: Pick<Egress, 'check'>;
}

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

export function newJob(workspaceId: string, kind: ExportJobRecord['kind'], now: Date, extra: Partial<ExportJobRecord> = {}): ExportJobRecord {
  return {
    id: newId('exp', now.getTime()),
    workspaceId,
    kind,
    status: 'pending',
    rowCount: null,
    createdAt: now.toISOString(),
    startedAt: null,
    completedAt: null,
    error: null,
    deadlineAt: epoch(now) + exportSettings().jobDeadlineSeconds,
    objectKey: null,
    dataset: null,
    format: null,
    capped: null,
    webhookUrl: null,
    scheduleId: null,
    ...extra,
  };
}

/**
 * Starts the job's workflow. A start that fails leaves no job waiting for a run that never comes:
 * the job is failed with the reason (and the archive lock released).
 */
export async function startWorkflow(job: ExportJobRecord, workflows: Workflows): Promise<ExportJobRecord> {
  try {
    await workflows.start('export', job.id, { workspaceId: job.workspaceId, jobId: job.id, kind: job.kind });
    return job;
  } catch (error) {
    logger.error('export workflow not started', { workspaceId: job.workspaceId, jobId: job.id, error: error as Error });
    const failed = await repo.transition(job.workspaceId, job.id, ['pending'], {
      status: 'failed',
      error: 'The export could not be started; request it again',
      completedAt: new Date().toISOString(),
    });
    if (failed) reportRunFinished(failed);
    if (job.kind === 'archive') await repo.releaseArchiveLock(job.workspaceId, job.id);
    return failed ?? job;
  }
}

/**
 * Spec 3.1: at most one pending or running archive job per workspace, enforced by the conditional
 * write of its lock. A request while one is live answers that job with `deduped: true` and creates
 * nothing. Both are audited (`export.requested`).
 */
export async function startArchiveExport(
  workspaceId: string,
  ports: Pick<ExportPorts, 'workflows'>,
  audit: AuditContext,
  now = new Date(),
): Promise<{ id: string; status: 'pending'; deduped: boolean }> {
  await failOverdueJobs(workspaceId, now);
  const job = newJob(workspaceId, 'archive', now);
  try {
    await withOptimisticRetry(() =>
      repo.createArchiveJob(job, [audited(workspaceId, audit, 'export.requested', { type: 'exportJob', id: job.id }, now)], epoch(now)),
    );
  } catch (err) {
    if (!(err instanceof repo.ArchiveJobActive)) throw err;
    await recordAccess(workspaceId, audit, 'export.requested', { type: 'exportJob', id: err.jobId }, now);
    return { id: err.jobId, status: 'pending', deduped: true };
  }
  await startWorkflow(job, ports.workflows);
  return { id: job.id, status: 'pending', deduped: false };
}

/** A notice target: the webhooks' address rules, and a secret to sign with. */
export async function checkNoticeUrl(workspaceId: string, url: string, ports: Pick<ExportPorts, 'egress'>): Promise<void> {
  const reason = ports.egress.check(url);
  if (reason) throw validationFailed([{ in: 'body', field: 'webhookUrl', message: reason }]);
  if (!(await secrets.hasSigningSecret(workspaceId))) {
    throw validationFailed([
      { in: 'body', field: 'webhookUrl', message: 'needs an export-signing secret: create one with POST /api/flash/exports/signing-secret' },
    ]);
  }
}

/** Operational export (spec 4.5): a job of its own per request; the file is CSV or JSONL. */
export async function startOperationalExport(
  workspaceId: string,
  input: OperationalExportInput,
  ports: Pick<ExportPorts, 'workflows' | 'egress'>,
  audit: AuditContext,
  now = new Date(),
) {
  if (input.webhookUrl !== undefined) await checkNoticeUrl(workspaceId, input.webhookUrl, ports);
  const job = newJob(workspaceId, 'operational', now, { dataset: input.entity, format: input.format, webhookUrl: input.webhookUrl ?? null });
  await repo.createJob(job, [audited(workspaceId, audit, 'export.requested', { type: 'exportJob', id: job.id }, now)]);
  await startWorkflow(job, ports.workflows);
  return { id: job.id, status: 'pending' as const };
}

/**
 * A job still pending or running past its deadline (its runner crashed, or the workflow failed in a
 * way no step could record) is failed now, and its lock released: no job stays `running` forever.
 */
async function settleOverdue(job: ExportJobRecord, now: Date): Promise<ExportJobRecord> {
  if ((job.status !== 'pending' && job.status !== 'running') || job.deadlineAt > epoch(now)) return job;
  const failed = await repo.transition(job.workspaceId, job.id, ['pending', 'running'], {
    status: 'failed',
    error: `The export did not finish within ${Math.round(exportSettings().jobDeadlineSeconds / 60)} minutes and was stopped; request it again`,
    completedAt: now.toISOString(),
  });
  if (failed) reportRunFinished(failed);
  if (job.kind === 'archive') await repo.releaseArchiveLock(job.workspaceId, job.id);
  return failed ?? (await repo.getJob(job.workspaceId, job.id)) ?? job;
}

async function failOverdueJobs(workspaceId: string, now: Date): Promise<void> {
  const page = await repo.listJobs(workspaceId, 'archive', 5);
  for (const job of page.items) await settleOverdue(job, now);
}

/** Spec 4.4: the workspace's archive jobs, newest first, with the data-handling notes. */
export async function listArchiveJobs(workspaceId: string, limit: number, now = new Date()) {
  const page = await repo.listJobs(workspaceId, 'archive', limit);
  const jobs = await Promise.all(page.items.map((j) => settleOverdue(j, now)));
  return { jobs: jobs.map(toJob), dataHandling: dataHandling() };
}

const isJobId = (id: string) => ID_PATTERN('exp').test(id);

async function loadJob(workspaceId: string, jobId: string, now: Date): Promise<ExportJobRecord> {
  const job = isJobId(jobId) ? await repo.getJob(workspaceId, jobId) : undefined;
  if (!job) throw notFound('Export job');
  return settleOverdue(job, now);
}

/** The workspace's operational export jobs (by hand and scheduled runs), newest first, each with its file's expiry. */
export async function listOperationalJobs(workspaceId: string, limit: number, now = new Date()) {
  const page = await repo.listJobs(workspaceId, 'operational', limit);
  const jobs = await Promise.all(page.items.map((j) => settleOverdue(j, now)));
  return jobs.map(toOperationalJob);
}

/** An operational job (spec 4.5 polling); an archive job answers with the archive job's shape plus nulls. */
export async function getOperationalJob(workspaceId: string, jobId: string, now = new Date()) {
  const job = await loadJob(workspaceId, jobId, now);
  if (job.kind !== 'operational') throw notFound('Export job');
  return toOperationalJob(job);
}

/**
 * A fresh short-lived presigned GET of a completed job's file. Any other state is 409 and mints
 * nothing. The link request is audited before the link exists: no unaudited link is ever handed out.
 */
/** A fresh link to a completed job's file, for a role that may export what it holds (`assertMayExport`). */
export async function downloadLink(
  workspaceId: string,
  jobId: string,
  ports: Pick<ExportPorts, 'objectStore'>,
  audit: AuditContext,
  role: Role,
  now = new Date(),
) {
  const job = await loadJob(workspaceId, jobId, now);
  assertMayExport(role, job);
  if (job.status !== 'completed' || !job.objectKey) {
    throw new AppError('EXPORT_NOT_COMPLETED', `The export job is ${job.status}; a download link exists only for a completed job`);
  }
  await recordAccess(workspaceId, audit, 'export.link_issued', { type: 'exportJob', id: job.id }, now, { required: true });
  const ttl = exportSettings().linkTtlSeconds;
  const url = await ports.objectStore.signedGetUrl(job.objectKey, { expiresInSeconds: ttl, filename: downloadFilename(job) });
  return { url, expiresAt: new Date(now.getTime() + ttl * 1000).toISOString() };
}

/** Exports pending or running: the newest jobs of each kind (a job ends within its deadline, so older ones have). */
export async function exportsRunning(workspaceId: string): Promise<number> {
  const kinds: ExportJobRecord['kind'][] = ['archive', 'operational'];
  const pages = await Promise.all(kinds.map((k) => repo.listJobs(workspaceId, k, 50)));
  return pages.flatMap((p) => p.items).filter((j) => j.status === 'pending' || j.status === 'running').length;
}
