import { config } from '../../shared/platform/config';
import { CONSUMERS, type ConsumerName, type ConsumerRow } from '../../shared/platform/consumers/table';
import type { QueueName } from '../../shared/platform/ports/queue';
import { lazy } from './handlers';
import { IDLE_POLL_MAX_ENV, QUEUE_DRIVER_POLL_ENV, startQueueDriver, type QueueConsumer, type SqsHandler } from './queue-driver';
import { startScheduler, type LocalSchedule, type ScheduleHandler } from './scheduler';
import { STREAM_POLLER_POLL_ENV, startStreamPoller, type StreamHandler, type StreamPollerOptions } from './stream-poller';
import { wakeStreamPollersOnWrites } from './stream-wake';

/**
 * SQS, the table stream and EventBridge schedules, emulated for every row of the consumer table
 * (shared/platform/consumers/table.ts): the queue driver feeds the queue consumers, a stream poller each
 * stream consumer and the scheduler the schedules, calling the same handler modules Lambda runs.
 * Numbers come from shared/platform/config; tests shrink them through the environment variables of
 * WEBHOOK_ENV there (e.g. WEBHOOK_MAX_ATTEMPTS, WEBHOOK_VISIBILITY_SECONDS) and the poll intervals
 * through LOCAL_QUEUE_POLL_MS / LOCAL_STREAM_POLL_MS (default 100 ms), which idle polls double up to
 * LOCAL_IDLE_POLL_MAX_MS (default 1000 ms).
 */

/** A handler module (`functions/<name>/handler.ts`), loaded on first use like a cold start. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HandlerLoader = (name: string) => (...args: any[]) => Promise<any>;

const loadHandler: HandlerLoader = (name) => lazy(() => import(`../../functions/${name}/handler.ts`));

/** What the local runtime starts for the rows: one registration per row. */
export interface LocalConsumerPlan {
  queues: Partial<Record<QueueName, QueueConsumer>>;
  streams: (StreamPollerOptions & { consumer: string })[];
  schedules: LocalSchedule[];
  /** Handlers of `workflowTask` rows by workflow and state, for a local workflow runner. */
  workflowTasks: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;
}

const functionName = (row: ConsumerRow) => `loyalty-${row.name}`;

/**
 * How the queue driver runs a queue row beyond what SQS's event source mapping takes: parallel poll
 * loops (AWS scales the mapping itself) and how long a partial batch waits for more messages (the
 * driver wakes on every send; ms, default 0). Local only, so declared here, not in the consumer table.
 */
export const LOCAL_QUEUE_DRIVING: Readonly<Partial<Record<ConsumerName, Pick<QueueConsumer, 'concurrency' | 'batchWindowMs'>>>> = {
  'webhook-worker': { concurrency: config.webhooks.localWorkerConcurrency, batchWindowMs: config.webhooks.localBatchWindowMs },
  'wallet-push': { concurrency: config.wallet.push.localConcurrency },
};

export function localConsumerPlan(
  rows: readonly ConsumerRow[] = CONSUMERS,
  load: HandlerLoader = loadHandler,
  pollMs: (envName: string) => number = () => 100,
): LocalConsumerPlan {
  const plan: LocalConsumerPlan = { queues: {}, streams: [], schedules: [], workflowTasks: {} };
  for (const row of rows) {
    const common = { functionName: functionName(row), timeoutSeconds: row.timeoutSeconds };
    switch (row.kind) {
      case 'queue':
        // The driver polls each queue with one consumer (SQS would split the messages between two).
        if (plan.queues[row.source]) throw new Error(`queue ${row.source} has two consumers`);
        plan.queues[row.source] = {
          ...common,
          handler: load(row.name) as SqsHandler,
          batchSize: row.batchSize,
          ...LOCAL_QUEUE_DRIVING[row.name as ConsumerName],
        };
        break;
      case 'stream':
        plan.streams.push({
          ...common,
          handler: load(row.name) as StreamHandler,
          // Also the checkpoint namespace: renaming the row re-reads the stream from its start.
          consumer: row.name,
          batchSize: row.batchSize,
          ...(row.filter ? { filter: row.filter } : {}),
          pollMs: pollMs(STREAM_POLLER_POLL_ENV),
        });
        break;
      case 'schedule':
        plan.schedules.push({ ...common, name: row.name, expression: row.source, handler: load(row.name) as ScheduleHandler });
        break;
      case 'workflowTask': {
        const tasks = (plan.workflowTasks[row.source.workflow] ??= {});
        if (tasks[row.source.state]) throw new Error(`${row.source.workflow}.${row.source.state} has two consumers`);
        tasks[row.source.state] = load(row.name);
        break;
      }
      default: {
        const unknown: never = row;
        throw new Error(`unknown consumer kind in ${JSON.stringify(unknown)}`);
      }
    }
  }
  return plan;
}

export async function startPipelines(): Promise<{ stop(graceMs: number): Promise<void>; workflowTasks: LocalConsumerPlan['workflowTasks'] }> {
  const pollMs = (name: string) => Number(process.env[name] || 100);
  const plan = localConsumerPlan(CONSUMERS, loadHandler, pollMs);
  // Idle pollers back off to this: this process's writes wake them at once, other processes' wait up to it.
  const idlePollMaxMs = Number(process.env[IDLE_POLL_MAX_ENV] || 1000);
  const queueDriver = startQueueDriver({ pollMs: pollMs(QUEUE_DRIVER_POLL_ENV), idlePollMaxMs, consumers: plan.queues });
  wakeStreamPollersOnWrites();
  const streamPollers = plan.streams.map((options) => startStreamPoller({ ...options, idlePollMaxMs }));
  const scheduler = startScheduler({ schedules: plan.schedules });
  return {
    workflowTasks: plan.workflowTasks,
    stop: async (graceMs) => {
      await Promise.all([queueDriver.stop(graceMs), ...streamPollers.map((p) => p.stop(graceMs)), scheduler.stop(graceMs)]);
    },
  };
}
