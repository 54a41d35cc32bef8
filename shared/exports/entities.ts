/**
 * Export jobs and schedules as the table stores them, with the vocabularies they are written in.
 * Plain declarations below the domain, so the data layer can name them without importing it; the
 * exports area's schemas and schedule rules read the same lists.
 */

/** Spec 2.5 / 3.1: the states of an export job. */
export const EXPORT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const OPERATIONAL_ENTITIES = ['members', 'orders', 'ledger'] as const;
export type OperationalEntity = (typeof OPERATIONAL_ENTITIES)[number];
export const OPERATIONAL_FORMATS = ['csv', 'jsonl'] as const;
export type OperationalFormat = (typeof OPERATIONAL_FORMATS)[number];

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

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
