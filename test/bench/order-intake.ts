import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { SCOPES } from '../../shared/domain/api-keys/scopes';
import { documentClientFor, type RunningPlatform } from '../support/platform';
import { load } from './harness';

/**
 * Order intake through the local HTTP API (`POST /api/v2/orders` with an Idempotency-Key: order +
 * points + ledger entry + outbox events + idempotency record in one transaction), next to a plain
 * PutItem loop of an order-sized item on the same DynamoDB Local at the same concurrency.
 */
export async function orderIntake(platform: RunningPlatform, opts: { requests: number; concurrency: number }) {
  const json = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(platform.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as any;
  };
  const reg = await json('/api/v2/auth/register', { workspaceName: 'Bench orders', email: `orders-${Date.now()}@example.test`, password: 'bench password 1' });
  const key = (await json('/api/v2/api-keys', { name: 'bench', scopes: [...SCOPES] }, reg.data.session.token)).data.key as string;
  // One member per client: measures intake, not contention on one member's balance.
  const members: string[] = [];
  for (let i = 0; i < opts.concurrency; i++) members.push((await json('/api/v2/members', { externalId: `bench-${i}` }, key)).data.id);

  const runId = randomUUID().slice(0, 8);
  const api = await load(opts.requests, opts.concurrency, async (i) => {
    const res = await fetch(`${platform.baseUrl}/api/v2/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'idempotency-key': `${runId}-${i}` },
      body: JSON.stringify({
        externalOrderId: `B-${runId}-${i}`,
        memberId: members[i % members.length],
        currency: 'EUR',
        total: 42.5,
        occurredAt: new Date().toISOString(),
        items: [{ sku: 'SKU-1', quantity: 1, unitPrice: 42.5 }],
      }),
    });
    await res.arrayBuffer();
    return res.status === 201;
  });

  const runtime = await platform.runtime();
  const doc = documentClientFor(runtime);
  const raw = await load(opts.requests, opts.concurrency, async (i) => {
    await doc.send(
      new PutCommand({
        TableName: runtime.tableName,
        Item: {
          pk: `BENCH#${runId}#${i}`,
          sk: 'ORDER',
          externalOrderId: `B-${runId}-${i}`,
          memberId: members[i % members.length],
          currency: 'EUR',
          totalMinor: 4250,
          items: [{ sku: 'SKU-1', quantity: 1, unitPrice: 42.5 }],
          occurredAt: new Date().toISOString(),
          expiresAt: Math.floor(Date.now() / 1000) + 3600,
        },
      }),
    );
    return true;
  });
  return {
    name: 'order intake: POST /api/v2/orders vs raw PutItem',
    api,
    rawPutItem: raw,
    throughputRatio: Math.round((api.perSecond / raw.perSecond) * 100) / 100,
    target: '>= 0.5',
  };
}
