import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import { startQueueDriver, type DriverLog, type QueueDriver, type QueueSpec, type SqsHandler } from '../../../../infra/local/queue-driver';
import { tmpdir } from 'node:os';
import { provideLocalAdapters } from '../../../../infra/local/adapters';
import { LocalQueue } from '../../../../infra/local/local-queue';
import { queueFromConfig } from '../../../../shared/platform/adapters/queue';
import { peekLocalMessages, purgeLocalQueue, ReceiptHandleInvalid } from '../../../../infra/local/local-queue-store';
import { runtimeOf } from '../../../support/platform';

/**
 * The queue driver, in this process, against the running platform's queue database (a second
 * process on the same SQLite file, as a second poller would be). Every test uses
 * throw-away queues (`test-<uuid>`), which the runtime's own driver never polls.
 */

const POLL_MS = 50;
const queue = new LocalQueue<string>();
const drivers: QueueDriver[] = [];
const queues: string[] = [];
const logged: { level: string; message: string }[] = [];
const log: DriverLog = (level, message) => void logged.push({ level, message });

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  // Read lazily by the modules under test (runtimeConfig parses on first use).
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint,
    LOCAL_QUEUE_DB: runtime.queueDatabase,
    AWS_REGION: 'eu-west-1',
  });
});

afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.stop(2000)));
  await Promise.all(queues.splice(0).map((q) => purgeLocalQueue(q)));
});

function newQueue(): string {
  const name = `test-${randomUUID()}`;
  queues.push(name);
  return name;
}

function drive(consumers: Record<string, { handler: SqsHandler; batchSize?: number; concurrency?: number }>, specs: Record<string, QueueSpec>): QueueDriver {
  const d = startQueueDriver({
    consumers: Object.fromEntries(Object.entries(consumers).map(([q, c]) => [q, { batchSize: 10, ...c }])),
    queues: specs,
    pollMs: POLL_MS,
    log,
  });
  drivers.push(d);
  return d;
}

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface Receipt {
  at: number;
  record: SQSRecord;
}

/** A handler that records every delivery and answers with `decide` (default: all succeed). */
function recorder(decide: (r: SQSRecord, receipts: Receipt[]) => 'ok' | 'fail' = () => 'ok') {
  const receipts: Receipt[] = [];
  const handler: SqsHandler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: { itemIdentifier: string }[] = [];
    for (const record of event.Records) {
      receipts.push({ at: Date.now(), record });
      if (decide(record, receipts) === 'fail') failures.push({ itemIdentifier: record.messageId });
    }
    return { batchItemFailures: failures };
  };
  return { receipts, handler, bodies: () => receipts.map((r) => r.record.body) };
}

