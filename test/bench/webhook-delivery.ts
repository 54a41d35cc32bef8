import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { performance } from 'node:perf_hooks';
import { config } from '../../shared/platform/config';
import { event, publish } from '../../shared/platform/events/outbox';
import { newId } from '../../shared/platform/ids';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { signatureHeader } from '../../shared/webhooks/signing';
import { documentClientFor, type RunningPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { recordAttempts } from '../../shared/webhooks/repository';
import { configureFor } from './store-calls';
import { load } from './harness';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Deliveries from the outbox to an always-200 receiver (events x endpoints, through stream poller,
 * fan-out, queue driver and worker), next to a raw loop of signed POSTs to the same receiver at the
 * worker's concurrency (batch size x local worker loops): the limit of the delivery step itself.
 * Twice: a burst of events committed at once (the pipeline's throughput, the ratio), and events
 * made through the API by 16 clients (the write-to-receipt latency at the API's pace).
 */
export async function webhookDelivery(platform: RunningPlatform, opts: { events: number; endpoints: number }) {
  const receiver = await startReceiver(() => ({ status: 200 }));
  try {
    const post = async (path: string, body: unknown, token?: string) =>
      (await (
        await fetch(platform.baseUrl + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        })
      ).json()) as any;
    const reg = await post('/api/v2/auth/register', { workspaceName: 'Bench hooks', email: `hooks-${Date.now()}@example.test`, password: 'bench password 1' });
    const key = (await post('/api/v2/api-keys', { name: 'bench', scopes: [...SCOPES] }, reg.data.session.token)).data.key as string;
    for (let i = 0; i < opts.endpoints; i++) await post('/api/v2/webhooks', { url: `${receiver.url}/${i}`, eventTypes: ['member.created'] }, key);

    const expected = opts.events * opts.endpoints;
    const measure = async (write: () => Promise<void>) => {
      receiver.received.length = 0;
      const started = performance.now();
      await write();
      await receiver.waitFor(expected, 300_000);
      const seconds = (performance.now() - started) / 1000;
      const latencies = receiver.received.map((r) => r.at - Date.parse(JSON.parse(r.body).created_at)).sort((a, b) => a - b);
      return {
        deliveries: expected,
        perSecond: round(expected / seconds),
        endToEndP50Ms: round(percentile(latencies, 50)),
        endToEndP99Ms: round(percentile(latencies, 99)),
      };
    };

    // Burst: the events committed to the outbox at once (as many changes committed together would
    // leave them), so the figure is the pipeline's own speed: stream poller, fan-out, queue, worker.
    const runtime = await platform.runtime();
    const doc = documentClientFor(runtime);
    const workspaceId = reg.data.workspace.id as string;
    const burst = await measure(async () => {
      const items = Array.from({ length: opts.events }, () => {
        const id = newId('mbr');
        const step = publish(workspaceId, [event('member.created', { resource_id: id, member_ref: id })])[0]!;
        return step.op.Put!.Item!;
      });
      for (let i = 0; i < items.length; i += 25) {
        let request: BatchWriteCommandInput['RequestItems'] = { [runtime.tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) };
        while (request && Object.keys(request).length) request = (await doc.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
      }
    });

    // At the API's pace: one member.created per member created through the API by 16 clients (the
    // outbox item in the member's own transaction); the latency an integrator sees.
    const paced = await measure(async () => {
      await load(opts.events, 16, async (i) => (await post('/api/v2/members', { externalId: `hook-bench-${i}` }, key)).data !== undefined);
    });

    const concurrency = config.webhooks.workerBatchSize * config.webhooks.localWorkerConcurrency;
    const secret = { value: `whsec_${Buffer.alloc(32, 7).toString('base64')}`, createdAt: '', expiresAt: null };
    const raw = await load(expected, concurrency, async (i) => {
      const body = JSON.stringify({
        id: `evt_raw_${i}`,
        type: 'member.created',
        created_at: new Date().toISOString(),
        data: { resource_id: 'mbr_x', member_ref: 'mbr_x' },
      });
      const ts = Math.floor(Date.now() / 1000);
      const res = await fetch(`${receiver.url}/raw`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': `evt_raw_${i}`,
          'webhook-timestamp': String(ts),
          'webhook-signature': signatureHeader([secret], `evt_raw_${i}`, ts, body),
        },
        body,
      });
      await res.arrayBuffer();
      return res.status === 200;
    });
    // The store's floor: the attempt records alone (the writes every delivery must make, batched as
    // the worker batches them), written by the same repository code at the worker's concurrency,
    // with nothing else in the way (no stream, fan-out, queue or HTTP).
    await configureFor(platform, { quiet: true });
    const batches = Math.ceil(expected / config.webhooks.workerBatchSize);
    const at = new Date().toISOString();
    const floor = await load(batches, config.webhooks.localWorkerConcurrency, async (b) => {
      const attempts = Array.from({ length: config.webhooks.workerBatchSize }, (_, j) => ({
        workspaceId,
        endpointId: `wh_floor${j % opts.endpoints}`,
        payload: receiver.received[0]!.body,
        entry: {
          id: newId('att'),
          deliveryId: `dlv_floor_${b}_${j}`,
          eventId: `evt_floor_${b}_${j}`,
          eventType: 'member.created',
          attempt: 1,
          trigger: 'event' as const,
          statusCode: 200,
          error: null,
          durationMs: 1,
          responseExcerpt: null,
          nextRetryAt: null,
          state: 'delivered' as const,
          at,
        },
      }));
      await Promise.all(recordAttempts(attempts));
      return true;
    });
    const storeFloor = {
      deliveries: batches * config.webhooks.workerBatchSize,
      perSecond: round(floor.perSecond * config.webhooks.workerBatchSize),
      errors: floor.errors,
    };

    return {
      name: `webhook delivery: outbox -> receiver (${opts.events} events x ${opts.endpoints} endpoints) vs raw signed POST loop`,
      burst,
      atApiPace: paced,
      rawSignedPost: raw,
      attemptRecordsOnly: storeFloor,
      throughputRatio: round(burst.perSecond / raw.perSecond),
      vsAttemptRecordsOnly: round(burst.perSecond / storeFloor.perSecond),
      target: '>= 0.5; write-to-receipt p50 <= 1 s, p99 <= 3 s',
    };
  } finally {
    await receiver.close();
  }
}
