/**
 * The door of the objects area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export {
  fullRecord,
  objectRecordItemSchema,
  objectRecordSchema,
  objectsArea,
  objectTypeSummarySchema,
  recordPatchBody,
  recordWriteBody,
  typeDetail as objectTypeSchema,
} from './contract';
export { effectiveTitleField, putObjectTypeBody, typeKeySchema } from './definitions';
export type { FieldDef, ObjectTypeDefinition } from './definitions';
export { FIELD_TYPES } from './entities';
export { adminView, apiObjectType, apiObjectTypes, listAllObjectTypes, putObjectType, typeDetail, typeSummary } from './object-types';
export { personalFieldsOf } from './personal-fields';
export { guardWrite } from './rate-guard';
export { browseRecords, clearRecordFields, createRecord, deleteRecord, getRecord, listRecords, recordsReferencing, updateRecord } from './records';
