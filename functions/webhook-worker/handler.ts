import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { webhookSettings } from '../../shared/config';
import { egressFromConfig } from '../../shared/adapters/egress';
import { queueFromConfig } from '../../shared/adapters/queue';
import { attemptDelivery } from '../../shared/domain/webhooks/delivery';
import type { DeliveryMessage } from '../../shared/domain/webhooks/types';
import { logger } from '../../shared/observability/logger';

/**
 * Delivery worker (SQS consumer). Each message is one attempt; a retry is the same message made
 * visible again after the backoff, so the queue's receive count is the attempt number and its
 * maxReceiveCount the limit. Records of a batch are sent in parallel (each has its own time-out).
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const settings = webhookSettings();
  const egress = egressFromConfig();
  const queue = queueFromConfig();
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      try {
        const message = JSON.parse(record.body) as DeliveryMessage;
        const next = await attemptDelivery(message, Number(record.attributes.ApproximateReceiveCount), { egress, settings });
        if (next.ack) return undefined;
        await queue.changeVisibility('webhookDeliveries', record.receiptHandle, next.visibilitySeconds);
      } catch (err) {
        // Unexpected (e.g. the table is unavailable): the message returns after its visibility timeout.
        logger.error('webhook delivery failed unexpectedly', { messageId: record.messageId, error: err as Error });
      }
      return { itemIdentifier: record.messageId };
    }),
  );
  return { batchItemFailures: failures.filter((f): f is { itemIdentifier: string } => f !== undefined) };
};
