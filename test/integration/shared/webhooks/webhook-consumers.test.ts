import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { handler as deadLetterHandler } from '../../../../functions/webhook-dlq/handler';
import { handler as fanoutHandler } from '../../../../functions/webhook-fanout/handler';
import { handler as workerHandler } from '../../../../functions/webhook-worker/handler';
import { startQueueDriver } from '../../../../infra/local/queue-driver';
import { tmpdir } from 'node:os';
import { provideLocalAdapters } from '../../../../infra/local/adapters';
import { FileKeyVault } from '../../../../infra/local/file-key-vault';
import { provideAdapters } from '../../../../shared/platform/adapters/provided';
import { secretSealerFromConfig } from '../../../../shared/platform/adapters/secret-sealer';
import { LocalQueue } from '../../../../infra/local/local-queue';
import { peekLocalMessages, purgeLocalQueue } from '../../../../infra/local/local-queue-store';
import { egressFromConfig } from '../../../../shared/platform/adapters/egress';
import { webhookSettings } from '../../../../shared/platform/config';
import { attemptDelivery } from '../../../../shared/webhooks/delivery';
import { deliveryIdOf } from '../../../../shared/webhooks/delivery-id';
import type { DeliveryMessage } from '../../../../shared/webhooks/types';
import { newId } from '../../../../shared/platform/ids';
import { logger } from '../../../../shared/platform/observability/logger';
import { METRICS_SERVICE } from '../../../../shared/platform/observability/metric-catalog';
import { captureMetrics } from '../../../../shared/platform/observability/metrics';
import { metricOf } from '../../../support/metrics';
import { countStoreCalls } from '../../../../shared/platform/data/store-calls';
import { call } from '../../../support/api';
import { tenant, type Tenant } from '../../../support/fixtures';
import { eventually, startReceiver } from '../../../support/receiver';
import { platformTable } from '../../../support/table';

/**
 * The three webhook consumers called in this process, as Lambda calls them, with batches that mix
 * good records and malformed ones; real table (the platform's DynamoDB Local), real receivers.
 */

const receivers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint,
    LOCAL_QUEUE_DB: runtime.queueDatabase,
    AWS_REGION: 'eu-west-1',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
  });
  // As the local runtime does at start: the consumers send to and change the emulated queues.
  provideLocalAdapters(tmpdir());
  // Endpoints are created over HTTP, so their secrets are sealed with the runtime's key.
  provideAdapters({ keyVault: new FileKeyVault(inject('dataDir')) });
});

afterAll(async () => Promise.all(receivers.map((r) => r.close())));
afterEach(() => {
  vi.restoreAllMocks();
});

/** The structured error events logged (the logger still writes them). */
const loggedErrors = () => {
  const spy = vi.spyOn(logger, 'error');
  return () => spy.mock.calls.map(([message, details]) => ({ message, ...(details as object) }));
};

async function subscribed(label: string) {
  const t = await tenant(label);
  const receiver = await startReceiver();
  receivers.push(receiver);
  const res = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['member.created'] } });
  expect(res.status).toBe(201);
  return { t, receiver, endpointId: res.body.data.id as string };
}

function deliveryMessage(t: Tenant, endpointId: string): DeliveryMessage {
  const eventId = newId('evt');
  return {
    workspaceId: t.workspaceId,
    endpointId,
    deliveryId: deliveryIdOf(eventId, endpointId),
    eventId,
    eventType: 'member.created',
    payload: JSON.stringify({ id: eventId, type: 'member.created', created_at: new Date().toISOString(), data: { resource_id: 'mbr_x' } }),
    trigger: 'test',
  };
}

const sqsRecord = (body: string, queue: string): SQSRecord => ({
  messageId: randomUUID(),
  receiptHandle: `not-used-${randomUUID()}`,
  body,
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: String(Date.now()),
    SenderId: '000000000000',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
  awsRegion: 'eu-west-1',
});

const attemptsOf = async (t: Tenant, endpointId: string) =>
  (await call('GET', `/api/v2/webhooks/${endpointId}/deliveries?limit=200`, { token: t.key })).body.data as { deliveryId: string; state: string }[];

