import * as z from 'zod';
import { KEY_PATTERN, MAX_FIELDS, putObjectTypeBody } from './definitions';
import { filterValue, MAX_PAGE_SIZE, pageQuery } from '../platform/validation/pagination';
import { freeFormMap, ID_MAX_LENGTH, idSchema, isoDateTime, queryInteger } from '../platform/validation/common';
import { dataOf, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const typeParam = z.object({ type: z.string().max(ID_MAX_LENGTH) });
const recordParams = z.object({ type: z.string().max(ID_MAX_LENGTH), recordId: idSchema });

const fieldSchema = z.object({
  key: z.string(),
  type: z.string(),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
  label: z.string().optional(),
  personal: z.boolean().optional().describe("Present (true) on fields marked as personal data: cleared by the referenced member's erasure"),
});
const typeSummary = z.object({ type: z.string(), label: z.string(), description: z.string().nullable(), titleField: z.string().nullable() });
export const typeDetail = typeSummary.extend({ fields: z.array(fieldSchema) }).meta({ id: 'ObjectType' });
const adminType = typeDetail.extend({
  status: z.enum(['draft', 'published']),
  apiVisible: z.boolean(),
  recordCount: z.number().int(),
  version: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

const recordData = z.record(z.string(), z.unknown()).describe('Field key -> value, validated against the type');
const listItem = z.object({ id: z.string().describe('rec_...'), data: recordData });
export const fullRecord = listItem.extend({ createdAt: isoDateTime, updatedAt: isoDateTime }).meta({ id: 'ObjectRecord' });

export const OBJECT_LIST_DEFAULT_LIMIT = 50;

/** Record list query: known parameters plus any number of `f_<fieldKey>` equality filters. */
export const listRecordsQuery = z
  .looseObject({
    limit: queryInteger(z.number().int().min(1).max(MAX_PAGE_SIZE).default(OBJECT_LIST_DEFAULT_LIMIT)).describe('Page size, 1-200 (default 50)'),
    offset: queryInteger(z.number().int().min(0).max(100_000).default(0)).describe('Matches to skip'),
    sortBy: z.enum(['created_desc', 'created_asc', 'updated_desc', 'title_asc']).default('created_desc'),
    q: z.string().trim().min(1).max(100).optional().describe('Free text: case-insensitive part of any text, email, url or enum field'),
    memberId: filterValue().optional().describe('Records whose member_ref field(s) name this member'),
  })
  .superRefine((q, ctx) => {
    for (const key of Object.keys(q)) {
      if (['limit', 'offset', 'sortBy', 'q', 'memberId'].includes(key)) continue;
      if (!key.startsWith('f_') || !KEY_PATTERN.test(key.slice(2)))
        ctx.addIssue({ code: 'custom', path: [key], message: 'unknown parameter (filters are f_<fieldKey>)' });
    }
  });

export const recordWriteBody = z.strictObject({
  data: freeFormMap(z.string().max(64), z.unknown(), { max: MAX_FIELDS, noun: 'fields' }).describe('Field values; on PATCH a field sent as null is removed'),
});

export const recordPatchBody = recordWriteBody.extend({
  replace: z.boolean().optional().describe('true: overwrite the whole record, validated as a full record'),
});

export const objectsArea = declareArea({
  area: 'objects',
  description: 'Custom objects: object types you define (fields, indexes) and their records, to keep your own data next to members.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listObjectTypeDefinitions: {
      method: 'GET',
      path: '/api/flash/objects/types',
      auth: ['adminSession'],
      permission: 'objects:read',
      summary: 'All object types of the workspace, drafts and hidden ones included',
      responses: { 200: dataOf(z.array(adminType)) },
    },
    putObjectTypeDefinition: {
      method: 'PUT',
      path: '/api/flash/objects/types/{type}',
      auth: ['adminSession'],
      permission: 'objects:manage',
      summary: 'Create or replace an object type',
      params: z.object({ type: z.string().regex(KEY_PATTERN, { message: 'lower-case identifier, e.g. repair_job' }) }),
      body: putObjectTypeBody,
      responses: { 200: dataOf(adminType) },
      description:
        'Creates or replaces the type. While the type has records, a change that could invalidate them (field removed, retyped or made required, enum options removed, title field changed) is refused with 409.',
    },
    browseObjectRecords: {
      method: 'GET',
      path: '/api/flash/objects/types/{type}/records',
      auth: ['adminSession'],
      permission: 'objects:read',
      summary: 'Browse the records of any object type, newest first (console)',
      params: typeParam,
      query: pageQuery,
      responses: { 200: pageOf(fullRecord) },
      description:
        'Every live record of the type, drafts and types hidden from the API included, in cursor pages. Filters and search are on `GET /api/v2/objects/{type}/records`.',
    },
    listObjectTypes: {
      method: 'GET',
      path: '/api/v2/objects',
      auth: ['apiKey'],
      scope: 'objects:read',
      summary: 'Published, API-visible object types',
      responses: { 200: dataOf(z.array(typeSummary)) },
      description: 'Published, API-visible types only.',
    },
    getObjectType: {
      method: 'GET',
      path: '/api/v2/objects/{type}',
      auth: ['apiKey'],
      scope: 'objects:read',
      summary: 'One object type with its fields',
      params: typeParam,
      responses: { 200: dataOf(typeDetail) },
    },
    listObjectRecords: {
      method: 'GET',
      path: '/api/v2/objects/{type}/records',
      auth: ['apiKey'],
      scope: 'objects:read',
      summary: 'List, filter, search and sort records',
      params: typeParam,
      query: listRecordsQuery,
      responses: { 200: z.object({ data: z.array(listItem), total: z.number().int().describe('All matches, not the page') }) },
      description:
        'Filters: `f_<fieldKey>=<value>` (URL-encoded; several AND together; an unknown field key is 422), `memberId`, `q`. Sorted by `sortBy`; paged by `offset` and `limit`.',
    },
    createObjectRecord: {
      method: 'POST',
      path: '/api/v2/objects/{type}/records',
      auth: ['apiKey'],
      scope: 'objects:write',
      summary: 'Create a record',
      idempotent: true,
      params: typeParam,
      body: recordWriteBody,
      responses: { 201: dataOf(listItem) },
    },
    getObjectRecord: {
      method: 'GET',
      path: '/api/v2/objects/{type}/records/{recordId}',
      auth: ['apiKey'],
      scope: 'objects:read',
      summary: 'Get a record',
      params: recordParams,
      responses: { 200: dataOf(fullRecord) },
    },
    updateObjectRecord: {
      method: 'PATCH',
      path: '/api/v2/objects/{type}/records/{recordId}',
      auth: ['apiKey'],
      scope: 'objects:write',
      summary: 'Merge fields into a record, or replace it',
      params: recordParams,
      body: recordPatchBody,
      responses: { 200: dataOf(fullRecord) },
      description: 'Merges field by field (null removes a field); with `replace: true` overwrites the whole record. Answers the record after the change.',
    },
    deleteObjectRecord: {
      method: 'DELETE',
      path: '/api/v2/objects/{type}/records/{recordId}',
      auth: ['apiKey'],
      scope: 'objects:write',
      summary: 'Soft-delete a record',
      params: recordParams,
      responses: { 204: null },
      description: 'Soft delete: the record leaves reads, lists and totals; its data is kept.',
    },
  },
});

/** The answer shapes, for the MCP tools that call the same services. */
export { typeSummary as objectTypeSummarySchema, typeDetail as objectTypeSchema, listItem as objectRecordItemSchema, fullRecord as objectRecordSchema };
