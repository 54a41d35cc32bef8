import * as z from 'zod';
import { objectRecordItemSchema, objectRecordSchema, objectTypeSchema, objectTypeSummarySchema, recordPatchBody, recordWriteBody } from '../../objects';
import * as types from '../../objects';
import * as records from '../../objects';
import { MAX_PAGE_SIZE } from '../../platform/validation/pagination';
import { defineTool, idempotencyKeyArg, READ_ONLY, write } from '../registry';

/** Custom objects: the workspace's own business objects (repair jobs, appointments...). */

const typeArg = z.string().min(1).max(64).describe('The object type key, e.g. repair_job (see list_object_types)');
const recordIdArg = z.string().min(1).max(64).describe('The record id (rec_...)');

export const objectTools = [
  defineTool({
    name: 'list_object_types',
    title: 'List custom object types',
    description:
      "The workspace's custom object types available over the API. Read a type's fields with get_object_type (or the resource objects://types/{type}) before writing records.",
    rest: 'listObjectTypes',
    service: types.apiObjectTypes,
    input: z.strictObject({}),
    output: z.object({ types: z.array(objectTypeSummarySchema) }),
    annotations: READ_ONLY,
    run: async (ctx) => ({ types: (await types.apiObjectTypes(ctx.workspaceId)).map(types.typeSummary) }),
  }),
  defineTool({
    name: 'get_object_type',
    title: "A custom object type's schema",
    description:
      'The fields of a custom object type: key, type (text, number, boolean, date, datetime, email, url, enum with options, member_ref), whether required. Record data must match them.',
    rest: 'getObjectType',
    service: types.apiObjectType,
    input: z.strictObject({ type: typeArg }),
    output: objectTypeSchema,
    annotations: READ_ONLY,
    run: async (ctx, a) => types.typeDetail(await types.apiObjectType(ctx.workspaceId, a.type)),
  }),
  defineTool({
    name: 'list_object_records',
    title: 'List custom object records',
    description:
      'Records of a type with their data and the total of matches. Filters: equality per field (filters: { status: "open" }; several AND together), memberId (records referring to that member), q (free text). sortBy and offset/limit page through them.',
    rest: 'listObjectRecords',
    service: records.listRecords,
    input: z.strictObject({
      type: typeArg,
      filters: z
        .record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), z.string().max(256))
        .optional()
        .describe('Field key -> value that must match exactly'),
      memberId: z.string().min(1).max(64).optional().describe('Only records whose member reference names this member'),
      q: z.string().trim().min(1).max(100).optional().describe('Free text: part of any text, email, url or enum field (case-insensitive)'),
      sortBy: z.enum(['created_desc', 'created_asc', 'updated_desc', 'title_asc']).default('created_desc'),
      offset: z.number().int().min(0).max(100_000).default(0).describe('Matches to skip'),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(50).describe(`How many, 1-${MAX_PAGE_SIZE} (default 50)`),
    }),
    output: z.object({ data: z.array(objectRecordItemSchema), total: z.number().int().describe('All matches, not the page') }),
    annotations: READ_ONLY,
    run: (ctx, a) =>
      records.listRecords(ctx.principal, a.type, {
        limit: a.limit,
        offset: a.offset,
        sortBy: a.sortBy,
        q: a.q,
        memberId: a.memberId,
        filters: a.filters ?? {},
      }),
  }),
  defineTool({
    name: 'get_object_record',
    title: 'Get a custom object record',
    description: 'One record of a custom object type with its field data and its created and updated timestamps.',
    rest: 'getObjectRecord',
    service: records.getRecord,
    input: z.strictObject({ type: typeArg, recordId: recordIdArg }),
    output: objectRecordSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => records.getRecord(ctx.principal, a.type, a.recordId),
  }),
  defineTool({
    name: 'create_object_record',
    title: 'Create a custom object record',
    description:
      'Creates a record of a type. data must match the type (get_object_type): unknown keys, missing required fields, wrong types or enum values are VALIDATION_FAILED with one detail per field. Pass an idempotencyKey so a retry cannot create twice.',
    rest: 'createObjectRecord',
    service: records.createRecord,
    input: z.strictObject({ type: typeArg, data: recordWriteBody.shape.data, idempotencyKey: idempotencyKeyArg }),
    output: objectRecordItemSchema,
    annotations: write({ destructive: false, idempotent: false }),
    writes: 'service',
    idempotent: true,
    run: (ctx, a, w) => records.createRecord(ctx.principal, a.type, { data: a.data }, w),
  }),
  defineTool({
    name: 'update_object_record',
    title: 'Update a custom object record',
    description:
      'Merges fields into a record (a field given as null is removed), or with replace: true overwrites the whole record. Returns the record after the change.',
    rest: 'updateObjectRecord',
    service: records.updateRecord,
    input: z.strictObject({ type: typeArg, recordId: recordIdArg, data: recordPatchBody.shape.data, replace: recordPatchBody.shape.replace }),
    output: objectRecordSchema,
    annotations: write({ destructive: true, idempotent: true }),
    writes: 'service',
    run: (ctx, a) => records.updateRecord(ctx.principal, a.type, a.recordId, { data: a.data, replace: a.replace }),
  }),
  defineTool({
    name: 'delete_object_record',
    title: 'Delete a custom object record',
    description: 'Deletes a record: it leaves every read, list and total and cannot be restored over the API.',
    rest: 'deleteObjectRecord',
    service: records.deleteRecord,
    input: z.strictObject({ type: typeArg, recordId: recordIdArg }),
    output: z.object({ type: z.string(), recordId: z.string(), deleted: z.literal(true) }),
    annotations: write({ destructive: true, idempotent: true }),
    writes: 'service',
    run: async (ctx, a) => {
      await records.deleteRecord(ctx.principal, a.type, a.recordId);
      return { type: a.type, recordId: a.recordId, deleted: true as const };
    },
  }),
];
