import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { documentClientFor, type RunningPlatform } from '../support/platform';
import { cpuCeiling, withCpu } from './cpu';
import { benchWorkspace, load, warmupRequests } from './harness';
import { anatomyRow, orderAnatomy, sameItemsTransaction } from './order-anatomy';

/** An order of one line for member `i`, unique by `run` (the warm-up's apart from the measured ones). */
export const plainOrder = (members: readonly string[], run: string) => (i: number) => ({
  externalOrderId: `B-${run}-${i}`,
  memberId: members[i % members.length],
  currency: 'EUR',
  total: 42.5,
  occurredAt: new Date().toISOString(),
  items: [{ sku: 'SKU-1', quantity: 1, unitPrice: 42.5 }],
});

/** `POST /api/v2/orders` of `body(i)` with an Idempotency-Key through the local HTTP API; true on 201. */
export const postOrder = (baseUrl: string, key: string, run: string, body: (i: number) => unknown) => async (i: number) => {
  const res = await fetch(`${baseUrl}/api/v2/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'idempotency-key': `${run}-${i}` },
    body: JSON.stringify(body(i)),
  });
  await res.arrayBuffer();
  return res.status === 201;
};

/**
 * Order intake through the local HTTP API (`POST /api/v2/orders` with an Idempotency-Key), next to
 * a raw transaction putting the same items an order writes (count, sizes and indexes, taken from an
 * order: `order-anatomy.ts`) on the same DynamoDB Local at the same concurrency: the floor an order
 * needs, and the target's baseline. The raw five-item transaction the figures were first taken
 * against is kept for context. Each path is warmed up first; CPU per order of each process beside.
 */
export async function orderIntake(platform: RunningPlatform, opts: { requests: number; concurrency: number }) {
  // Many members: measures intake, not contention on one member's balance.
  const { key, members } = await benchWorkspace(platform.baseUrl, 'Bench orders', opts.concurrency * 8);
  const runId = randomUUID().slice(0, 8);
  const runtime = await platform.runtime();
  const anatomy = await orderAnatomy(platform, key, plainOrder(members, `${runId}-anatomy`));
  const order = (run: string) => postOrder(platform.baseUrl, key, run, plainOrder(members, run));
  const doc = documentClientFor(runtime);
  const same = (run: string) => sameItemsTransaction(doc, runtime.tableName, anatomy.stored, run);
  // Context: five items of 400 bytes (member, ledger entry, order, outbox, idempotency record, as an order once wrote).
  const five = (run: string) => async (i: number) => {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: ['M', 'L', 'O', 'E', 'I'].map((k) => ({
          Put: {
            TableName: runtime.tableName,
            Item: { pk: `BENCHTX#${run}#${i}#${k}`, sk: 'X', payload: 'x'.repeat(400) },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        })),
      }),
    );
    return true;
  };
  // Every path warm, so none pays another's JIT compilation (see warmupRequests).
  const warmup = warmupRequests(opts.requests);
  await load(warmup, opts.concurrency, order(`${runId}-warm`));
  await load(warmup, opts.concurrency, same(`${runId}-warm`));
  await load(warmup, opts.concurrency, five(`${runId}-warm`));
  const api = await withCpu(runtime, opts.requests, () => load(opts.requests, opts.concurrency, order(runId)));
  const rawSame = await withCpu(runtime, opts.requests, () => load(opts.requests, opts.concurrency, same(runId)));
  const rawFive = await withCpu(runtime, opts.requests, () => load(opts.requests, opts.concurrency, five(runId)));
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    name: 'order intake: POST /api/v2/orders vs a raw transaction of the same items',
    perOrder: anatomyRow(anatomy),
    api: api.result,
    rawSameItemsTransaction: rawSame.result,
    rawFiveItemTransaction: rawFive.result,
    throughputRatio: ratio(api.result.perSecond, rawSame.result.perSecond),
    target: '>= 0.85 of the raw transaction of the same items',
    vsFiveItemTransaction: ratio(api.result.perSecond, rawFive.result.perSecond),
    cpuMsPerRequest: { api: api.cpuMsPerRequest, rawSameItemsTransaction: rawSame.cpuMsPerRequest, rawFiveItemTransaction: rawFive.cpuMsPerRequest },
    cpuBoundCeiling: cpuCeiling(api.cpuMsPerRequest, rawSame.cpuMsPerRequest),
  };
}
