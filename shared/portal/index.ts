/**
 * The door of the portal area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { portalArea } from './contract';
export { getCorsSettings, putCorsSettings } from './cors';
export { anyWorkspaceAllowsOrigin, workspaceAllowsOrigin } from './cors-origins';
export { createPortalSession, isConsumerToken, resolveConsumerSession } from './sessions';
export type { ConsumerPrincipal } from './sessions';
