import * as repo from './repository';
import { newId } from '../platform/ids';
import { audited, type AuditContext } from '../audit';
import type { Principal } from '../platform/contract/principal';
import { apiKeyPrefix, randomToken, sha256Hex, TOKEN_PREFIX } from '../platform/tokens';
import { getWorkspace } from '../auth';
import { AppError } from '../platform/errors';
import type { CreateApiKeyInput } from './schemas';
import { missingScopes, PRESETS } from './scopes';
import { type Scope, SCOPES } from '../platform/contract/scopes';
import type { ApiKey, ApiKeyRecord } from './entities';
import { assertMayGrantScopes } from '../platform/contract/permissions';

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

/**
 * A key manages only keys within its own scopes: it can neither hand out nor revoke a scope it does
 * not hold. A session grants any scope but those its role's permissions do not reach
 * (`SCOPE_NEEDS`), and revokes any key. 403 naming what it lacks.
 */
function assertWithinCaller(principal: Principal, scopes: readonly Scope[], verb: 'grant' | 'revoke'): void {
  if (principal.kind !== 'apiKey') {
    if (verb === 'grant') assertMayGrantScopes(principal.role, scopes);
    return;
  }
  const beyond = missingScopes(principal.scopes, scopes);
  if (beyond.length === 0) return;
  const what = verb === 'grant' ? 'grant scopes' : 'revoke a key with scopes';
  throw new AppError('FORBIDDEN', `You cannot ${what} you do not hold: ${beyond.join(', ')}`, [
    { in: verb === 'grant' ? 'body' : 'path', field: verb === 'grant' ? 'scopes' : 'id', message: `missing scopes: ${beyond.join(', ')}` },
  ]);
}

export async function createApiKey(principal: Principal, input: CreateApiKeyInput, audit: AuditContext, now = new Date()): Promise<ApiKey & { key: string }> {
  const requested = [...new Set<Scope>(input.scopes ?? PRESETS[input.preset!])];
  assertWithinCaller(principal, requested, 'grant');
  const workspace = await getWorkspace(principal.workspaceId);
  const key = randomToken(apiKeyPrefix(workspace?.sandbox ?? false));
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
  const authorize = (target: ApiKeyRecord) => assertWithinCaller(principal, target.scopes, 'revoke');
  await repo.revokeApiKey(principal.workspaceId, keyId, now.toISOString(), authorize, [
    audited(principal.workspaceId, audit, 'api_key.revoked', { type: 'apiKey', id: keyId }, now),
  ]);
}
