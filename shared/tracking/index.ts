/**
 * The door of the tracking area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { trackingArea } from './contract';
export { statsQuery, statsSchema, trackEventSchema, trackResultSchema } from './schemas';
export { stats, trackEvents } from './service';
