import * as z from 'zod';

/** Spec 2.5 / 3.1: the states of an export job. */
export const EXPORT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const ARCHIVE_SECTIONS = ['members', 'orders', 'campaigns'] as const;
export type ArchiveSection = (typeof ARCHIVE_SECTIONS)[number];

export const OPERATIONAL_ENTITIES = ['members', 'orders'] as const;
export type OperationalEntity = (typeof OPERATIONAL_ENTITIES)[number];
export const OPERATIONAL_FORMATS = ['csv', 'jsonl'] as const;
export type OperationalFormat = (typeof OPERATIONAL_FORMATS)[number];

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
  })
  .meta({ id: 'OperationalExportJob' });
export type OperationalJob = z.infer<typeof operationalJobSchema>;

export const dataHandlingSchema = z.object({ summary: z.string(), facts: z.array(z.string()) });

export const operationalExportBody = z.strictObject({
  entity: z.enum(OPERATIONAL_ENTITIES),
  format: z.enum(OPERATIONAL_FORMATS),
  webhookUrl: z.string().min(1).max(2048).optional().describe('https URL notified (signed) when the run completes or fails'),
});
export type OperationalExportInput = z.infer<typeof operationalExportBody>;
