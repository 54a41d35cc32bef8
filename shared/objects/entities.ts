/**
 * Custom object types and their records as the table stores them. Plain declarations below the
 * domain, so the data layer can name them without importing it. A stored field definition is the
 * validated definition itself: the domain's field schema is checked against `FieldDefRecord` at
 * compile time (`SameShape`), so this stays the one description of what is stored.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'datetime', 'enum', 'email', 'url', 'member_ref'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const fieldDefRecordSchema = () =>
  z.object({
    key: z.string(),
    type: z.enum(FIELD_TYPES),
    required: z.boolean(),
    options: z.array(z.string()).optional(),
    label: z.string().optional(),
    personal: z.boolean().optional(),
  });
export type FieldDefRecord = z.infer<ReturnType<typeof fieldDefRecordSchema>>;

export const objectTypeRecordSchema = () =>
  z.object({
    workspaceId: z.string(),
    type: z.string(),
    label: z.string(),
    description: z.string().nullable(),
    fields: z.array(fieldDefRecordSchema()),
    /** The field whose value orders `title_asc` (given, or the first text field). */
    titleField: z.string().nullable(),
    status: z.enum(['draft', 'published']),
    apiVisible: z.boolean(),
    /** Live (not deleted) records, kept in each record's own transaction. */
    recordCount: z.number().optional(),
    /**
     * Every live record has its value entries (the type was created, or had no live record, since
     * they exist), so filtered lists may read them. Without it, filtered lists query the sort index.
     */
    valueIndex: z.boolean().optional(),
    version: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  });
export type ObjectTypeRecord = z.infer<ReturnType<typeof objectTypeRecordSchema>>;

export const objectTypeEntity = /* @__PURE__ */ defineEntity({
  name: 'objectType',
  keys: (t: ObjectTypeRecord) => ({ workspaceId: t.workspaceId, type: t.type }),
});

/**
 * A custom-object record, listed per type in three orders (gsi1 created, gsi2 updated, gsi3 title):
 * `titleKey` (the sortable form of its title) is the part of its keys the record does not hold.
 */
export const recordItemSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    type: z.string(),
    data: z.record(z.string(), z.unknown()),
    /** Lower-cased copies of the searchable fields, kept field by field like `data`. */
    search: z.record(z.string(), z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletedAt: z.string().optional(),
    /**
     * Moved on by every write that moves the record's value entries (title, indexed fields, delete),
     * which applies only at the revision it read. Absent on records from before revisions.
     */
    rev: z.number().optional(),
  });
export type RecordItem = z.infer<ReturnType<typeof recordItemSchema>>;

export const objectRecordEntity = /* @__PURE__ */ defineEntity({
  name: 'objectRecord',
  keys: (r: RecordItem, c: { titleKey: string }) => ({
    workspaceId: r.workspaceId,
    type: r.type,
    recordId: r.id,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    titleKey: c.titleKey,
  }),
});
