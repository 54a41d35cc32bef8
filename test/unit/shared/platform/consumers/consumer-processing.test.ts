import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import {
  MalformedMessage,
  parseMessage,
  processQueueBatch,
  processStreamInOrder,
  retryAfter,
  RetryScheduled,
} from '../../../../../shared/platform/consumers/processing';
import { jsonBody } from '../../../../../shared/webhooks/messages';
import type { Queue } from '../../../../../shared/platform/ports/queue';

const sqsRecord = (messageId: string): SQSRecord =>
  ({ messageId, body: messageId, receiptHandle: `rh-${messageId}`, attributes: { ApproximateReceiveCount: '1' } }) as unknown as SQSRecord;
const sqsEvent = (...ids: string[]): SQSEvent => ({ Records: ids.map(sqsRecord) });
const streamRecord = (seq: string): DynamoDBRecord => ({ eventName: 'INSERT', dynamodb: { SequenceNumber: seq } });
const streamEvent = (...seqs: string[]): DynamoDBStreamEvent => ({ Records: seqs.map(streamRecord) });

describe('queue batches (Powertools, SQS)', () => {
  it('a failing record fails alone; the others succeed', async () => {
    const seen: string[] = [];
    const result = await processQueueBatch(sqsEvent('a', 'b', 'c'), undefined, async (r) => {
      seen.push(r.messageId);
      if (r.messageId === 'b') throw new Error('b is broken');
    });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
    expect(seen.sort()).toEqual(['a', 'b', 'c']);
  });

  it('records run in parallel', async () => {
    let inFlight = 0;
    let most = 0;
    await processQueueBatch(sqsEvent('a', 'b', 'c', 'd'), undefined, async () => {
      most = Math.max(most, ++inFlight);
      await sleep(20);
      inFlight--;
    });
    expect(most).toBe(4);
  });

  it('a batch in which every record fails is reported, not thrown (retries are normal work)', async () => {
    const result = await processQueueBatch(sqsEvent('a', 'b'), undefined, async () => {
      throw new Error('retry later');
    });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }, { itemIdentifier: 'b' }] });
  });

  it('concurrent invocations of one module keep their batches apart (the local driver runs several)', async () => {
    const results = await Promise.all(
      ['x', 'y', 'z'].map((prefix) =>
        processQueueBatch(sqsEvent(`${prefix}1`, `${prefix}2`), undefined, async (r) => {
          await sleep(Math.random() * 20);
          if (r.messageId.endsWith('2')) throw new Error('no');
        }),
      ),
    );
    expect(results).toEqual([
      { batchItemFailures: [{ itemIdentifier: 'x2' }] },
      { batchItemFailures: [{ itemIdentifier: 'y2' }] },
      { batchItemFailures: [{ itemIdentifier: 'z2' }] },
    ]);
  });
});

describe('stream batches (Powertools, DynamoDB Streams, in order)', () => {
  it('handles records one after the other, in stream order', async () => {
    const order: string[] = [];
    let inFlight = 0;
    const result = await processStreamInOrder(streamEvent('1', '2', '3'), undefined, async (r) => {
      expect(++inFlight).toBe(1);
      await sleep(5);
      order.push(r.dynamodb!.SequenceNumber!);
      inFlight--;
    });
    expect(order).toEqual(['1', '2', '3']);
    expect(result).toEqual({ batchItemFailures: [] });
  });

  it('stops at the first failure: later records are not attempted and are reported with it', async () => {
    const attempted: string[] = [];
    const result = await processStreamInOrder(streamEvent('10', '11', '12', '13'), undefined, async (r) => {
      attempted.push(r.dynamodb!.SequenceNumber!);
      if (r.dynamodb!.SequenceNumber === '11') throw new Error('queue unavailable');
    });
    expect(attempted).toEqual(['10', '11']);
    // Lambda (and the local poller) retries from the lowest reported sequence number: 11.
    expect(result).toEqual({ batchItemFailures: ['11', '12', '13'].map((itemIdentifier) => ({ itemIdentifier })) });
  });

  it('a failing first record is reported, not thrown, and the next invocation starts afresh', async () => {
    const first = await processStreamInOrder(streamEvent('1', '2'), undefined, async () => {
      throw new Error('down');
    });
    expect(first).toEqual({ batchItemFailures: [{ itemIdentifier: '1' }, { itemIdentifier: '2' }] });
    const attempted: string[] = [];
    const second = await processStreamInOrder(streamEvent('1', '2'), undefined, async (r) => void attempted.push(r.dynamodb!.SequenceNumber!));
    expect(attempted).toEqual(['1', '2']);
    expect(second).toEqual({ batchItemFailures: [] });
  });
});

describe("the queue workers' shared retry path and malformed-message policy", () => {
  const body = jsonBody(z.strictObject({ n: z.number() }));
  const record = (text: string): SQSRecord => ({ ...sqsRecord('m1'), body: text }) as SQSRecord;

  it('a body that is not JSON and one the schema refuses are both failed (kept for the redrive), never dropped', async () => {
    for (const text of ['not json', '{"n":"x"}', '{"n":1,"extra":true}']) {
      expect(() => parseMessage(record(text), body, { queue: 'webhookDeliveries', event: 'test.malformed' }), text).toThrow(MalformedMessage);
      const result = await processQueueBatch({ Records: [record(text), sqsRecord('ok')] }, undefined, async (r) => {
        if (r.messageId === 'm1') parseMessage(r, body, { queue: 'webhookDeliveries', event: 'test.malformed' });
      });
      expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    }
    expect(parseMessage(record('{"n":1}'), body, { queue: 'webhookDeliveries', event: 'test.malformed' })).toEqual({ n: 1 });
  });

  it('retryAfter makes the message visible again after the delay and keeps it (a failed record)', async () => {
    // The queue port recorded in memory: only its changeVisibility call matters here.
    const calls: unknown[][] = [];
    const queue = { send: async () => {}, changeVisibility: async (...args: unknown[]) => void calls.push(args) } as unknown as Queue;
    const result = await processQueueBatch(sqsEvent('a', 'b'), undefined, async (r) => {
      if (r.messageId === 'a') await retryAfter(queue, 'walletPushes', r, 42);
    });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }] });
    expect(calls).toEqual([['walletPushes', 'rh-a', 42]]);
    await expect(retryAfter(queue, 'walletPushes', sqsRecord('c'), 5)).rejects.toThrow(RetryScheduled);
  });

  it('RetryScheduled is declared once, for both workers', () => {
    for (const worker of ['webhook-worker', 'wallet-push']) {
      const source = readFileSync(new URL(`../../../../../functions/${worker}/handler.ts`, import.meta.url), 'utf8');
      expect(source, worker).not.toMatch(/class (RetryScheduled|MalformedMessage)\b/);
      expect(source, worker).toMatch(/\bparseMessage\(/);
      expect(source, worker).toMatch(/\bretryAfter\(/);
    }
  });
});
