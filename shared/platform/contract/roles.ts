/**
 * What a signed-in user may do. Sessions carry a role, admin-session endpoints and the OpenAPI
 * document name the roles they admit, and users store theirs, so the list sits below the areas,
 * beside the scopes of API keys.
 */

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const isAdminRole = (role: Role): boolean => role === 'owner' || role === 'admin';
