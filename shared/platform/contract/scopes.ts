/**
 * What an API key may do. Every endpoint declares the scope it needs and every stored key holds its
 * scopes, so the list belongs to the endpoint language below the areas.
 */

/** The one canonical list of API-key scopes. Routes, presets and the OpenAPI document all read it. */
export const SCOPES = [
  'stores:read',
  'stores:write',
  'members:read',
  'members:write',
  'orders:read',
  'orders:write',
  'catalog:read',
  'catalog:write',
  'coupons:read',
  'coupons:write',
  'tracking:read',
  'tracking:write',
  'ambassador:read',
  'ambassador:write',
  'objects:read',
  'objects:write',
  // Import jobs: a program brought in from another platform.
  'imports:read',
  'imports:write',
  // Campaigns (the MCP tools; the REST routes take an admin session). No preset carries manage.
  'campaigns:read',
  'campaigns:manage',
  // Rewards: the catalog read, run (create, change, void) and redeemed. No preset carries manage or redeem.
  'rewards:read',
  'rewards:manage',
  'rewards:redeem',
  'webhooks:manage',
  'api_keys:manage',
  'privacy:read',
  // Data-subject erasure
  'privacy:write',
  'consent:read',
] as const;

export type Scope = (typeof SCOPES)[number];
