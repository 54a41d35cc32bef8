import { config, webhookSettings } from '../../shared/config';
import { OUTBOX_STREAM_FILTER } from '../../shared/events/stream-filter';
import { lazy } from './handlers';
import { QUEUE_DRIVER_POLL_ENV, startQueueDriver } from './queue-driver';
import { STREAM_POLLER_POLL_ENV, startStreamPoller } from './stream-poller';

/**
 * SQS and the table stream, emulated: the queue driver feeds the queue consumers and the stream
 * poller the fan-out, calling the same handler modules Lambda runs. Numbers come from
 * infra/config.ts; tests shrink them through the environment variables of WEBHOOK_ENV there (e.g.
 * WEBHOOK_MAX_ATTEMPTS, WEBHOOK_VISIBILITY_SECONDS) and the poll intervals through
 * LOCAL_QUEUE_POLL_MS / LOCAL_STREAM_POLL_MS (default 100 ms).
 */
export async function startPipelines(): Promise<{ stop(graceMs: number): Promise<void> }> {
  const settings = webhookSettings();
  const pollMs = (name: string) => Number(process.env[name] || 100);
  const queueDriver = startQueueDriver({
    pollMs: pollMs(QUEUE_DRIVER_POLL_ENV),
    consumers: {
      webhookDeliveries: {
        handler: lazy(() => import('../../functions/webhook-worker/handler')),
        batchSize: settings.workerBatchSize,
        concurrency: settings.localWorkerConcurrency,
        functionName: 'loyalty-webhook-worker',
        timeoutSeconds: settings.workerTimeoutSeconds,
      },
      webhookDeadLetters: {
        handler: lazy(() => import('../../functions/webhook-dlq/handler')),
        batchSize: settings.workerBatchSize,
        functionName: 'loyalty-webhook-dlq',
        timeoutSeconds: config.lambda.timeoutSeconds,
      },
    },
  });
  const streamPoller = startStreamPoller({
    handler: lazy(() => import('../../functions/webhook-fanout/handler')),
    filter: OUTBOX_STREAM_FILTER,
    batchSize: settings.fanoutBatchSize,
    pollMs: pollMs(STREAM_POLLER_POLL_ENV),
    consumer: 'webhook-fanout',
    functionName: 'loyalty-webhook-fanout',
  });
  return {
    stop: async (graceMs) => {
      await Promise.all([queueDriver.stop(graceMs), streamPoller.stop(graceMs)]);
    },
  };
}
