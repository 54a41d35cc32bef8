/**
 * The door of the audit area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { auditArea } from './contract';
export { definitionDiff, diffOf } from './diff';
export { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from './entities';
export { actorOf } from './entry';
export type { ActorDirectory } from './readable';
export { auditEntrySchema } from './schemas';
export { auditCsvOf, audited, listAuditEntries, recordAccess, recordCall, recordRefusal } from './service';
export type { AuditContext } from './service';