describe('delivery worker', () => {
  it('a malformed body fails alone: the good message of its batch is delivered and acknowledged', async () => {
    const { t, receiver, endpointId } = await subscribed('wk-malformed');
    const good = deliveryMessage(t, endpointId);
    const records = [
      sqsRecord('{"workspaceId": "ws_', 'webhookDeliveries'),
      sqsRecord(JSON.stringify(good), 'webhookDeliveries'),
      sqsRecord(JSON.stringify({ ...good, trigger: 'someday', payload: 7 }), 'webhookDeliveries'),
    ];
    const logged = loggedErrors();
    const result = await workerHandler({ Records: records });
    expect(logged()).toEqual(
      [records[0]!, records[2]!].map((r) =>
        expect.objectContaining({ message: 'webhook.message_malformed', messageId: r.messageId, receiveCount: 1, issues: expect.any(Array) }),
      ),
    );
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([records[0]!.messageId, records[2]!.messageId].sort());
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(good.eventId);
    expect(receiver.received[0]!.body).toBe(good.payload);
    expect(await attemptsOf(t, endpointId)).toEqual([expect.objectContaining({ deliveryId: good.deliveryId, state: 'delivered' })]);
  });
});

describe('a batch of deliveries shares its store work', () => {
  it('ten deliveries to two endpoints: both endpoints read by one request, every attempt logged by one transaction', async () => {
    const a = await subscribed('wk-batch-a');
    const b = await subscribed('wk-batch-b');
    const messages = Array.from({ length: 10 }, (_, i) => (i % 2 ? deliveryMessage(b.t, b.endpointId) : deliveryMessage(a.t, a.endpointId)));
    const counter = countStoreCalls();
    const { result, totals } = await counter.during(() => workerHandler({ Records: messages.map((m) => sqsRecord(JSON.stringify(m), 'webhookDeliveries')) }));
    expect(result.batchItemFailures).toEqual([]);
    expect(totals.operations).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(totals.itemsRead).toBe(2);
    expect(totals.itemsWritten).toBe(20);
    expect(a.receiver.received).toHaveLength(5);
    expect(b.receiver.received).toHaveLength(5);
    const logged = [...(await attemptsOf(a.t, a.endpointId)), ...(await attemptsOf(b.t, b.endpointId))];
    expect(logged.map((l) => l.deliveryId).sort()).toEqual(messages.map((m) => m.deliveryId).sort());
    expect(new Set(logged.map((l) => l.state))).toEqual(new Set(['delivered']));
  });

  it('a message handed over twice in one batch is sent twice and its delivery recorded (one item may not appear twice in a transaction)', async () => {
    const { t, receiver, endpointId } = await subscribed('wk-batch-twice');
    const m = deliveryMessage(t, endpointId);
    const other = deliveryMessage(t, endpointId);
    const counter = countStoreCalls();
    const { result, totals } = await counter.during(() =>
      workerHandler({ Records: [m, m, other].map((x) => sqsRecord(JSON.stringify(x), 'webhookDeliveries')) }),
    );
    expect(result.batchItemFailures).toEqual([]);
    expect(totals.operations).toEqual({ BatchGetItem: 1, TransactWriteItems: 2 });
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual([m.eventId, m.eventId, other.eventId].sort());
    // Both sends of m are logged as delivered: one entry, or two when they ended in different
    // milliseconds (the log is ordered by the time of each attempt).
    const logged = (await attemptsOf(t, endpointId)).map((l) => [l.deliveryId, l.state]);
    expect(logged.filter(([d]) => d === other.deliveryId)).toEqual([[other.deliveryId, 'delivered']]);
    const ofM = logged.filter(([d]) => d === m.deliveryId);
    expect(ofM.length).toBeGreaterThanOrEqual(1);
    expect(ofM.length).toBeLessThanOrEqual(2);
    expect(ofM.every(([, state]) => state === 'delivered')).toBe(true);
    expect(logged).toHaveLength(1 + ofM.length);
  });

  it('a record that fails before its write does not hold the others back', async () => {
    const { t, receiver, endpointId } = await subscribed('wk-batch-fail');
    const good = deliveryMessage(t, endpointId);
    const records = [sqsRecord('not json', 'webhookDeliveries'), sqsRecord(JSON.stringify(good), 'webhookDeliveries')];
    loggedErrors();
    const result = await workerHandler({ Records: records });
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: records[0]!.messageId }]);
    expect(receiver.received).toHaveLength(1);
    expect(await attemptsOf(t, endpointId)).toEqual([expect.objectContaining({ deliveryId: good.deliveryId, state: 'delivered' })]);
  });
});