describe('local queue driver', () => {
  it('queueFromConfig() is the local queue once the local runtime provides its adapters', () => {
    provideLocalAdapters(tmpdir());
    expect(queueFromConfig()).toBeInstanceOf(LocalQueue);
  });

  it('delivers a real-looking SQS event, and honours DelaySeconds', async () => {
    const q = newQueue();
    const r = recorder();
    drive({ [q]: { handler: r.handler } }, { [q]: { visibilitySeconds: 30 } });
    const sentAt = Date.now();
    await queue.send(q, [{ body: 'later', delaySeconds: 1 }, { body: 'now' }]);
    await until('both messages', () => r.receipts.length === 2);
    const [first, second] = r.receipts;
    expect(first!.record.body).toBe('now');
    expect(first!.at - sentAt).toBeLessThan(800);
    expect(second!.record.body).toBe('later');
    expect(second!.at - sentAt).toBeGreaterThanOrEqual(1000);
    expect(first!.record).toMatchObject({
      messageId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      receiptHandle: expect.any(String),
      body: 'now',
      md5OfBody: createHash('md5').update('now').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${q}`,
      awsRegion: 'eu-west-1',
      attributes: { ApproximateReceiveCount: '1', SenderId: expect.any(String) },
    });
    const attrs = first!.record.attributes;
    expect(Number(attrs.SentTimestamp)).toBeGreaterThanOrEqual(sentAt);
    expect(Number(attrs.ApproximateFirstReceiveTimestamp)).toBeGreaterThanOrEqual(Number(attrs.SentTimestamp));
    await until('deleted after success', async () => (await peekLocalMessages(q)).length === 0);
  });

  it('a send in this process wakes an idle driver at once, not at its next poll', async () => {
    const q = newQueue();
    const r = recorder();
    const d = startQueueDriver({ consumers: { [q]: { handler: r.handler, batchSize: 10 } }, queues: { [q]: { visibilitySeconds: 30 } }, pollMs: 60_000, log });
    drivers.push(d);
    await sleep(300); // the first poll found nothing: the driver now sleeps for a minute
    const sentAt = Date.now();
    await queue.send(q, [{ body: 'wake up' }]);
    await until('the message', () => r.receipts.length === 1, 5000);
    expect(r.receipts[0]!.at - sentAt).toBeLessThan(2000);
  });

  it('an idle driver backs off its polls, yet receives a delayed message when its delay ends', async () => {
    const q = newQueue();
    const r = recorder();
    const d = startQueueDriver({
      consumers: { [q]: { handler: r.handler, batchSize: 10 } },
      queues: { [q]: { visibilitySeconds: 30 } },
      pollMs: 50,
      idlePollMaxMs: 60_000,
      log,
    });
    drivers.push(d);
    await sleep(3300); // idle sleeps of 50, 100, ... 1600 ms: the one now running ends about 3 s after the send
    const sentAt = Date.now();
    await queue.send(q, [{ body: 'delayed', delaySeconds: 1 }]);
    await until('the message', () => r.receipts.length === 1, 5000);
    expect(r.receipts[0]!.at - sentAt).toBeGreaterThanOrEqual(1000);
    expect(r.receipts[0]!.at - sentAt).toBeLessThan(1600);
  });

  it('a batching window gathers messages sent one after another into one invocation; without it the first one goes alone', async () => {
    const sizes = async (batchWindowMs: number) => {
      const q = newQueue();
      const batches: number[] = [];
      const handler: SqsHandler = async (event) => void batches.push(event.Records.length);
      const d = startQueueDriver({
        consumers: { [q]: { handler, batchSize: 10, batchWindowMs } },
        queues: { [q]: { visibilitySeconds: 30 } },
        pollMs: 60_000,
        log,
      });
      drivers.push(d);
      await sleep(300); // idle: the next send wakes it
      for (let i = 0; i < 5; i++) {
        await queue.send(q, [{ body: `m${i}` }]);
        await sleep(10);
      }
      await until('every message', () => batches.reduce((a, b) => a + b, 0) === 5, 5000);
      return batches;
    };
    expect(await sizes(500)).toEqual([5]);
    expect((await sizes(0))[0]).toBe(1);
  });

  it('redelivers after the visibility timeout, counting receives', async () => {
    const q = newQueue();
    const r = recorder((_, receipts) => (receipts.length < 3 ? 'fail' : 'ok'));
    drive({ [q]: { handler: r.handler } }, { [q]: { visibilitySeconds: 0.3 } });
    await queue.send(q, [{ body: 'retry me' }]);
    await until('three receives', () => r.receipts.length === 3);
    expect(r.receipts.map((x) => x.record.attributes.ApproximateReceiveCount)).toEqual(['1', '2', '3']);
    expect(new Set(r.receipts.map((x) => x.record.messageId)).size).toBe(1);
    expect(new Set(r.receipts.map((x) => x.record.receiptHandle)).size).toBe(3);
    for (let i = 1; i < 3; i++) expect(r.receipts[i]!.at - r.receipts[i - 1]!.at).toBeGreaterThanOrEqual(280);
    const firstReceive = r.receipts.map((x) => x.record.attributes.ApproximateFirstReceiveTimestamp);
    expect(new Set(firstReceive).size).toBe(1);
    await until('deleted after success', async () => (await peekLocalMessages(q)).length === 0);
  });

  it('batchItemFailures keeps only the failed message', async () => {
    const q = newQueue();
    await queue.send(q, [{ body: 'a' }, { body: 'b' }, { body: 'c' }]);
    const r = recorder((rec) => (rec.body === 'b' && rec.attributes.ApproximateReceiveCount === '1' ? 'fail' : 'ok'));
    drive({ [q]: { handler: r.handler } }, { [q]: { visibilitySeconds: 0.5 } });
    await until('first batch', () => r.receipts.length >= 3);
    expect(r.bodies().slice(0, 3).sort()).toEqual(['a', 'b', 'c']);
    await until('a and c deleted', async () => (await peekLocalMessages(q)).length === 1);
    const [left] = await peekLocalMessages(q);
    expect(left).toMatchObject({ body: 'b', receiveCount: 1 });
    await until('b again', () => r.receipts.length === 4);
    expect(r.receipts[3]!.record).toMatchObject({ body: 'b', attributes: { ApproximateReceiveCount: '2' } });
    await until('queue empty', async () => (await peekLocalMessages(q)).length === 0);
    // A message sent now is received by a later poll than any that could still hand out a, b or c.
    await queue.send(q, [{ body: 'later' }]);
    await until('the later message', () => r.bodies().includes('later'));
    expect(r.bodies().slice(3)).toEqual(['b', 'later']);
  });

  it('a handler that throws keeps the whole batch, and the driver lives on', async () => {
    const q = newQueue();
    await queue.send(q, [{ body: 'x' }, { body: 'y' }]);
    const seen: string[][] = [];
    const handler: SqsHandler = async (event) => {
      seen.push(event.Records.map((r) => `${r.body}${r.attributes.ApproximateReceiveCount}`).sort());
      if (seen.length === 1) throw new Error('boom');
    };
    drive({ [q]: { handler } }, { [q]: { visibilitySeconds: 0.3 } });
    await until('a second invocation', () => seen.length >= 2);
    expect(seen.slice(0, 2)).toEqual([
      ['x1', 'y1'],
      ['x2', 'y2'],
    ]);
    expect(logged.some((l) => l.level === 'error' && /handler failed/.test(l.message))).toBe(true);
    await until('queue empty', async () => (await peekLocalMessages(q)).length === 0);
  });

  it('changeVisibility from the handler postpones the next receive; a stale handle is refused', async () => {
    const q = newQueue();
    const handles: string[] = [];
    let staleHandle: unknown;
    const r = recorder();
    const handler: SqsHandler = async (event) => {
      await r.handler(event, undefined as never);
      const rec = event.Records[0]!;
      handles.push(rec.receiptHandle);
      if (rec.attributes.ApproximateReceiveCount === '1') {
        await queue.changeVisibility(q, rec.receiptHandle, 1);
        return { batchItemFailures: [{ itemIdentifier: rec.messageId }] };
      }
      // The handle of the first receive is stale now.
      staleHandle = await queue.changeVisibility(q, handles[0]!, 0).catch((err: unknown) => err);
      return { batchItemFailures: [] };
    };
    drive({ [q]: { handler } }, { [q]: { visibilitySeconds: 0.2 } });
    await queue.send(q, [{ body: 'postpone me' }]);
    await until('second receive', () => r.receipts.length === 2, 5000);
    expect(r.receipts[1]!.at - r.receipts[0]!.at).toBeGreaterThanOrEqual(950);
    await until('second invocation done', () => staleHandle !== undefined);
    expect(staleHandle).toBeInstanceOf(ReceiptHandleInvalid);
    await until('queue empty', async () => (await peekLocalMessages(q)).length === 0);
    await expect(queue.changeVisibility(q, handles[1]!, 0)).rejects.toBeInstanceOf(ReceiptHandleInvalid);
    await expect(queue.changeVisibility(q, 'not-a-handle', 0)).rejects.toBeInstanceOf(ReceiptHandleInvalid);
    await expect(queue.changeVisibility(q, handles[1]!, 43_201)).rejects.toBeInstanceOf(RangeError);
  });

  it('redrives to the dead-letter queue on the receive after maxReceiveCount, body intact', async () => {
    const q = newQueue();
    const dlq = newQueue();
    const main = recorder(() => 'fail');
    const dead = recorder();
    drive(
      { [q]: { handler: main.handler }, [dlq]: { handler: dead.handler } },
      { [q]: { visibilitySeconds: 0.1, redrive: { maxReceiveCount: 3, deadLetter: dlq } }, [dlq]: { visibilitySeconds: 30 } },
    );
    const body = JSON.stringify({ deliveryId: 'dlv_1', note: 'ünïcødé ✓' });
    const sentAt = Date.now();
    await queue.send(q, [{ body }]);
    await until('dead letter', () => dead.receipts.length === 1);
    expect(main.receipts.map((x) => x.record.attributes.ApproximateReceiveCount)).toEqual(['1', '2', '3']);
    const moved = dead.receipts[0]!.record;
    expect(moved).toMatchObject({
      messageId: main.receipts[0]!.record.messageId,
      body,
      eventSourceARN: `arn:aws:sqs:local:000000000000:${dlq}`,
      attributes: { ApproximateReceiveCount: '1', DeadLetterQueueSourceArn: `arn:aws:sqs:local:000000000000:${q}` },
    });
    expect(Number(moved.attributes.SentTimestamp)).toBe(Number(main.receipts[0]!.record.attributes.SentTimestamp));
    expect(Number(moved.attributes.SentTimestamp)).toBeGreaterThanOrEqual(sentAt);
    await until('both queues empty', async () => (await peekLocalMessages(q)).length + (await peekLocalMessages(dlq)).length === 0);
    expect(main.receipts).toHaveLength(3);
  });

  it('two drivers polling one queue never hold the same message at once', async () => {
    const q = newQueue();
    const ids = await (async () => {
      const bodies = Array.from({ length: 40 }, (_, i) => ({ body: `m${i}` }));
      await queue.send(q, bodies);
      return bodies.map((b) => b.body);
    })();
    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    const deliveries: string[] = [];
    const perDriver = [0, 0];
    const handlerOf =
      (n: 0 | 1): SqsHandler =>
      async (event) => {
        perDriver[n]! += event.Records.length;
        for (const r of event.Records) {
          if (inFlight.has(r.messageId)) overlaps.push(r.messageId);
          inFlight.add(r.messageId);
        }
        await sleep(5 + Math.random() * 30);
        for (const r of event.Records) {
          inFlight.delete(r.messageId);
          deliveries.push(r.body);
        }
      };
    const spec = { visibilitySeconds: 30 };
    drive({ [q]: { handler: handlerOf(0), batchSize: 3, concurrency: 2 } }, { [q]: spec });
    drive({ [q]: { handler: handlerOf(1), batchSize: 3, concurrency: 2 } }, { [q]: spec });
    await until('all delivered', () => deliveries.length >= 40);
    await until('queue empty', async () => (await peekLocalMessages(q)).length === 0);
    expect(overlaps).toEqual([]);
    expect(deliveries.sort()).toEqual(ids.sort());
    expect(perDriver[0]! + perDriver[1]!).toBe(40);
  });

  it('messages survive a driver restart; an abandoned invocation comes back after its visibility', async () => {
    const q = newQueue();
    await queue.send(
      q,
      ['a', 'b', 'c', 'd'].map((body) => ({ body })),
    );
    const spec = { [q]: { visibilitySeconds: 0.5 } };
    const firstRun: string[] = [];
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((r) => (release = r));
    const a = drive(
      {
        [q]: {
          batchSize: 1,
          handler: async (event) => {
            const body = event.Records[0]!.body;
            firstRun.push(body);
            if (firstRun.length === 2) await hanging; // stuck when the driver stops
          },
        },
      },
      spec,
    );
    await until('two receives', () => firstRun.length === 2);
    await a.stop(100); // gives up on the stuck invocation
    const left = await peekLocalMessages(q);
    expect(left).toHaveLength(3);
    const stuck = left.find((m) => m.body === firstRun[1])!;
    expect(stuck.receiveCount).toBe(1);
    release();

    const secondRun: SQSRecord[] = [];
    drive({ [q]: { batchSize: 10, handler: async (event) => void secondRun.push(...event.Records) } }, spec);
    await until('the rest, and the abandoned one', () => secondRun.length === 3);
    expect([firstRun[0], ...secondRun.map((r) => r.body)].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(secondRun.find((r) => r.body === stuck.body)!.attributes.ApproximateReceiveCount).toBe('2');
    await until('queue empty', async () => (await peekLocalMessages(q)).length === 0);
  });
});
