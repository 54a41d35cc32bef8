/**
 * The door of the captures area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { capturesArea } from './contract';
export { captureSchema, normalisePhone } from './schemas';
export { createCapture, fingerprintOf } from './service';
export type { CaptureResult } from './service';
