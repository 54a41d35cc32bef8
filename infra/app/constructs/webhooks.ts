import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { queueWithDeadLetter } from './queue-with-dead-letter';
import { Construct } from 'constructs';
import { queueDeclarations } from '../../../shared/platform/consumers/queues';
import { config, environmentOf, WEBHOOK_NUMBERS, type WebhookSettings } from '../../../shared/platform/config';
import { alarmDescription } from './runbook';

/**
 * Logical IDs of the two queues, pinned like the table's: a replaced delivery queue would lose every
 * delivery still waiting for a retry, a replaced DLQ the dead ones nobody has looked at yet.
 */
export const DELIVERY_QUEUE_LOGICAL_ID = 'WebhookDeliveryQueue';
export const DEAD_LETTER_QUEUE_LOGICAL_ID = 'WebhookDeadLetterQueue';

/**
 * Every `WEBHOOK_*` variable of `WEBHOOK_ENV`, set to the value in `config.webhooks`: the functions
 * read their numbers through `webhookSettings()`, like the local runtime, and both see config.ts.
 */
export const webhookEnvironment = (): Record<string, string> => environmentOf(WEBHOOK_NUMBERS);

/** How long the delivery queue keeps a message (from its first enqueue; visibility changes do not reset it). */
export const DELIVERY_RETENTION = Duration.days(config.queues.retentionDays.webhookDeliveries);
/** How long the DLQ keeps a message (SQS maximum; longer than the delivery queue, as AWS advises). */
export const DEAD_LETTER_RETENTION = Duration.days(config.queues.retentionDays.webhookDeadLetters);
/** How long the failure queue of scheduled runs keeps a failed event. */
export const SCHEDULE_FAILURE_RETENTION = Duration.days(config.queues.retentionDays.scheduleFailures);
/** SQS limit of a message's visibility timeout (and of ChangeMessageVisibility). */
const SQS_MAX_VISIBILITY_SECONDS = 12 * 3600;

/** Alarm thresholds (config.alarms); every alarm notifies the stack's alarm topic. */
export const DELIVERY_AGE_ALARM_SECONDS = config.alarms.queueOldestMessageSeconds.webhookDeliveries;
export const FANOUT_ITERATOR_AGE_ALARM_MS = config.alarms.streamIteratorAgeMs;
/** Alarm periods (config.alarms): a dead-letter queue is looked at every minute, the rest per alarm period. */
const DEAD_LETTER_ALARM_PERIOD = Duration.minutes(config.alarms.deadLetterPeriodMinutes);
const ALARM_PERIOD = Duration.minutes(config.alarms.periodMinutes);

/**
 * Worst case from the first enqueue until the redrive: every wait of the backoff schedule at its
 * maximum (attempt n waits at most min(cap, base * 2^(n-1)); there are maxAttempts - 1 waits), plus
 * every attempt holding the message for the full visibility timeout (worker crashed or timed out).
 */
export function worstCaseDeliverySpanSeconds(s: WebhookSettings): number {
  let total = s.maxAttempts * s.visibilitySeconds;
  for (let n = 1; n < s.maxAttempts; n++) total += Math.min(s.backoffCapSeconds, s.backoffBaseSeconds * 2 ** (n - 1));
  return total;
}

/**
 * Synth-time checks of the webhook numbers against SQS and Lambda: throws with the rule that broke.
 * - visibility >= 6x the worker's timeout (AWS guidance for SQS event sources; a smaller value lets
 *   a message reappear while a slow invocation still works on it, i.e. a duplicate delivery);
 * - visibility and backoff cap within SQS's 12 h limit;
 * - the whole retry schedule fits into the delivery queue's retention (else SQS deletes a message
 *   before it reaches the DLQ, and the delivery is never marked dead).
 */
