import type { ArchiveSection, ExportJob, ExportSchedule, ExportStatus, OperationalEntity, OperationalFormat, OperationalJob } from './schemas';
import type { Weekday } from './schedule-time';

/** One section of an archive as built: where its part is and what the manifest says of it. */
export interface SectionPart {
  name: ArchiveSection;
  key: string;
  recordCount: number;
  capped: boolean;
}

/** An export job as stored. */
export interface ExportJobRecord {
  id: string;
  workspaceId: string;
  kind: 'archive' | 'operational';
  status: ExportStatus;
  rowCount: number | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  error: string | null;
  /** Past this (epoch seconds) a job still pending or running is failed when read. */
  deadlineAt: number;
  /** The archive or file, once written. */
  objectKey: string | null;
  /** Operational exports only: what is exported (answered as `entity`; the item's `entity` names the item type). */
  dataset: OperationalEntity | null;
  format: OperationalFormat | null;
  capped: boolean | null;
  webhookUrl: string | null;
}

export function toJob(r: ExportJobRecord): ExportJob {
  return { id: r.id, status: r.status, rowCount: r.rowCount, createdAt: r.createdAt, completedAt: r.completedAt, error: r.error };
}

export function toOperationalJob(r: ExportJobRecord): OperationalJob {
  return { ...toJob(r), entity: r.dataset ?? 'members', format: r.format ?? 'jsonl', capped: r.capped };
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

/** An export schedule as stored. */
export interface ExportScheduleRecord {
  id: string;
  workspaceId: string;
  /** What it exports (answered as `entity`). */
  dataset: OperationalEntity;
  format: OperationalFormat;
  frequency: 'daily' | 'weekly';
  weekday: Weekday | null;
  hour: number;
  timezone: string;
  webhookUrl: string | null;
  /** The first period it runs (the first run time after its creation). */
  firstPeriod: string;
  /** The period it last ran (null: not yet), and that run's job. */
  lastPeriod: string | null;
  lastJobId: string | null;
  /** The user who created it: the actor of its runs' audit entries. */
  createdBy: string;
  createdAt: string;
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
