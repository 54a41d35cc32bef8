import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { queueFromConfig } from '../../shared/adapters/queue';
import type { OutboxEvent } from '../../shared/data/repositories/outbox';
import { fromStreamImage } from '../../shared/data/stream-image';
import { fanOut } from '../../shared/domain/webhooks/fanout';
import { logger } from '../../shared/observability/logger';

/**
 * Table stream consumer (filtered to new outbox items): one queue message per subscribed endpoint.
 * Records are handled in stream order; on a failure the rest is left for the retry, which starts at
 * the failed record (reportBatchItemFailures), so nothing is skipped and nothing is lost.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  for (const record of event.Records) {
    try {
      const image = record.dynamodb?.NewImage;
      if (record.eventName !== 'INSERT' || !image) continue;
      const item = fromStreamImage<{ entity?: string; workspaceId: string; events?: OutboxEvent[] }>(image);
      if (item.entity !== 'outbox' || !item.events?.length) continue;
      await fanOut(item.workspaceId, item.events, queueFromConfig());
    } catch (err) {
      logger.error('webhook fan-out failed', { sequenceNumber: record.dynamodb?.SequenceNumber, error: err as Error });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
};
