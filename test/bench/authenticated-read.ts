import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keyOf } from '../../shared/platform/data/keys';
import { sha256Hex } from '../../shared/platform/tokens';
import { documentClientFor, type RunningPlatform } from '../support/platform';
import { cpuCeiling, withCpu } from './cpu';
import { load, warmupRequests } from './harness';

/**
 * An authenticated list read through the local HTTP API (`GET /api/v2/api-keys?limit=10`: key
 * lookup + query + middy chain + HTTP), next to the same two DynamoDB calls made directly on the
 * same DynamoDB Local at the same concurrency (the limit the API cannot beat).
 */
export async function authenticatedRead(platform: RunningPlatform, opts: { requests: number; concurrency: number }) {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(platform.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>);
  const reg = await post('/api/v2/auth/register', { workspaceName: 'Bench', email: `bench-${Date.now()}@example.test`, password: 'bench password 1' });
  const key = (await post('/api/v2/api-keys', { name: 'bench', scopes: ['api_keys:manage'] }, reg.data.session.token)).data.key as string;
  const workspaceId = reg.data.workspace.id as string;

  const runtime = await platform.runtime();
  const doc = documentClientFor(runtime);
  const { pk } = keyOf('workspace', { workspaceId });

  const apiRead = async () => {
    const res = await fetch(`${platform.baseUrl}/api/v2/api-keys?limit=10`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return res.status === 200;
  };
  const rawRead = async () => {
    await doc.send(new GetCommand({ TableName: runtime.tableName, Key: keyOf('apiKeyHash', { keyHash: sha256Hex(key) }), ConsistentRead: true }));
    const out = await doc.send(
      new QueryCommand({
        TableName: runtime.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': pk, ':p': 'APIKEY#' },
        Limit: 10,
        ScanIndexForward: false,
      }),
    );
    return (out.Items?.length ?? 0) > 0;
  };
  // Both paths warm, so neither pays the other's JIT compilation (see warmupRequests).
  await load(warmupRequests(opts.requests), opts.concurrency, apiRead);
  await load(warmupRequests(opts.requests), opts.concurrency, rawRead);
  const api = await withCpu(runtime, opts.requests, () => load(opts.requests, opts.concurrency, apiRead));
  const raw = await withCpu(runtime, opts.requests, () => load(opts.requests, opts.concurrency, rawRead));
  return {
    name: 'authenticated read: HTTP API vs raw GetItem+Query',
    api: api.result,
    rawDynamo: raw.result,
    throughputRatio: Math.round((api.result.perSecond / raw.result.perSecond) * 100) / 100,
    target: '>= 0.8',
    cpuMsPerRequest: { api: api.cpuMsPerRequest, rawDynamo: raw.cpuMsPerRequest },
    cpuBoundCeiling: cpuCeiling(api.cpuMsPerRequest, raw.cpuMsPerRequest),
  };
}
