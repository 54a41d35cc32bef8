import { secretStoreFromConfig } from '../../shared/platform/adapters/secret-store';
import { useSecretStore } from '../../shared/platform/ports/secrets';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { queueFromConfig } from '../../shared/platform/adapters/queue';
import { processStreamInOrder } from '../../shared/platform/consumers/processing';
import { fromStreamImage } from '../../shared/platform/data/stream-image';
import { fanOut, outboxStreamItemSchema } from '../../shared/webhooks';
import { describeIssues } from '../../shared/platform/validation/validation';
import { correlated } from '../../shared/platform/observability/correlation';
import { logger } from '../../shared/platform/observability/logger';
import { traced } from '../../shared/platform/observability/tracing';

// Pages through the table with cursors (its access declares the `pageCursors` secret).
useSecretStore(secretStoreFromConfig);

/**
 * Logged and skipped, not failed: a stream record never changes, so a retry could only fail again,
 * and it would block every later record of its shard until the stream trims it (24 h).
 */
function skipMalformed(record: DynamoDBRecord, issues: string[]): void {
  logger.error('webhook.outbox_item_malformed', {
    event: 'webhook.outbox_item_malformed',
    sequenceNumber: record.dynamodb?.SequenceNumber,
    keys: record.dynamodb?.Keys,
    issues,
  });
}

/**
 * Table stream consumer (filtered to new outbox items): one queue message per subscribed endpoint.
 * Records are handled in stream order; on a failure the rest is left for the retry, which starts at
 * the failed record (reportBatchItemFailures), so nothing is skipped and nothing is lost.
 */
const handle = async (event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> =>
  processStreamInOrder(event, context, async (record) => {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) return;
    let item: Record<string, unknown>;
    try {
      item = fromStreamImage(image);
    } catch (err) {
      return skipMalformed(record, [(err as Error).message]);
    }
    if (item.entity !== 'outbox') return;
    const parsed = outboxStreamItemSchema.safeParse(item);
    if (!parsed.success) return skipMalformed(record, describeIssues(parsed.error));
    if (parsed.data.events.length === 0) return;
    try {
      await fanOut(parsed.data.workspaceId, parsed.data.events, queueFromConfig(), parsed.data.requestId);
    } catch (err) {
      logger.error('webhook fan-out failed', { ...correlated(parsed.data.requestId), sequenceNumber: record.dynamodb?.SequenceNumber, error: err as Error });
      throw err;
    }
  });

export const handler = traced(handle);