export function checkWebhookQueueSettings(s: WebhookSettings, retentionSeconds = DELIVERY_RETENTION.toSeconds()): void {
  if (!Number.isInteger(s.maxAttempts) || s.maxAttempts < 1 || s.maxAttempts > 1000) {
    throw new Error(`config.webhooks.maxAttempts=${s.maxAttempts} must be an integer 1-1000 (SQS maxReceiveCount)`);
  }
  if (s.visibilitySeconds < 6 * s.workerTimeoutSeconds) {
    throw new Error(`config.webhooks.visibilitySeconds=${s.visibilitySeconds} must be >= 6 x workerTimeoutSeconds ` + `(${6 * s.workerTimeoutSeconds})`);
  }
  if (s.visibilitySeconds > SQS_MAX_VISIBILITY_SECONDS || s.backoffCapSeconds > SQS_MAX_VISIBILITY_SECONDS) {
    throw new Error('config.webhooks.visibilitySeconds and backoffCapSeconds must be <= 12 h (SQS limit)');
  }
  const span = worstCaseDeliverySpanSeconds(s);
  if (span >= retentionSeconds) {
    throw new Error(`Worst-case retry span ${span}s does not fit into the delivery queue retention ${retentionSeconds}s`);
  }
}

export interface WebhooksProps {
  /** Also make the failure queue of scheduled consumers (the consumer table has a schedule row). */
  readonly scheduleFailures?: boolean;
}

/** Logical ID of the failure queue of scheduled runs, pinned: it holds the events of failed runs. */
export const SCHEDULE_FAILURE_QUEUE_LOGICAL_ID = 'WebhooksScheduleFailureQueue4FC0C19A';

/**
 * The webhook queues, which hold messages and so live in the root stack with pinned logical IDs:
 * the delivery queue and its DLQ (after `maxAttempts` receives the redrive moves a message there,
 * whose consumer marks the delivery `dead`), and the failure queue of scheduled runs. Numbers come
 * from `config.webhooks` (shared/platform/config). The consumers are rows of the consumer table, built by
 * `Consumers`; the alarms by `webhookAlarms`, next to them.
 *
 * No VPC: the worker calls arbitrary customer URLs on the internet. SSRF is guarded in code
 * (resolve once, refuse private/loopback/link-local/metadata ranges, connect to the checked
 * address, no redirects); a VPC with a NAT gateway would add cost and a zonal dependency without
 * restricting where the worker may connect to.
 */
export class Webhooks extends Construct {
  readonly deliveryQueue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  /** The failure queue of scheduled runs, if the consumer table has a schedule row. */
  readonly scheduleFailureQueueIfAny?: sqs.Queue;

  constructor(scope: Construct, id: string, props: WebhooksProps = {}) {
    super(scope, id);
    const w = config.webhooks;
    checkWebhookQueueSettings({ ...w });

    // --- Queues (numbers from queueDeclarations, as the local queue driver reads them) ----------
    const declared = queueDeclarations({ ...w });
    const deliveriesRedrive = declared.webhookDeliveries.redrive!;
    if (deliveriesRedrive.deadLetter !== 'webhookDeadLetters') throw new Error('the delivery queue redrives to webhookDeadLetters');
    // Every receive is one attempt (the worker changes visibility for the backoff instead of
    // deleting and re-sending), so maxReceiveCount bounds the attempts.
    const pair = queueWithDeadLetter(this, {
      queue: {
        id: 'DeliveryQueue',
        logicalId: DELIVERY_QUEUE_LOGICAL_ID,
        retention: DELIVERY_RETENTION,
        visibilitySeconds: declared.webhookDeliveries.visibilitySeconds,
      },
      deadLetter: {
        id: 'DeadLetterQueue',
        logicalId: DEAD_LETTER_QUEUE_LOGICAL_ID,
        retention: DEAD_LETTER_RETENTION,
        visibilitySeconds: declared.webhookDeadLetters.visibilitySeconds,
        whyNoRedrive:
          'This is the dead-letter queue of the delivery queue. A message its consumer cannot handle stays here ' +
          '(14-day retention, DLQ alarm raised); a further dead-letter queue would only move it one queue on.',
      },
      maxReceiveCount: deliveriesRedrive.maxReceiveCount,
    });
    this.deadLetterQueue = pair.deadLetter;
    this.deliveryQueue = pair.queue;
    // cdk-nag: SSE (SQS2) and SSL (SQS4) are fixed above; AwsSolutions-SQS3 (no DLQ) does not fire
    // on the DLQ because the rule recognises it as the delivery queue's dead-letter queue.
    if (props.scheduleFailures) this.scheduleFailureQueueIfAny = scheduleFailureQueue(this);
  }
}

