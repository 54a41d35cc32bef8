import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { documentClientFor, type RunningPlatform } from '../support/platform';
import { cpuCeiling, withCpu } from './cpu';
import { benchWorkspace, load, warmupRequests } from './harness';

/**
 * Order intake through the local HTTP API (`POST /api/v2/orders` with an Idempotency-Key: order +
 * points + ledger entry + outbox events + idempotency record in one transaction), next to a
 * raw transaction of the five items an order writes on the same DynamoDB Local at the same
 * concurrency (the floor an order needs; a plain PutItem loop is shown for context).
 */
export async function orderIntake(platform: RunningPlatform, opts: { requests: number; concurrency: number }) {
  // Many members: measures intake, not contention on one member's balance.
  const { key, members } = await benchWorkspace(platform.baseUrl, 'Bench orders', opts.concurrency * 8);

  const runId = randomUUID().slice(0, 8);
  const runtime = await platform.runtime();
  // `run` keeps the warm-up's orders, keys and items apart from the measured ones.
  const order = (run: string) => async (i: number) => {
    const res = await fetch(`${platform.baseUrl}/api/v2/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'idempotency-key': `${run}-${i}` },
      body: JSON.stringify({
        externalOrderId: `B-${run}-${i}`,
        memberId: members[i % members.length],
        currency: 'EUR',
        total: 42.5,
        occurredAt: new Date().toISOString(),
        items: [{ sku: 'SKU-1', quantity: 1, unitPrice: 42.5 }],
      }),
    });
    await res.arrayBuffer();
    return res.status === 201;
  };
  const doc = documentClientFor(runtime);
  // Context, not the target's baseline: one raw transaction of the five items an order writes
  // (member, ledger entry, order, outbox, idempotency record) shows what DynamoDB Local itself allows.
  const item = (pk: string) => ({ pk, sk: 'X', payload: 'x'.repeat(400) });
  const transaction = (run: string) => async (i: number) => {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: ['M', 'L', 'O', 'E', 'I'].map((k) => ({
          Put: { TableName: runtime.tableName, Item: item(`BENCHTX#${run}#${i}#${k}`), ConditionExpression: 'attribute_not_exists(pk)' },
        })),
      }),
    );
    return true;
  };
  // Both paths warm, so neither pays the other's JIT compilation (see warmupRequests).
  await load(warmupRequests(opts.requests), opts.concurrency, order(`${runId}-warm`));
  await load(warmupRequests(opts.requests), opts.concurrency, transaction(`${runId}-warm`));
  const api = await withCpu(runtime, opts.requests, () => load(opts.requests, opts.concurrency, order(runId)));
  const rawTransaction = await withCpu(runtime, opts.requests, () => load(opts.requests, opts.concurrency, transaction(runId)));
  // Context: a plain PutItem of the order alone.
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
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    name: 'order intake: POST /api/v2/orders vs raw PutItem',
    api: api.result,
    rawPutItem: raw,
    rawFiveItemTransaction: rawTransaction.result,
    throughputRatio: ratio(api.result.perSecond, rawTransaction.result.perSecond),
    target: '>= 0.85 of the raw five-item transaction',
    vsPutItem: ratio(api.result.perSecond, raw.perSecond),
    transactionFloorRatio: ratio(rawTransaction.result.perSecond, raw.perSecond),
    cpuMsPerRequest: { api: api.cpuMsPerRequest, rawFiveItemTransaction: rawTransaction.cpuMsPerRequest },
    cpuBoundCeiling: cpuCeiling(api.cpuMsPerRequest, rawTransaction.cpuMsPerRequest),
  };
}
