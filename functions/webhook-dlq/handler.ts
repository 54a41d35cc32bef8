import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processQueueBatch } from '../../shared/platform/consumers/processing';
import { consumer } from '../../shared/platform/consumers/table';
import { markDead, deliveryMessageBody } from '../../shared/webhooks';
import { describeIssues } from '../../shared/platform/validation/validation';
import { correlated } from '../../shared/platform/observability/correlation';
import { logger } from '../../shared/platform/observability/logger';
import { traced } from '../../shared/platform/observability/tracing';

const QUEUE = consumer('webhook-dlq').source;

/** Dead-letter consumer: a delivery whose attempts ran out is marked `dead` (it stays replayable). */
const handle = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
  processQueueBatch(event, context, async (record) => {
    const parsed = deliveryMessageBody.safeParse(record.body);
    if (!parsed.success) {
      // Logged and acknowledged: it names no delivery that could be marked dead, and failing it
      // would receive it again every visibility timeout for the DLQ's 14 days. The worker already
      // logged it on each of its receives; bodies are not logged.
      logger.error('webhook.dead_letter_unreadable', {
        event: 'webhook.dead_letter_unreadable',
        queue: QUEUE,
        messageId: record.messageId,
        sourceQueue: record.attributes.DeadLetterQueueSourceArn,
        bodyLength: record.body.length,
        issues: describeIssues(parsed.error),
      });
      return;
    }
    try {
      await markDead(parsed.data);
    } catch (err) {
      logger.error('marking a dead delivery failed', {
        ...correlated(parsed.data.requestId),
        messageId: record.messageId,
        endpointId: parsed.data.endpointId,
        error: err as Error,
      });
      throw err;
    }
  });

export const handler = traced(handle);
