/**
 * The door of the privacy area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { privacyArea } from './contract';
export { eraseMember } from './erasure';
export { personalData } from './personal-data';
