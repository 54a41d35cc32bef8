import * as repo from './repository';
import { ID_PATTERN, newId } from '../platform/ids';
import { logger } from '../platform/observability/logger';
import type { Workflows } from '../platform/ports/workflows';
import type { Principal } from '../platform/contract/principal';
import { audited, type AuditContext } from '../audit';
import { notFound, validationFailed } from '../platform/errors';
import { newJob, startWorkflow, checkNoticeUrl, type ExportPorts } from './jobs';
import { duePeriod, firstPeriod, isTimeZone } from './schedule-time';
import type { CreateScheduleInput } from './schemas';
import { toSchedule } from './types';
import type { ExportScheduleRecord } from './entities';

/**
 * Export schedules: daily or weekly operational exports, run by the scheduler's tick (an
 * EventBridge schedule in AWS, the local scheduler locally) which starts every due run. Each
 * schedule runs at most once per period, however often or late the tick comes (`claimPeriod`).
 */

export async function createSchedule(
  workspaceId: string,
  input: CreateScheduleInput,
  principal: Principal,
  ports: Pick<ExportPorts, 'egress'>,
  audit: AuditContext,
  now = new Date(),
) {
  const details = [];
  if (!isTimeZone(input.timezone)) details.push({ in: 'body' as const, field: 'timezone', message: 'not an IANA time zone (e.g. Europe/Berlin)' });
  if (input.frequency === 'weekly' && !input.weekday) details.push({ in: 'body' as const, field: 'weekday', message: 'required for a weekly schedule' });
  if (input.frequency === 'daily' && input.weekday) details.push({ in: 'body' as const, field: 'weekday', message: 'only for a weekly schedule' });
  if (details.length) throw validationFailed(details);
  if (input.webhookUrl !== undefined) await checkNoticeUrl(workspaceId, input.webhookUrl, ports);
  const rule = { frequency: input.frequency, weekday: input.weekday ?? null, hour: input.hour, timezone: input.timezone };
  const record: ExportScheduleRecord = {
    id: newId('esc', now.getTime()),
    workspaceId,
    dataset: input.entity,
    format: input.format,
    ...rule,
    webhookUrl: input.webhookUrl ?? null,
    firstPeriod: firstPeriod(rule, now),
    lastPeriod: null,
    lastJobId: null,
    createdBy: principal.kind === 'session' ? principal.userId : principal.keyId,
    createdAt: now.toISOString(),
  };
  await repo.createSchedule(record, [audited(workspaceId, audit, 'export_schedule.created', { type: 'exportSchedule', id: record.id }, now)]);
  return toSchedule(record);
}

export async function listSchedules(workspaceId: string, limit: number, cursor?: string) {
  const page = await repo.listSchedules(workspaceId, limit, cursor);
  return { items: page.items.map(toSchedule), nextCursor: page.nextCursor ?? null };
}

export async function deleteSchedule(workspaceId: string, scheduleId: string, audit: AuditContext, now = new Date()): Promise<void> {
  if (!ID_PATTERN('esc').test(scheduleId)) throw notFound('Export schedule');
  await repo.deleteSchedule(
    workspaceId,
    scheduleId,
    [audited(workspaceId, audit, 'export_schedule.deleted', { type: 'exportSchedule', id: scheduleId }, now)],
    () => notFound('Export schedule'),
  );
}

/** Runs one schedule's due period, if it has one that has not run: resolves with the job started, if any. */
export async function runIfDue(s: ExportScheduleRecord, workflows: Workflows, now: Date): Promise<string | undefined> {
  const period = duePeriod(s, now);
  if (period === undefined || period < s.firstPeriod || (s.lastPeriod !== null && s.lastPeriod >= period)) return undefined;
  const job = newJob(s.workspaceId, 'operational', now, { dataset: s.dataset, format: s.format, webhookUrl: s.webhookUrl, scheduleId: s.id });
  // The run is the schedule creator's request, made by the scheduler.
  const audit: AuditContext = { actor: { type: 'user', id: s.createdBy }, requestId: `schedule:${s.id}:${period}` };
  try {
    await repo.claimPeriod(s, period, job, [audited(s.workspaceId, audit, 'export.requested', { type: 'exportJob', id: job.id }, now)]);
  } catch (err) {
    if (err instanceof repo.PeriodTaken) return undefined;
    throw err;
  }
  await startWorkflow(job, workflows);
  return job.id;
}

/**
 * The tick: every schedule, its due run started once. One schedule's failure is logged and does
 * not stop the others; the next tick tries it again (its period is still due and unclaimed).
 */
export async function tick(workflows: Workflows, now = new Date()): Promise<{ started: string[]; failed: number }> {
  const started: string[] = [];
  let failed = 0;
  for await (const pointers of repo.schedulePointers(100)) {
    for (const p of pointers) {
      try {
        const s = await repo.getSchedule(p.workspaceId, p.scheduleId);
        const jobId = s ? await runIfDue(s, workflows, now) : undefined;
        if (jobId) started.push(jobId);
      } catch (error) {
        failed++;
        logger.error('export schedule run failed', { workspaceId: p.workspaceId, scheduleId: p.scheduleId, error: error as Error });
      }
    }
  }
  return { started, failed };
}
