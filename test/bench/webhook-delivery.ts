import { performance } from 'node:perf_hooks';
import { config } from '../../shared/config';
import { SCOPES } from '../../shared/domain/api-keys/scopes';
import { signatureHeader } from '../../shared/domain/webhooks/signing';
import type { RunningPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { load } from './harness';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Deliveries from the outbox to an always-200 receiver (events x endpoints, through stream poller,
 * fan-out, queue driver and worker), next to a raw loop of signed POSTs to the same receiver at the
 * worker's concurrency (batch size x local worker loops): the limit of the delivery step itself.
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

    // The events: one member.created each, written through the API (outbox in the same transaction).
    const started = performance.now();
    await load(opts.events, 16, async (i) => (await post('/api/v2/members', { externalId: `hook-bench-${i}` }, key)).data !== undefined);
    const expected = opts.events * opts.endpoints;
    await receiver.waitFor(expected, 300_000);
    const seconds = (performance.now() - started) / 1000;
    const latencies = receiver.received.map((r) => r.at - Date.parse(JSON.parse(r.body).created_at)).sort((a, b) => a - b);
    const pipeline = {
      deliveries: expected,
      perSecond: round(expected / seconds),
      endToEndP50Ms: round(percentile(latencies, 50)),
      endToEndP99Ms: round(percentile(latencies, 99)),
    };

    const concurrency = config.webhooks.workerBatchSize * config.webhooks.localWorkerConcurrency;
    const secret = { value: `whsec_${Buffer.alloc(32, 7).toString('base64')}`, createdAt: '', expiresAt: null };
    const raw = await load(expected, concurrency, async (i) => {
      const body = JSON.stringify({ id: `evt_raw_${i}`, type: 'member.created', created_at: new Date().toISOString(), data: { resource_id: 'mbr_x', member_ref: 'mbr_x' } });
      const ts = Math.floor(Date.now() / 1000);
      const res = await fetch(`${receiver.url}/raw`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': `evt_raw_${i}`, 'webhook-timestamp': String(ts), 'webhook-signature': signatureHeader([secret], `evt_raw_${i}`, ts, body) },
        body,
      });
      await res.arrayBuffer();
      return res.status === 200;
    });
    return {
      name: `webhook delivery: outbox -> receiver (${opts.events} events x ${opts.endpoints} endpoints) vs raw signed POST loop`,
      pipeline,
      rawSignedPost: raw,
      throughputRatio: round(pipeline.perSecond / raw.perSecond),
      target: '>= 0.5',
    };
  } finally {
    await receiver.close();
  }
}
