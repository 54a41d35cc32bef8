import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { webhookSettings } from '../../shared/config';
import { egressFromConfig } from '../../shared/adapters/egress';
import { queueFromConfig } from '../../shared/adapters/queue';
import { secretSealerFromConfig } from '../../shared/adapters/secret-sealer';
import { consumer } from '../../shared/consumers/table';
import { processQueueBatch } from '../../shared/consumers/processing';
import { attemptDelivery } from '../../shared/domain/webhooks/delivery';
import { deliveryBatch } from '../../shared/domain/webhooks/delivery-batch';
import { deliveryMessageBody, describeIssues } from '../../shared/domain/webhooks/messages';
import { correlated } from '../../shared/observability/correlation';
import { logger } from '../../shared/observability/logger';
import { traced } from '../../shared/observability/tracing';

const QUEUE = consumer('webhook-worker').source;

/** Reported as a failure so the message is not deleted: it is its own retry. */
class RetryScheduled extends Error {
  constructor(seconds: number) {
    super(`retry scheduled in ${seconds} s`);
    this.name = 'RetryScheduled';
  }
}

class MalformedMessage extends Error {
  constructor() {
    super('malformed delivery message');
    this.name = 'MalformedMessage';
  }
}

/**
 * Delivery worker (SQS consumer). Each message is one attempt; a retry is the same message made
 * visible again after the backoff, so the queue's receive count is the attempt number and its
 * maxReceiveCount the limit. Records of a batch are sent in parallel (each has its own time-out)
 * and share their store work (`deliveryBatch`: each endpoint read once, the attempts written together).
 */
const handle = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  const settings = webhookSettings();
  const egress = egressFromConfig();
  const queue = queueFromConfig();
  const sealer = secretSealerFromConfig();
  const batch = deliveryBatch(event.Records.length);
  return processQueueBatch(event, context, async (record) => {
    const store = batch.slot();
    try {
      await handleRecord(record, store);
    } finally {
      store.release();
    }
  });

  async function handleRecord(record: SQSEvent['Records'][number], store: ReturnType<typeof batch.slot>): Promise<void> {
    const receiveCount = Number(record.attributes.ApproximateReceiveCount);
    const parsed = deliveryMessageBody.safeParse(record.body);
    if (!parsed.success) {
      // Failed, not dropped: it comes back after the visibility timeout like any retry, and the
      // redrive moves it to the DLQ after maxAttempts receives (whose consumer logs and drops it).
      // The wait lets a message from a newer producer still be delivered once this consumer is
      // deployed too; a body that can never parse costs maxAttempts receives, not a loop.
      logger.error('webhook.message_malformed', {
        event: 'webhook.message_malformed',
        queue: QUEUE,
        messageId: record.messageId,
        receiveCount,
        bodyLength: record.body.length,
        issues: describeIssues(parsed.error),
      });
      throw new MalformedMessage();
    }
    let visibilitySeconds: number;
    try {
      const next = await attemptDelivery(parsed.data, receiveCount, { egress, settings, sealer, store });
      if (next.ack) return;
      visibilitySeconds = next.visibilitySeconds;
      await queue.changeVisibility(QUEUE, record.receiptHandle, visibilitySeconds);
    } catch (err) {
      // Unexpected (e.g. the table is unavailable): the message returns after its visibility timeout.
      logger.error('webhook delivery failed unexpectedly', { ...correlated(parsed.data.requestId), messageId: record.messageId, endpointId: parsed.data.endpointId, error: err as Error });
      throw err;
    }
    throw new RetryScheduled(visibilitySeconds);
  }
};

export const handler = traced(handle);
