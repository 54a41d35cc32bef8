/**
 * The door of the api-keys area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { apiKeysArea, apiKeySchema } from './contract';
export { findApiKeyByHash, keyNames, touchApiKey } from './repository';
export { PRESETS } from './scopes';
export { createApiKey, listApiKeys, revokeApiKey } from './service';
