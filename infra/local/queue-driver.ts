import { createHash } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { config, webhookSettings, type WebhookSettings } from '../../shared/platform/config';
import { queueDeclarations } from '../../shared/platform/consumers/queues';
import type { QueueName } from '../../shared/platform/ports/queue';
import { runtimeConfig } from '../../shared/platform/config';
import { claimLocalMessages, deleteLocalMessage, nextLocalVisibleAt, moveLocalMessageToDeadLetter, type LocalQueueMessage } from './local-queue-store';
import { logger } from '../../shared/platform/observability/logger';
import { lambdaContext, settleWithin } from './lambda-runtime';
import { idleBackoff, sleepOn } from './queue-signal';

/**
 * The local stand-in for SQS + Lambda's SQS event source mapping: polls the queues persisted in the
 * local queue database (see `local-queue-store.ts`) and invokes the same handler functions
 * Lambda runs, with the same numbers CDK configures (`localQueueSpecs()`).
 *
 * Semantics kept: delay; visibility timeout (a received message is hidden for the queue's
 * visibility, then comes back with its receive count raised); `batchItemFailures` (only the listed
 * messages stay, the rest are deleted; an identifier not in the batch fails the whole batch, as
 * Lambda does); a thrown error keeps the whole batch; `changeVisibility` by the handler; redrive: a
 * receive that would be number maxReceiveCount + 1 moves the message to the dead-letter queue instead
 * of delivering it. A message is never in two invocations at once while its visibility lasts (claims
 * are conditional writes), even across drivers and processes.
 *
 * Not emulated: Lambda's timeout (a handler is never killed; as in AWS, one that outlives the
 * visibility timeout lets its messages be received again), batching windows, retention.
 */

/** A Lambda SQS handler, as the worker functions export it. */
export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface QueueConsumer {
  handler: SqsHandler;
  /** Messages per invocation at most (the event source mapping's BatchSize). */
  batchSize: number;
  /** Batches of this queue in flight at once, each its own poll loop (default 1). */
  concurrency?: number;
  /** A partial batch waits up to this long for more visible messages before it is invoked (default 0). */
  batchWindowMs?: number;
  /** Context of the invocations: function name and timeout (getRemainingTimeInMillis). */
  functionName?: string;
  timeoutSeconds?: number;
}

export interface QueueSpec {
  /** Seconds a received message stays hidden (may be fractional locally, for tests). */
  visibilitySeconds: number;
  /** Redrive policy: the receive after `maxReceiveCount` receives moves the message to `deadLetter`. */
  redrive?: { maxReceiveCount: number; deadLetter: string };
}

/** The queues as CDK declares them (`queueDeclarations`, env-overridable locally). */
export const localQueueSpecs = (settings: WebhookSettings = webhookSettings()): Record<QueueName, QueueSpec> => queueDeclarations(settings);

/** Local-runtime environment variable: the idle poll interval of the queue driver (ms, default 100). */
export const QUEUE_DRIVER_POLL_ENV = 'LOCAL_QUEUE_POLL_MS';

/** Local-runtime environment variable: the longest idle sleep of the queue driver and stream pollers (ms, default 1000). */
export const IDLE_POLL_MAX_ENV = 'LOCAL_IDLE_POLL_MAX_MS';

export type DriverLog = (level: 'warn' | 'error', message: string, details: Record<string, unknown>) => void;

const defaultLog: DriverLog = (level, message, details) => logger[level](message, details);

export interface QueueDriverOptions<Q extends string> {
  consumers: Partial<Record<Q, QueueConsumer>>;
  /** Sleep this long when a queue has nothing visible (default 100 ms). */
  pollMs?: number;
  /**
   * Each poll that finds nothing doubles the sleep, up to this (default `pollMs`: no growth). A send
   * in this process wakes the queue at once, and a sleep never outlasts the next message that
   * becomes visible by itself (delay, visibility timeout), so only sends of other processes wait.
   */
  idlePollMaxMs?: number;
  /** How long `stop()` waits for in-flight invocations before abandoning them (default 10 s). */
  stopGraceMs?: number;
  log?: DriverLog;
}

export interface QueueDriver {
  /**
   * Stops polling and waits for in-flight invocations to finish and settle (delete what succeeded),
   * up to `graceMs` (default `stopGraceMs`). Invocations still running then are abandoned: their
   * outcome is ignored, so their messages stay in flight and are received again once their visibility
   * times out (at-least-once, exactly as after a crashed Lambda). Idempotent.
   */
  stop(graceMs?: number): Promise<void>;
}

