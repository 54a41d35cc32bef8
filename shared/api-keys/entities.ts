import type { Scope } from '../platform/contract/scopes';

/**
 * API keys as the table stores them, with the scopes they carry. Plain declarations below the
 * domain, so the data layer can name them without importing it. Presets and scope checks stay in the
 * domain; the scope list is part of the endpoint language (shared/platform/contract/scopes.ts).
 */

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
