/**
 * API keys as the table stores them, with the scopes they carry. Plain declarations below the
 * domain, so the data layer can name them without importing it. The scope list lives here because
 * every stored key holds its scopes; presets and scope checks stay in the domain.
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
  // Campaigns (the MCP tools; the REST routes take an admin session). No preset carries manage.
  'campaigns:read',
  'campaigns:manage',
  'webhooks:manage',
  'api_keys:manage',
  'privacy:read',
  // Data-subject erasure
  'privacy:write',
  'consent:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export interface ApiKey {
  id: string;
  name: string;
  scopes: Scope[];
  /** First characters of the key, enough to recognise it in a list. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Who created it: `user:<id>` or `key:<id>`. */
  createdBy: string;
}

export interface ApiKeyRecord extends ApiKey {
  workspaceId: string;
  keyHash: string;
  revokedAt?: string;
}

/** What the hash lookup item holds: just enough to authenticate a request. */
export interface ApiKeyLookup {
  workspaceId: string;
  keyId: string;
  keyHash: string;
  scopes: Scope[];
}
