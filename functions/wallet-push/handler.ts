import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queueFromConfig } from '../../shared/adapters/queue';
import { walletFromConfig } from '../../shared/adapters/wallet';
import { config } from '../../shared/config';
import { parseMessage, processQueueBatch, retryAfter } from '../../shared/consumers/processing';
import { consumer } from '../../shared/consumers/table';
import { inKeyOrder } from '../../shared/data/table';
import { retryDelaySeconds } from '../../shared/domain/webhooks/backoff';
import { pushMessageBody, refreshMemberPasses, reportRefresh } from '../../shared/domain/wallet/push';
import { correlated } from '../../shared/observability/correlation';
import { logger } from '../../shared/observability/logger';
import { traced } from '../../shared/observability/tracing';

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