/** An ARN-looking source name; region `local`, account zeros. */
export const localQueueArn = (queue: string): string => `arn:aws:sqs:local:000000000000:${queue}`;

/** One SQS record as Lambda delivers it. */
export function toSqsRecord(queue: string, m: LocalQueueMessage, region: string): SQSRecord {
  return {
    messageId: m.messageId,
    receiptHandle: m.receiptHandle ?? '',
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receiveCount),
      SentTimestamp: String(m.sentAt),
      SenderId: '000000000000',
      ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt ?? m.sentAt),
      ...(m.deadLetterSourceQueue ? { DeadLetterQueueSourceArn: localQueueArn(m.deadLetterSourceQueue) } : {}),
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(m.body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: localQueueArn(queue),
    awsRegion: region,
  };
}

/** Runs `fn`, turning a synchronous throw into a rejection. */
async function invoke<T>(fn: () => Promise<T> | T): Promise<T> {
  return fn();
}

/** The polling of every consumed queue of one driver: poll loops, batches, redrive and settling. */
class QueuePolling {
  readonly abort = new AbortController();
  abandoned = false;
  private readonly pollMs: number;
  private readonly log: DriverLog;
  private readonly region = runtimeConfig().AWS_REGION;

  constructor(private readonly opts: QueueDriverOptions<string>) {
    this.pollMs = opts.pollMs ?? 100;
    this.log = opts.log ?? defaultLog;
  }

  async pollLoop(queue: string, consumer: QueueConsumer, spec: QueueSpec): Promise<void> {
    const backoff = idleBackoff(this.pollMs, this.opts.idlePollMaxMs ?? this.pollMs);
    while (!this.abort.signal.aborted) {
      let delivered = 0;
      try {
        delivered = await this.pollOnce(queue, consumer, spec);
      } catch (err) {
        this.log('error', 'local queue driver: poll failed', { queue, error: err });
      }
      if (delivered > 0) {
        backoff.busy();
        continue;
      }
      // Idle: sleep until a send in this process wakes the queue, a message becomes visible by
      // itself, or the next poll (sends of other processes).
      await sleepOn(queue, this.idleSleepMs(queue, backoff.idle()), this.abort.signal);
    }
  }

  /** `ms`, or less when a message of the queue becomes visible sooner. */
  private idleSleepMs(queue: string, ms: number): number {
    try {
      const visibleAt = nextLocalVisibleAt(queue);
      return visibleAt === undefined ? ms : Math.max(1, Math.min(ms, visibleAt - Date.now()));
    } catch {
      return this.pollMs;
    }
  }

  /** Claims up to a batch, waiting up to the batching window for more (claimed messages are hidden already). */
  private async claimBatch(queue: string, consumer: QueueConsumer, spec: QueueSpec): Promise<LocalQueueMessage[]> {
    const claim = (max: number) => claimLocalMessages(queue, { max, visibilitySeconds: spec.visibilitySeconds });
    const claimed = await claim(consumer.batchSize);
    if (claimed.length === 0) return claimed;
    const windowEnds = Date.now() + (consumer.batchWindowMs ?? 0);
    while (claimed.length < consumer.batchSize && Date.now() < windowEnds && !this.abort.signal.aborted) {
      await sleepOn(queue, windowEnds - Date.now(), this.abort.signal);
      claimed.push(...(await claim(consumer.batchSize - claimed.length)));
    }
    return claimed;
  }

  /** Moves the messages past their receive limit to the dead-letter queue; returns the others. */
  private async redrive(queue: string, spec: QueueSpec, claimed: LocalQueueMessage[]): Promise<LocalQueueMessage[]> {
    const deliver: LocalQueueMessage[] = [];
    for (const m of claimed) {
      if (spec.redrive && m.receiveCount > spec.redrive.maxReceiveCount) {
        try {
          await moveLocalMessageToDeadLetter(queue, m, spec.redrive.deadLetter);
        } catch (err) {
          this.log('error', 'local queue driver: redrive failed', { queue, messageId: m.messageId, error: err });
        }
      } else deliver.push(m);
    }
    return deliver;
  }