/**
 * Scheduled rows are invoked asynchronously by EventBridge: after Lambda's retries the event goes
 * to this one failure queue, shared by every schedule (EventBridge's own delivery failures too).
 */
function scheduleFailureQueue(scope: Construct): sqs.Queue {
  const queue = new sqs.Queue(scope, 'ScheduleFailureQueue', {
    retentionPeriod: SCHEDULE_FAILURE_RETENTION,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  (queue.node.defaultChild as sqs.CfnQueue).overrideLogicalId(SCHEDULE_FAILURE_QUEUE_LOGICAL_ID);
  const reason =
    'This queue is itself the dead-letter queue of the scheduled functions (their failed asynchronous ' +
    'invocations); a dead-letter queue of its own would only move the same events one queue further.';
  for (const id of ['AwsSolutions-SQS3', 'Serverless-SQSRedrivePolicy']) {
    Validations.of(queue.node.defaultChild as sqs.CfnQueue).acknowledge({ id, reason });
  }
  return queue;
}

export interface WebhookAlarms {
  /** DLQ has a visible message (a delivery died, or the DLQ consumer keeps failing). */
  readonly deadLetters: cloudwatch.Alarm;
  /** A delivery waits for its first attempts for more than an hour (worker failing or throttled). */
  readonly deliveryAge: cloudwatch.Alarm;
  /** The fan-out falls behind the table stream (records are trimmed after 24 h). */
  readonly fanoutIteratorAge: cloudwatch.Alarm;
}

/** Value above threshold for one period; no data (nothing happened) is not breaching. */
const overThreshold = {
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
  evaluationPeriods: 1,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
};

/**
 * The webhook pipeline's own alarms, built in `scope` (the pipelines' stack, next to the fan-out);
 * the stack gives every alarm its actions on the alarm topic.
 */
export function webhookAlarms(scope: Construct, queues: Pick<Webhooks, 'deliveryQueue' | 'deadLetterQueue'>, fanout: lambda.IFunction): WebhookAlarms {
  return {
    deadLetters: new cloudwatch.Alarm(scope, 'DeadLetterAlarm', {
      alarmDescription: alarmDescription(
        'Webhook DLQ has messages: deliveries exhausted their attempts, or the DLQ consumer fails. ' +
          'Check the DLQ consumer logs; the delivery log shows the attempts.',
        'deadLetterNotEmpty',
      ),
      metric: queues.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: DEAD_LETTER_ALARM_PERIOD, statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: 0,
      ...overThreshold,
    }),
    // SQS leaves a message received three times or more out of this metric, so deliveries in
    // their long backoff do not count; what remains is fresh deliveries nobody picks up.
    deliveryAge: new cloudwatch.Alarm(scope, 'DeliveryAgeAlarm', {
      alarmDescription: alarmDescription(
        'Oldest webhook delivery message waits more than an hour: the worker is failing, throttled or disabled.',
        'queueOldestMessage',
      ),
      metric: queues.deliveryQueue.metricApproximateAgeOfOldestMessage({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: DELIVERY_AGE_ALARM_SECONDS,
      ...overThreshold,
    }),
    fanoutIteratorAge: new cloudwatch.Alarm(scope, 'FanoutIteratorAgeAlarm', {
      alarmDescription: alarmDescription(
        'Webhook fan-out is more than 10 minutes behind the table stream (a failing record blocks its shard; ' + 'stream records are trimmed after 24 h).',
        'streamIteratorAge',
      ),
      metric: fanout.metric('IteratorAge', { period: ALARM_PERIOD, statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: FANOUT_ITERATOR_AGE_ALARM_MS,
      ...overThreshold,
    }),
  };
}
