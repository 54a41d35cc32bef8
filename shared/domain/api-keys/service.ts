import * as repo from '../../data/repositories/api-keys';
import { newId } from '../../ids';
import { audited, type AuditContext } from '../audit/service';
import type { Principal } from '../auth/principal';
import { randomToken, sha256Hex, TOKEN_PREFIX } from '../auth/secrets';
import { forbidden } from '../../errors';
import type { CreateApiKeyInput } from './schemas';
import { PRESETS, SCOPES, type Scope } from './scopes';
import type { ApiKey, ApiKeyRecord } from './types';

/** Shown in lists so a key can be recognised: the prefix plus four characters of the secret. */
const DISPLAY_PREFIX_LENGTH = TOKEN_PREFIX.apiKey.length + 4;

const toPublic = (r: ApiKeyRecord): ApiKey => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  prefix: r.prefix,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt ?? null,
  createdBy: r.createdBy,
});

/** Scopes the caller may hand out: an admin session any, an API key at most its own. */
function grantable(principal: Principal): ReadonlySet<Scope> {
  return new Set(principal.kind === 'apiKey' ? principal.scopes : SCOPES);
}

export async function createApiKey(
  principal: Principal,
  input: CreateApiKeyInput,
  audit: AuditContext,
  now = new Date(),
): Promise<ApiKey & { key: string }> {
  const requested = [...new Set<Scope>(input.scopes ?? PRESETS[input.preset!])];
  const allowed = grantable(principal);
  const beyond = requested.filter((s) => !allowed.has(s));
  if (beyond.length > 0) throw forbidden(`You cannot grant scopes you do not hold: ${beyond.join(', ')}`);
  const key = randomToken(TOKEN_PREFIX.apiKey);
  const record: ApiKeyRecord = {
    id: newId('key'),
    workspaceId: principal.workspaceId,
    name: input.name,
    scopes: SCOPES.filter((s) => requested.includes(s)),
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    keyHash: sha256Hex(key),
    createdAt: now.toISOString(),
    lastUsedAt: null,
    createdBy: principal.kind === 'apiKey' ? `key:${principal.keyId}` : `user:${principal.userId}`,
  };
  await repo.createApiKey(record, [audited(principal.workspaceId, audit, 'api_key.created', { type: 'apiKey', id: record.id }, now)]);
  return { ...toPublic(record), key };
}

export async function listApiKeys(principal: Principal, limit: number, cursor?: string) {
  const page = await repo.listApiKeys(principal.workspaceId, limit, cursor);
  return { items: page.items.map(toPublic), nextCursor: page.nextCursor ?? null };
}

export async function revokeApiKey(principal: Principal, keyId: string, audit: AuditContext, now = new Date()): Promise<void> {
  await repo.revokeApiKey(principal.workspaceId, keyId, now.toISOString(), [audited(principal.workspaceId, audit, 'api_key.revoked', { type: 'apiKey', id: keyId }, now)]);
}
