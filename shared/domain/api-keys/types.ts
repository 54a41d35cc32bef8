import type { Scope } from './scopes';

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
