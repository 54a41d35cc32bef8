import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queueFromConfig } from '../../shared/adapters/queue';
import { walletFromConfig } from '../../shared/adapters/wallet';
import { config } from '../../shared/config';
import { processQueueBatch } from '../../shared/consumers/processing';
import { consumer } from '../../shared/consumers/table';
import { inKeyOrder } from '../../shared/data/table';
import { retryDelaySeconds } from '../../shared/domain/webhooks/backoff';
import { pushMessageSchema, refreshMemberPasses, reportRefresh } from '../../shared/domain/wallet/push';
import { correlated } from '../../shared/observability/correlation';
import { logger } from '../../shared/observability/logger';
import { traced } from '../../shared/observability/tracing';

const QUEUE = consumer('wallet-push').source;

/** Reported as a failure so the message is not deleted: it comes back after its backoff. */
class RetryScheduled extends Error {
  constructor(seconds: number) {
    super(`retry scheduled in ${seconds} s`);
    this.name = 'RetryScheduled';
  }
}

/**
 * Wallet push worker (SQS consumer, partial batch failures). Each message names one member; its
 * passes are brought up to date and their devices told (APNs) or Google's object patched. A push
 * that must be retried (APNs 429/5xx, Google 5xx, no answer) keeps the message, made visible again
 * after exponential backoff with full jitter; after maxReceiveCount receives it moves to the DLQ.
 */
const handle = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  const services = walletFromConfig();
  const queue = queueFromConfig();
  return processQueueBatch(event, context, async (record) => {
    const parsed = pushMessageSchema.safeParse(JSON.parse(record.body));
    if (!parsed.success) {
      // Nothing to retry: a malformed message is logged and dropped.
      logger.error('wallet.push_message_malformed', { messageId: record.messageId, bodyLength: record.body.length });
      return;
    }
    const ref = parsed.data;
    // Messages of one member in one batch run one after another (the second finds nothing to send).
    const result = await inKeyOrder(`wallet:${ref.workspaceId}/${ref.memberId}`, () => refreshMemberPasses(services, ref));
    reportRefresh(ref, result);
    logger.info('wallet.passes_refreshed', { ...correlated(ref.requestId), workspaceId: ref.workspaceId, memberId: ref.memberId, ...result });
    if (!result.retry) return;
    const attempt = Number(record.attributes.ApproximateReceiveCount);
    const seconds = retryDelaySeconds(attempt, config.wallet.push);
    await queue.changeVisibility(QUEUE, record.receiptHandle, seconds);
    throw new RetryScheduled(seconds);
  });
};

export const handler = traced(handle);
