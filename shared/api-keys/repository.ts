import type { ApiKeyLookup, ApiKeyRecord } from './entities';
import { notFound } from '../platform/errors';
import { keyOf, skPrefix } from '../platform/data/keys';
import { getItem, isConditionFailed, updateItem } from '../platform/data/items';
import { batchGetItems, prefixPage, type Page } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

/**
 * Each key is two items written together: the workspace's record (listing, audit) and a global
 * lookup item addressed by the key's SHA-256, so authentication is one consistent GetItem. `steps`
 * (the audit entry) join the same transaction.
 */
export async function createApiKey(key: ApiKeyRecord, steps: TransactStep[]): Promise<void> {
  const lookup: ApiKeyLookup = { workspaceId: key.workspaceId, keyId: key.id, keyHash: key.keyHash, scopes: key.scopes };
  await transactWrite([
    {
      op: {
        Put: {
          Item: { ...keyOf('apiKey', { workspaceId: key.workspaceId, keyId: key.id }), entity: 'apiKey', ...key },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      op: {
        Put: {
          Item: { ...keyOf('apiKeyHash', { keyHash: key.keyHash }), entity: 'apiKeyHash', ...lookup },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    ...steps,
  ]);
}

export async function findApiKeyByHash(keyHash: string): Promise<ApiKeyLookup | undefined> {
  return getItem<ApiKeyLookup & { pk: string }>(keyOf('apiKeyHash', { keyHash }));
}

/** The names and prefixes of these keys, revoked ones included (one batch read of those attributes only). */
export async function keyNames(workspaceId: string, keyIds: readonly string[]): Promise<{ id: string; name: string; prefix: string }[]> {
  return batchGetItems(
    keyIds.map((keyId) => keyOf('apiKey', { workspaceId, keyId })),
    { consistent: false, attributes: ['id', 'name', 'prefix'] },
  );
}

const toRecord = ({ pk: _pk, sk: _sk, entity: _e, ...rest }: Record<string, unknown>) => rest as unknown as ApiKeyRecord;

export async function listApiKeys(workspaceId: string, limit: number, cursor?: string): Promise<Page<ApiKeyRecord>> {
  const { pk } = keyOf('workspace', { workspaceId });
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('apiKey'), { limit, cursor, filters: [{ attr: 'revokedAt', op: 'absent' }] });
  return { ...page, items: page.items.map(toRecord) };
}

/**
 * Revocation removes the lookup item (next request: 401) and stamps the record, atomically (with
 * `steps`). `authorize` sees the record first and may refuse (a key's scopes never change).
 */
export async function revokeApiKey(
  workspaceId: string,
  keyId: string,
  now: string,
  authorize: (record: ApiKeyRecord) => void,
  steps: TransactStep[],
): Promise<void> {
  const record = await getItem<ApiKeyRecord>(keyOf('apiKey', { workspaceId, keyId }));
  if (!record || record.revokedAt) throw notFound('API key');
  authorize(record);
  await transactWrite([
    {
      op: {
        Update: {
          Key: keyOf('apiKey', { workspaceId, keyId }),
          UpdateExpression: 'SET revokedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
          ExpressionAttributeValues: { ':now': now },
        },
      },
      onConditionFailed: () => notFound('API key'),
    },
    { op: { Delete: { Key: keyOf('apiKeyHash', { keyHash: record.keyHash }) } } },
    ...steps,
  ]);
}

/** Records use at most once per `resolutionSeconds`, so busy keys do not write on every request. */
export async function touchApiKey(workspaceId: string, keyId: string, now: Date, resolutionSeconds: number): Promise<void> {
  const stamp = now.toISOString();
  try {
    await updateItem<{ lastUsedAt?: string }>(
      {
        Key: keyOf('apiKey', { workspaceId, keyId }),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt = :null OR lastUsedAt < :before)',
        ExpressionAttributeValues: {
          ':now': stamp,
          ':null': null,
          ':before': new Date(now.getTime() - resolutionSeconds * 1000).toISOString(),
        },
        ReturnValues: 'NONE',
      },
      // Sent again when an attempt's answer is lost: its own stamp then fails the condition.
      { appliedIn: (stored) => stored?.lastUsedAt === stamp },
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}
