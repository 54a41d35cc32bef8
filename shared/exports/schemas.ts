import * as z from 'zod';
import { EXPORT_STATUSES, OPERATIONAL_ENTITIES, OPERATIONAL_FORMATS, WEEKDAYS } from './entities';

export const ARCHIVE_SECTIONS = ['members', 'orders', 'campaigns'] as const;
export type ArchiveSection = (typeof ARCHIVE_SECTIONS)[number];

/** An export job as answered (spec 2.5). */
export const exportJobSchema = z
  .object({
    id: z.string().describe('exp_...'),
    status: z.enum(EXPORT_STATUSES),
    rowCount: z.number().int().nullable().describe('Records written; null until the job completes'),
    createdAt: z.string(),
    completedAt: z.string().nullable().describe('When the job completed or failed'),
    error: z.string().nullable().describe('Why the job failed; null otherwise'),
  })
  .meta({ id: 'ExportJob' });
export type ExportJob = z.infer<typeof exportJobSchema>;

/** An operational export job: the job plus what it exports and whether the row cap cut it. */
export const operationalJobSchema = exportJobSchema
  .extend({
    entity: z.enum(OPERATIONAL_ENTITIES),
    format: z.enum(OPERATIONAL_FORMATS),
    capped: z.boolean().nullable().describe('True when the row cap cut the export; null until it completes'),
    scheduleId: z.string().nullable().describe('esc_...: the schedule whose run this is; null for an export started by hand'),
    fileExpiresAt: z
      .string()
      .nullable()
      .describe('When the file is deleted (the retention after it was written); null until the job completes. Its download links work until then'),
  })
  .meta({ id: 'OperationalExportJob' });
export type OperationalJob = z.infer<typeof operationalJobSchema>;

export const dataHandlingSchema = z.object({ summary: z.string(), facts: z.array(z.string()) });

const entityField = z.enum(OPERATIONAL_ENTITIES).describe('What to export');
const formatField = z.enum(OPERATIONAL_FORMATS).describe('csv: one header row, then one row per record; jsonl: one JSON object per line');

export const operationalExportBody = z.strictObject({
  entity: entityField,
  format: formatField,
  webhookUrl: z.string().min(1).max(2048).optional().describe('https URL notified (signed) when the run completes or fails'),
});
export type OperationalExportInput = z.infer<typeof operationalExportBody>;

// --- Schedules ---

export const createScheduleBody = z.strictObject({
  entity: entityField,
  format: formatField,
  frequency: z.enum(['daily', 'weekly']).describe('daily: every day at `hour`; weekly: on `weekday` at `hour`'),
  weekday: z.enum(WEEKDAYS).optional().describe('Weekly schedules only (required there)'),
  hour: z.number().int().min(0).max(23).describe('Local hour of the run, 0-23'),
  timezone: z.string().min(1).max(64).describe('IANA time zone, e.g. Europe/Berlin'),
  webhookUrl: z.string().min(1).max(2048).optional(),
});
export type CreateScheduleInput = z.infer<typeof createScheduleBody>;

export const exportScheduleSchema = z
  .object({
    id: z.string().describe('esc_...'),
    entity: z.enum(OPERATIONAL_ENTITIES),
    format: z.enum(OPERATIONAL_FORMATS),
    frequency: z.enum(['daily', 'weekly']),
    weekday: z.enum(WEEKDAYS).nullable(),
    hour: z.number().int(),
    timezone: z.string(),
    webhookUrl: z.string().nullable(),
    lastPeriod: z.string().nullable().describe('Local date (YYYY-MM-DD) of the period it last ran; null before its first run'),
    lastJobId: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'ExportSchedule' });
export type ExportSchedule = z.infer<typeof exportScheduleSchema>;
