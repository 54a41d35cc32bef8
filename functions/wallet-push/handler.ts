import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queueFromConfig } from '../../shared/platform/adapters/queue';
import { walletFromConfig } from '../../shared/platform/adapters/wallet';
import { config } from '../../shared/platform/config';
import { parseMessage, processQueueBatch, retryAfter } from '../../shared/platform/consumers/processing';
import { consumer } from '../../shared/platform/consumers/table';
import { inKeyOrder } from '../../shared/platform/data/concurrency';
import { retryDelaySeconds } from '../../shared/webhooks';
import { pushMessageBody, refreshMemberPasses, reportRefresh } from '../../shared/wallet';
import { correlated } from '../../shared/platform/observability/correlation';
import { logger } from '../../shared/platform/observability/logger';
import { traced } from '../../shared/platform/observability/tracing';

const QUEUE = consumer('wallet-push').source;

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
    const ref = parseMessage(record, pushMessageBody, { queue: QUEUE, event: 'wallet.push_message_malformed' });
    // Messages of one member in one batch run one after another (the second finds nothing to send).
    const result = await inKeyOrder(`wallet:${ref.workspaceId}/${ref.memberId}`, () => refreshMemberPasses(services, ref));
    reportRefresh(ref, result);
    logger.info('wallet.passes_refreshed', { ...correlated(ref.requestId), workspaceId: ref.workspaceId, memberId: ref.memberId, ...result });
    if (!result.retry) return;
    const attempt = Number(record.attributes.ApproximateReceiveCount);
    await retryAfter(queue, QUEUE, record, retryDelaySeconds(attempt, config.wallet.push));
  });
};

export const handler = traced(handle);
