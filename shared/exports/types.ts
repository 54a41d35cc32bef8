import { exportSettings } from '../platform/config';
import type { ExportJobRecord, ExportScheduleRecord } from './entities';
import type { ArchiveSection, ExportJob, ExportSchedule, OperationalJob } from './schemas';

/** One section of an archive as built: where its part is and what the manifest says of it. */
export interface SectionPart {
  name: ArchiveSection;
  key: string;
  recordCount: number;
  capped: boolean;
}

export function toJob(r: ExportJobRecord): ExportJob {
  return { id: r.id, status: r.status, rowCount: r.rowCount, createdAt: r.createdAt, completedAt: r.completedAt, error: r.error };
}

export function toOperationalJob(r: ExportJobRecord): OperationalJob {
  return {
    ...toJob(r),
    entity: r.dataset ?? 'members',
    format: r.format ?? 'jsonl',
    capped: r.capped,
    scheduleId: r.scheduleId ?? null,
    fileExpiresAt: fileExpiry(r),
  };
}

/** The bucket's lifecycle deletes a file `retentionDays` after it is written: the job's completion. */
function fileExpiry(r: ExportJobRecord): string | null {
  if (r.status !== 'completed' || !r.completedAt) return null;
  return new Date(Date.parse(r.completedAt) + exportSettings().retentionDays * 86_400_000).toISOString();
}

/** Bucket layout: everything of a job under the workspace and job. */
export const jobPrefix = (workspaceId: string, jobId: string) => `exports/${workspaceId}/${jobId}`;
export const archiveKey = (workspaceId: string, jobId: string) => `${jobPrefix(workspaceId, jobId)}/archive.json`;
export const sectionPartKey = (workspaceId: string, jobId: string, section: string) => `${jobPrefix(workspaceId, jobId)}/parts/${section}.json`;
export const operationalKey = (workspaceId: string, jobId: string, entity: string, format: string) => `${jobPrefix(workspaceId, jobId)}/${entity}.${format}`;

/** What the browser saves a download as. */
export function downloadFilename(r: ExportJobRecord): string {
  const day = r.createdAt.slice(0, 10);
  return r.kind === 'archive' ? `workspace-export-${day}-${r.id}.json` : `${r.dataset}-${day}-${r.id}.${r.format}`;
}

export function toSchedule(r: ExportScheduleRecord): ExportSchedule {
  return {
    id: r.id,
    entity: r.dataset,
    format: r.format,
    frequency: r.frequency,
    weekday: r.weekday,
    hour: r.hour,
    timezone: r.timezone,
    webhookUrl: r.webhookUrl,
    lastPeriod: r.lastPeriod,
    lastJobId: r.lastJobId,
    createdAt: r.createdAt,
  };
}
