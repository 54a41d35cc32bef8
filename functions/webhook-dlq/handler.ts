import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { markDead } from '../../shared/domain/webhooks/delivery';
import type { DeliveryMessage } from '../../shared/domain/webhooks/types';
import { logger } from '../../shared/observability/logger';

/** Dead-letter consumer: a delivery whose attempts ran out is marked `dead` (it stays replayable). */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      await markDead(JSON.parse(record.body) as DeliveryMessage);
    } catch (err) {
      logger.error('marking a dead delivery failed', { messageId: record.messageId, error: err as Error });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