describe('a body that can never parse, behind the local queue driver', () => {
  it('is received maxReceiveCount times, redriven to the DLQ and dropped there, once; the good message is delivered once', async () => {
    const { t, receiver, endpointId } = await subscribed('wk-redrive');
    const good = deliveryMessage(t, endpointId);
    // Throw-away queues (the runtime's own driver never polls them), the real handlers.
    const q = `test-${randomUUID()}`;
    const dlq = `test-${randomUUID()}`;
    const logged = loggedErrors();
    const driver = startQueueDriver({
      consumers: { [q]: { handler: workerHandler, batchSize: 10 }, [dlq]: { handler: deadLetterHandler, batchSize: 10 } },
      queues: { [q]: { visibilitySeconds: 0.2, redrive: { maxReceiveCount: 3, deadLetter: dlq } }, [dlq]: { visibilitySeconds: 0.2 } },
      pollMs: 50,
    });
    try {
      await new LocalQueue<string>().send(q, [{ body: 'v2:{"compressed":true}' }, { body: JSON.stringify(good) }]);
      await eventually(async () => (logged().some((l) => l.message === 'webhook.dead_letter_unreadable') ? true : undefined), 20_000, 'the DLQ consumer');
      // Both queues empty: every message was deleted (none waits to come back after a visibility timeout).
      await eventually(
        async () => ((await peekLocalMessages(q)).length + (await peekLocalMessages(dlq)).length === 0 ? true : undefined),
        20_000,
        'both queues empty',
      );
      const events = logged().map((l) => [l.message, (l as { receiveCount?: number }).receiveCount]);
      expect(events).toEqual([
        ['webhook.message_malformed', 1],
        ['webhook.message_malformed', 2],
        ['webhook.message_malformed', 3],
        ['webhook.dead_letter_unreadable', undefined],
      ]);
      expect([...(await peekLocalMessages(q)), ...(await peekLocalMessages(dlq))]).toEqual([]);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([good.eventId]);
    } finally {
      await driver.stop(2000);
      await Promise.all([purgeLocalQueue(q), purgeLocalQueue(dlq)]);
    }
  });
});

describe('dead-letter consumer', () => {
  it('marks the good message dead and drops the unreadable one (logged) instead of looping on it', async () => {
    const { t, endpointId } = await subscribed('dlq-malformed');
    const good = deliveryMessage(t, endpointId);
    const records = [sqsRecord(JSON.stringify(good), 'webhookDeadLetters'), sqsRecord('["not", "a", "message"]', 'webhookDeadLetters')];
    const logged = loggedErrors();
    const result = await deadLetterHandler({ Records: records });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(logged()).toEqual([expect.objectContaining({ message: 'webhook.dead_letter_unreadable', messageId: records[1]!.messageId })]);
    expect(await attemptsOf(t, endpointId)).toEqual([expect.objectContaining({ deliveryId: good.deliveryId, state: 'dead' })]);
  });
});

