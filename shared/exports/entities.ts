/**
 * Export jobs and schedules as the table stores them, with the vocabularies they are written in.
 * Plain declarations below the domain, so the data layer can name them without importing it; the
 * exports area's schemas and schedule rules read the same lists.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

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
export const exportJobRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    kind: z.enum(['archive', 'operational']),
    status: z.enum(EXPORT_STATUSES),
    rowCount: z.number().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    error: z.string().nullable(),
    /** Past this (epoch seconds) a job still pending or running is failed when read. */
    deadlineAt: z.number(),
    /** The archive or file, once written. */
    objectKey: z.string().nullable(),
    /** Operational exports only: what is exported (answered as `entity`; the item's `entity` names the item type). */
    dataset: z.enum(OPERATIONAL_ENTITIES).nullable(),
    format: z.enum(OPERATIONAL_FORMATS).nullable(),
    capped: z.boolean().nullable(),
    webhookUrl: z.string().nullable(),
    /** The schedule whose run made it (absent on jobs written before schedules were named). */
    scheduleId: z.string().nullable().optional(),
  });
export type ExportJobRecord = z.infer<ReturnType<typeof exportJobRecordSchema>>;

export const exportJobEntity = /* @__PURE__ */ defineEntity({
  name: 'exportJob',
  keys: (j: ExportJobRecord) => ({ workspaceId: j.workspaceId, jobId: j.id }),
});

/** An export schedule as stored. */
export const exportScheduleRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    /** What it exports (answered as `entity`). */
    dataset: z.enum(OPERATIONAL_ENTITIES),
    format: z.enum(OPERATIONAL_FORMATS),
    frequency: z.enum(['daily', 'weekly']),
    weekday: z.enum(WEEKDAYS).nullable(),
    hour: z.number(),
    timezone: z.string(),
    webhookUrl: z.string().nullable(),
    /** The first period it runs (the first run time after its creation). */
    firstPeriod: z.string(),
    /** The period it last ran (null: not yet), and that run's job. */
    lastPeriod: z.string().nullable(),
    lastJobId: z.string().nullable(),
    /** The user who created it: the actor of its runs' audit entries. */
    createdBy: z.string(),
    createdAt: z.string(),
  });
export type ExportScheduleRecord = z.infer<ReturnType<typeof exportScheduleRecordSchema>>;

export const exportScheduleEntity = /* @__PURE__ */ defineEntity({
  name: 'exportSchedule',
  keys: (s: ExportScheduleRecord) => ({ workspaceId: s.workspaceId, scheduleId: s.id }),
});
