import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { config } from '../../../../../shared/platform/config';
import { consumer, CONSUMERS, type ConsumerName, type ConsumerRow } from '../../../../../shared/platform/consumers/table';
import { QUEUES } from '../../../../../shared/platform/ports/queue';
import { CONSUMER_CONSTRUCT_IDS } from '../../../../../infra/app/constructs/consumer-ids';
import { LOCAL_QUEUE_DRIVING } from '../../../../../infra/local/pipelines';

const ROOT = join(import.meta.dirname, '../../../../..');
const rows = CONSUMERS as readonly ConsumerRow[];

describe('consumer table', () => {
  it('names, construct ids and handler files are unique and exist', () => {
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
    // Construct ids are the deployment's (infra/app), one per row and no other.
    expect(Object.keys(CONSUMER_CONSTRUCT_IDS).sort()).toEqual(rows.map((r) => r.name).sort());
    expect(new Set(Object.values(CONSUMER_CONSTRUCT_IDS)).size).toBe(rows.length);
    for (const r of rows) expect(existsSync(join(ROOT, 'functions', r.name, 'handler.ts')), r.name).toBe(true);
  });

  it('sources are real: queues of QUEUES (one consumer each), the table stream, schedule expressions', () => {
    const queueSources = rows.flatMap((r) => (r.kind === 'queue' ? [r.source] : []));
    expect(new Set(queueSources).size).toBe(queueSources.length);
    for (const r of rows) {
      if (r.kind === 'queue') expect(Object.keys(QUEUES)).toContain(r.source);
      if (r.kind === 'stream') expect(r.source).toBe('table');
      if (r.kind === 'schedule') expect(r.source).toMatch(/^(rate|cron)\(.+\)$/);
      for (const q of r.access.sendsTo ?? []) expect(Object.keys(QUEUES)).toContain(q);
    }
  });

  it('the webhook rows carry the numbers of config.webhooks', () => {
    expect(consumer('webhook-fanout')).toMatchObject({ batchSize: config.webhooks.fanoutBatchSize, timeoutSeconds: config.lambda.timeoutSeconds });
    expect(consumer('webhook-worker')).toMatchObject({
      source: 'webhookDeliveries',
      batchSize: config.webhooks.workerBatchSize,
      timeoutSeconds: config.webhooks.workerTimeoutSeconds,
    });
    // How the local queue driver runs it is the local runtime's (infra/local), not the table's.
    expect(LOCAL_QUEUE_DRIVING['webhook-worker']).toEqual({
      concurrency: config.webhooks.localWorkerConcurrency,
      batchWindowMs: config.webhooks.localBatchWindowMs,
    });
    expect(Object.keys(LOCAL_QUEUE_DRIVING).every((n) => consumer(n as ConsumerName).kind === 'queue')).toBe(true);
    expect(consumer('webhook-dlq')).toMatchObject({ source: QUEUES.webhookDeliveries.deadLetter, timeoutSeconds: config.lambda.timeoutSeconds });
    expect(() => consumer('nope' as never)).toThrow(/no consumer/);
  });

  it('the table and the consumer modules import nothing from infra/ or functions/ (both import them downward)', () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const base = join(dirname(file), spec!);
        const resolved = [`${base}.ts`, join(base, 'index.ts'), base].find((p) => existsSync(p) && statSync(p).isFile());
        if (resolved) visit(resolved);
      }
    };
    for (const entry of ['shared/platform/consumers/table.ts', 'shared/platform/consumers/processing.ts', 'shared/webhooks/messages.ts'])
      visit(join(ROOT, entry));
    expect(seen.size).toBeGreaterThan(3);
    const upward = [...seen].map((f) => relative(ROOT, f)).filter((f) => /^(infra|functions)\//.test(f));
    expect(upward).toEqual([]);
  });
});