describe('fan-out', () => {
  it('a malformed outbox item is skipped without blocking the records after it', async () => {
    const { t, receiver, endpointId } = await subscribed('fo-malformed');
    const event = { id: newId('evt'), type: 'member.created', created_at: new Date().toISOString(), data: { resource_id: 'mbr_y' } };
    let seq = 1_000_000;
    const record = (image: Record<string, unknown>): DynamoDBRecord => ({
      eventID: randomUUID(),
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        Keys: marshall({ pk: `WS#${t.workspaceId}#OUTBOX#${seq}`, sk: 'OUTBOX' }),
        NewImage: marshall(image),
        SequenceNumber: String(++seq),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      } as DynamoDBRecord['dynamodb'],
    });
    const item = { entity: 'outbox', workspaceId: t.workspaceId };
    const logged = loggedErrors();
    const result = await fanoutHandler({
      Records: [
        record({ ...item, events: [{ ...event, id: 'evt_not-an-id' }] }),
        record({ ...item, events: 'not a list' }),
        record({ ...item, events: [event] }),
      ],
    });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(logged()).toEqual([
      expect.objectContaining({ message: 'webhook.outbox_item_malformed', sequenceNumber: '1000001', issues: [expect.stringMatching(/^events\.0\.id: /)] }),
      expect.objectContaining({ message: 'webhook.outbox_item_malformed', sequenceNumber: '1000002', issues: [expect.stringMatching(/^events: /)] }),
    ]);
    // The good item reached the delivery queue; the platform's own worker delivers it.
    const [received] = await receiver.waitFor(1);
    expect(received!.headers['webhook-id']).toBe(event.id);
    const attempts = await eventually(async () => {
      const list = await attemptsOf(t, endpointId);
      return list.length ? list : undefined;
    });
    expect(attempts).toEqual([expect.objectContaining({ state: 'delivered' })]);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('metrics, event log lines and the correlation id of a delivery', () => {
  /** The EMF documents emitted while `work` runs, as { name: value } plus their dimensions. */
  async function metricsDuring<T>(work: () => Promise<T>) {
    const capture = captureMetrics();
    try {
      const result = await work();
      return { result, metrics: capture.documents().map(metricOf) };
    } finally {
      capture.stop();
    }
  }
  const infoLines = () => {
    const spy = vi.spyOn(logger, 'info');
    return (event: string) =>
      spy.mock.calls.filter(([, d]) => (d as { event?: string } | undefined)?.event === event).map(([, d]) => d as Record<string, unknown>);
  };
  const withRequest = (m: DeliveryMessage, requestId: string, createdAgoMs = 0): DeliveryMessage => {
    const created = new Date(Date.now() - createdAgoMs).toISOString();
    return { ...m, trigger: 'event', requestId, payload: JSON.stringify({ ...JSON.parse(m.payload), created_at: created }) };
  };
  const attemptLog = async (t: Tenant, endpointId: string) =>
    (await call('GET', `/api/v2/webhooks/${endpointId}/deliveries?limit=200`, { token: t.key })).body.data as Record<string, unknown>[];

  it('a delivered event: one WebhookDeliveriesOk, its latency from the event, webhook.delivered with the correlation id, requestId in the log entry', async () => {
    const { t, endpointId } = await subscribed('obs-delivered');
    const requestId = `req-obs-${randomUUID()}`;
    const m = withRequest(deliveryMessage(t, endpointId), requestId, 1500);
    const lines = infoLines();
    const { result, metrics } = await metricsDuring(() => workerHandler({ Records: [sqsRecord(JSON.stringify(m), 'webhookDeliveries')] }));
    expect(result.batchItemFailures).toEqual([]);
    expect(
      metrics
        .filter((x) => x.name.startsWith('Webhook'))
        .map((x) => x.name)
        .sort(),
    ).toEqual(['WebhookDeliveriesOk', 'WebhookDeliveryLatency']);
    expect(metrics.find((x) => x.name === 'WebhookDeliveriesOk')).toMatchObject({ value: 1, dimensions: { service: METRICS_SERVICE } });
    const latency = metrics.find((x) => x.name === 'WebhookDeliveryLatency')!;
    expect(latency.unit).toBe('Milliseconds');
    expect(latency.value).toBeGreaterThanOrEqual(1500);
    expect(latency.value).toBeLessThan(60_000);
    expect(lines('webhook.delivered')).toEqual([
      expect.objectContaining({ correlationId: requestId, endpointId, eventType: 'member.created', attempt: 1, status: 200, durationMs: expect.any(Number) }),
    ]);
    expect(await attemptLog(t, endpointId)).toEqual([expect.objectContaining({ deliveryId: m.deliveryId, state: 'delivered', requestId })]);
  });

  it('a refused delivery (4xx) counts WebhookDeliveriesFailed once and logs webhook.failed; an older message without requestId still parses', async () => {
    const t = await tenant('obs-failed');
    const receiver = await startReceiver(() => ({ status: 410 }));
    receivers.push(receiver);
    const endpointId = (await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['member.created'] } })).body.data
      .id as string;
    const m = deliveryMessage(t, endpointId); // no requestId: as a producer before this field wrote it
    const lines = infoLines();
    const { metrics } = await metricsDuring(() => workerHandler({ Records: [sqsRecord(JSON.stringify(m), 'webhookDeliveries')] }));
    expect(metrics.filter((x) => x.name.startsWith('Webhook'))).toEqual([expect.objectContaining({ name: 'WebhookDeliveriesFailed', value: 1 })]);
    expect(lines('webhook.failed')).toEqual([expect.objectContaining({ endpointId, status: 410, final: 'permanent' })]);
    expect(lines('webhook.failed')[0]).not.toHaveProperty('correlationId');
    const [entry] = await attemptLog(t, endpointId);
    expect(entry).toMatchObject({ state: 'failed', statusCode: 410 });
    expect(entry).not.toHaveProperty('requestId');
  });

  it('a failing attempt to be retried counts WebhookDeliveriesRetried and logs webhook.retry_scheduled with the correlation id', async () => {
    const t = await tenant('obs-retry');
    const receiver = await startReceiver(() => ({ status: 503 }));
    receivers.push(receiver);
    const endpointId = (await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['member.created'] } })).body.data
      .id as string;
    const requestId = `req-obs-${randomUUID()}`;
    const m = withRequest(deliveryMessage(t, endpointId), requestId);
    const lines = infoLines();
    const { result, metrics } = await metricsDuring(() =>
      attemptDelivery(m, 1, { egress: egressFromConfig(), settings: webhookSettings(), sealer: secretSealerFromConfig() }),
    );
    expect(result).toMatchObject({ ack: false });
    expect(metrics.filter((x) => x.name.startsWith('Webhook'))).toEqual([expect.objectContaining({ name: 'WebhookDeliveriesRetried', value: 1 })]);
    expect(lines('webhook.retry_scheduled')).toEqual([expect.objectContaining({ correlationId: requestId, endpointId, attempt: 1, status: 503 })]);
    expect(await attemptLog(t, endpointId)).toEqual([expect.objectContaining({ state: 'retrying', requestId })]);
  });

  it('a dead-lettered delivery counts WebhookDeliveriesDead once and logs webhook.dead with the correlation id', async () => {
    const { t, endpointId } = await subscribed('obs-dead');
    const requestId = `req-obs-${randomUUID()}`;
    const m = withRequest(deliveryMessage(t, endpointId), requestId);
    const spy = vi.spyOn(logger, 'info');
    const { metrics } = await metricsDuring(() => deadLetterHandler({ Records: [sqsRecord(JSON.stringify(m), 'webhookDeadLetters')] }));
    expect(metrics).toEqual([expect.objectContaining({ name: 'WebhookDeliveriesDead', value: 1 })]);
    expect(spy.mock.calls.filter(([msg]) => msg === 'webhook.dead').map(([, d]) => d)).toEqual([
      expect.objectContaining({ event: 'webhook.dead', correlationId: requestId, endpointId }),
    ]);
    expect(await attemptLog(t, endpointId)).toEqual([expect.objectContaining({ state: 'dead', requestId })]);
  });

  it('the fan-out carries the outbox item requestId into the delivery message', async () => {
    const { t, endpointId } = await subscribed('obs-fanout');
    const requestId = `req-obs-${randomUUID()}`;
    const event = { id: newId('evt'), type: 'member.created', created_at: new Date().toISOString(), data: { resource_id: 'mbr_z' } };
    const result = await fanoutHandler({
      Records: [
        {
          eventID: randomUUID(),
          eventName: 'INSERT',
          eventSource: 'aws:dynamodb',
          dynamodb: {
            Keys: marshall({ pk: `WS#${t.workspaceId}#OUTBOX#x`, sk: 'OUTBOX' }),
            NewImage: marshall({ entity: 'outbox', workspaceId: t.workspaceId, events: [event], requestId }),
            SequenceNumber: '2000001',
            StreamViewType: 'NEW_AND_OLD_IMAGES',
          } as DynamoDBRecord['dynamodb'],
        },
      ],
    });
    expect(result).toEqual({ batchItemFailures: [] });
    // The platform's own worker delivers it.
    const attempts = await eventually(async () => {
      const list = await attemptLog(t, endpointId);
      return list.length ? list : undefined;
    });
    expect(attempts).toEqual([expect.objectContaining({ eventId: event.id, state: 'delivered', requestId })]);
  });
});
