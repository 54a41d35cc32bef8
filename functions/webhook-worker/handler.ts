import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { webhookSettings } from '../../shared/platform/config';
import { egressFromConfig } from '../../shared/platform/adapters/egress';
import { queueFromConfig } from '../../shared/platform/adapters/queue';
import { secretSealerFromConfig } from '../../shared/platform/adapters/secret-sealer';
import { consumer } from '../../shared/platform/consumers/table';
import { parseMessage, processQueueBatch, retryAfter, RetryScheduled } from '../../shared/platform/consumers/processing';
import { attemptDelivery, deliveryBatch, deliveryMessageBody } from '../../shared/webhooks';
import { correlated } from '../../shared/platform/observability/correlation';
import { logger } from '../../shared/platform/observability/logger';
import { traced } from '../../shared/platform/observability/tracing';

const QUEUE = consumer('webhook-worker').source;

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
    const message = parseMessage(record, deliveryMessageBody, { queue: QUEUE, event: 'webhook.message_malformed' });
    try {
      const next = await attemptDelivery(message, receiveCount, { egress, settings, sealer, store });
      if (next.ack) return;
      await retryAfter(queue, QUEUE, record, next.visibilitySeconds);
    } catch (err) {
      if (err instanceof RetryScheduled) throw err;
      // Unexpected (e.g. the table is unavailable): the message returns after its visibility timeout.
      logger.error('webhook delivery failed unexpectedly', {
        ...correlated(message.requestId),
        messageId: record.messageId,
        endpointId: message.endpointId,
        error: err as Error,
      });
      throw err;
    }
  }
};

export const handler = traced(handle);
