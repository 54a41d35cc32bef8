/**
 * The door of the imports area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { applyChunk, applyImport, begin, finish, markFailed } from './apply';
export { importsArea } from './contract';
export type { ImportOperations } from './contract';
export { IMPORT_FORMATS, IMPORT_KINDS } from './entities';
export { createImport, getImport, listImports, previewImport } from './service';
export { undoImport } from './undo';