  /** One receive + invoke + settle round; returns how many messages it received. */
  private async pollOnce(queue: string, consumer: QueueConsumer, spec: QueueSpec): Promise<number> {
    const claimed = await this.claimBatch(queue, consumer, spec);
    if (claimed.length === 0) return 0;
    const deliver = await this.redrive(queue, spec, claimed);
    if (deliver.length > 0) await this.deliver(queue, consumer, deliver);
    return claimed.length;
  }

  /** Invokes the handler with the batch and deletes what succeeded (nothing when it threw). */
  private async deliver(queue: string, consumer: QueueConsumer, deliver: LocalQueueMessage[]): Promise<void> {
    const event: SQSEvent = { Records: deliver.map((m) => toSqsRecord(queue, m, this.region)) };
    const functionName = consumer.functionName ?? `local-${queue}-consumer`;
    let failed: Set<string>;
    try {
      const result = await invoke(() => consumer.handler(event, lambdaContext(functionName, consumer.timeoutSeconds ?? config.lambda.timeoutSeconds)));
      failed = this.failuresOf(result, deliver);
    } catch (err) {
      this.log('error', 'local queue driver: handler failed, the batch stays on the queue', { queue, functionName, messages: deliver.length, error: err });
      return;
    }
    if (this.abandoned) return;
    await Promise.all(
      deliver
        .filter((m) => !failed.has(m.messageId))
        .map(async (m) => {
          try {
            // false: the handle is stale (the message was received again after its visibility ran out).
            await deleteLocalMessage(queue, m.receiptHandle!);
          } catch (err) {
            this.log('error', 'local queue driver: delete failed', { queue, messageId: m.messageId, error: err });
          }
        }),
    );
  }

  /** The message ids to keep. Like Lambda: a malformed response or an unknown identifier fails the whole batch. */
  private failuresOf(result: SQSBatchResponse | void, batch: LocalQueueMessage[]): Set<string> {
    const ids = new Set(batch.map((m) => m.messageId));
    const items = (result as SQSBatchResponse | undefined)?.batchItemFailures;
    if (items === undefined || items === null) return new Set();
    if (!Array.isArray(items) || items.some((f) => !f || typeof f.itemIdentifier !== 'string' || !ids.has(f.itemIdentifier))) {
      this.log('warn', 'local queue driver: invalid batchItemFailures, the whole batch stays on the queue', { items });
      return ids;
    }
    return new Set(items.map((f) => f.itemIdentifier));
  }

  /** Stops the loops, waiting up to `graceMs` for the invocations in flight (then abandons them). */
  async stop(loops: Promise<void>, graceMs: number): Promise<void> {
    this.abort.abort();
    if (await settleWithin(loops, graceMs)) {
      this.abandoned = true;
      this.log('warn', 'local queue driver: stopped with invocations still running; their messages come back after the visibility timeout', {});
    }
  }
}

/**
 * Starts polling. Production: `startQueueDriver({ consumers })` on `QueueName`s, the queues'
 * settings from `localQueueSpecs()`. Tests: any queue names, with their `queues` specs.
 */
export function startQueueDriver(opts: QueueDriverOptions<QueueName> & { queues?: Partial<Record<QueueName, QueueSpec>> }): QueueDriver;
export function startQueueDriver<Q extends string>(opts: QueueDriverOptions<Q> & { queues: Record<Q, QueueSpec> }): QueueDriver;
export function startQueueDriver(opts: QueueDriverOptions<string> & { queues?: Record<string, QueueSpec | undefined> }): QueueDriver {
  const defaults = localQueueSpecs() as Record<string, QueueSpec>;
  const polling = new QueuePolling(opts);
  const loops: Promise<void>[] = [];
  for (const [queue, consumer] of Object.entries(opts.consumers) as [string, QueueConsumer | undefined][]) {
    if (!consumer) continue;
    const spec = opts.queues?.[queue] ?? defaults[queue];
    if (!spec) throw new Error(`queue ${queue}: no settings (pass them in \`queues\`)`);
    if (!(consumer.batchSize >= 1 && consumer.batchSize <= 10_000)) throw new Error(`queue ${queue}: batchSize must be 1-10000`);
    for (let i = 0; i < Math.max(1, consumer.concurrency ?? 1); i++) loops.push(polling.pollLoop(queue, consumer, spec));
  }
  const all = Promise.all(loops).then(() => undefined);
  let stopped: Promise<void> | undefined;
  return {
    stop(graceMs = opts.stopGraceMs ?? 10_000) {
      stopped ??= polling.stop(all, graceMs);
      return stopped;
    },
  };
}
