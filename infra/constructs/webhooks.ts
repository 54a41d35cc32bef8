import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { queueWithDeadLetter } from './queue-with-dead-letter';
import { Construct } from 'constructs';
import { queueDeclarations } from '../../shared/consumers/queues';
import { CONSUMERS, type ConsumerName, type ConsumerRow } from '../../shared/consumers/table';
import { queueUrlEnvName, type QueueName } from '../../shared/ports/queue';
import { config, environmentOf, WEBHOOK_NUMBERS, type WebhookSettings } from '../../shared/config';
import type { Mail } from './mail';
import { type Invocation, PlatformFunction } from './platform-function';
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
export const DELIVERY_RETENTION = Duration.days(4);
/** How long the DLQ keeps a message (SQS maximum; longer than the delivery queue, as AWS advises). */
export const DEAD_LETTER_RETENTION = Duration.days(14);
/** SQS limit of a message's visibility timeout (and of ChangeMessageVisibility). */
const SQS_MAX_VISIBILITY_SECONDS = 12 * 3600;

/** Alarm thresholds (config.alarms); every alarm notifies the stack's alarm topic. */
export const DELIVERY_AGE_ALARM_SECONDS = config.alarms.queueOldestMessageSeconds.webhookDeliveries;
export const FANOUT_ITERATOR_AGE_ALARM_MS = config.alarms.streamIteratorAgeMs;

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
    throw new Error(
      `config.webhooks.visibilitySeconds=${s.visibilitySeconds} must be >= 6 x workerTimeoutSeconds ` +
        `(${6 * s.workerTimeoutSeconds})`,
    );
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
  readonly table: dynamodb.ITable;
  readonly mail: Mail;
  /** @default CONSUMERS (other rows only in tests: what a new row gets) */
  readonly consumers?: readonly ConsumerRow[];
  /** Queues of other pipelines that consumer rows consume or send to (e.g. the wallet push queues). */
  readonly queues?: Readonly<Partial<Record<QueueName, sqs.Queue>>>;
  /** The wallet credentials secret, for rows whose access names `walletCredentials`. */
  readonly walletSecret?: secretsmanager.ISecret;
}

const STREAM_NO_DESTINATION_REASON =
  'Deliberately none: an on-failure destination would only receive the coordinates of a failing stream record, ' +
  'which is trimmed from the stream after 24 h. Retries are infinite with bisection, so a failing record blocks ' +
  'its shard and the fan-out IteratorAge alarm reports it long before the stream retention.';
const QUEUE_NO_DESTINATION_REASON =
  'An SQS event source mapping takes no on-failure destination: a failed message returns to its queue and the ' +
  "queue's redrive policy moves it to the dead-letter queue after maxReceiveCount receives (for the DLQ " +
  'consumer: the message stays in the DLQ until its 14-day retention, with the DLQ alarm raised).';

const STREAM_LIST_WILDCARD_FINDING = 'AwsSolutions-IAM5[Resource::*]';
const STREAM_LIST_WILDCARD_REASON =
  'The DynamoDB stream event source (table.grantStreamRead) needs dynamodb:ListStreams, which supports no ' +
  'resource-level permissions, so its resource is "*"; it only lists stream ARNs. Reading records ' +
  '(DescribeStream, GetShardIterator, GetRecords) is limited to this table\'s stream ARN in a separate statement.';

/**
 * Webhook delivery pipeline:
 * table stream (outbox items only) -> fan-out -> delivery queue -> worker -> customer URL;
 * after `maxAttempts` receives the redrive moves a message to the DLQ, whose consumer marks the
 * delivery `dead`. Numbers come from `config.webhooks` (shared/config).
 *
 * The functions are the rows of the consumer table (shared/consumers/table.ts), built here with
 * their event source, schedule or workflow slot; the construct ids in the rows keep the logical IDs.
 *
 * No VPC: the worker calls arbitrary customer URLs on the internet. SSRF is guarded in code
 * (resolve once, refuse private/loopback/link-local/metadata ranges, connect to the checked
 * address, no redirects); a VPC with a NAT gateway would add cost and a zonal dependency without
 * restricting where the worker may connect to.
 */
export class Webhooks extends Construct {
  readonly deliveryQueue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  /** The function of every row of `CONSUMERS` (shared/consumers/table.ts), by name. */
  readonly consumerFunctions: Readonly<Record<string, nodejs.NodejsFunction>>;
  /** The EventBridge rule of every `schedule` row, by consumer name. */
  readonly schedules: Readonly<Record<string, events.Rule>> = {};
  /** Functions of `workflowTask` rows by workflow and state, for the workflow's state machine. */
  readonly workflowTasks: Readonly<Record<string, Readonly<Record<string, nodejs.NodejsFunction>>>>;
  /** Table stream consumer: one delivery message per subscribed endpoint and outbox event. */
  readonly fanout: nodejs.NodejsFunction;
  /** Delivery queue consumer: calls the endpoint, schedules retries by changing visibility. */
  readonly worker: nodejs.NodejsFunction;
  /** DLQ consumer: marks deliveries dead. */
  readonly deadLetterConsumer: nodejs.NodejsFunction;
  readonly alarms: {
    /** DLQ has a visible message (a delivery died, or the DLQ consumer keeps failing). */
    readonly deadLetters: cloudwatch.Alarm;
    /** A delivery waits for its first attempts for more than an hour (worker failing or throttled). */
    readonly deliveryAge: cloudwatch.Alarm;
    /** The fan-out falls behind the table stream (records are trimmed after 24 h). */
    readonly fanoutIteratorAge: cloudwatch.Alarm;
  };

  constructor(scope: Construct, id: string, props: WebhooksProps) {
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
      queue: { id: 'DeliveryQueue', logicalId: DELIVERY_QUEUE_LOGICAL_ID, retention: DELIVERY_RETENTION, visibilitySeconds: declared.webhookDeliveries.visibilitySeconds },
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
    const queues = { ...props.queues, webhookDeadLetters: this.deadLetterQueue, webhookDeliveries: this.deliveryQueue } as Record<QueueName, sqs.Queue>;

    // --- Background consumers: one function and one event source (or schedule) per row ---------
    const functions: Record<string, nodejs.NodejsFunction> = {};
    const workflowTasks: Record<string, Record<string, nodejs.NodejsFunction>> = {};
    for (const row of props.consumers ?? CONSUMERS) {
      if (functions[row.name]) throw new Error(`consumer ${row.name} is declared twice`);
      const ownQueue = row.kind === 'queue' ? [row.source] : [];
      const fn = new PlatformFunction(this, row.constructId, {
        table: props.table,
        mail: props.mail,
        name: row.name,
        description: row.description,
        timeout: Duration.seconds(row.timeoutSeconds),
        environment: {
          ...Object.assign({}, ...row.settings.map((group) => environmentOf(group))),
          ...queueUrls(ownQueue, queues),
        },
        access: row.access,
        queues,
        ...(props.walletSecret ? { walletSecret: props.walletSecret } : {}),
        invocation: this.invocationOf(row),
        // grantStreamRead (by the stream event source) adds dynamodb:ListStreams on "*".
        ...(row.kind === 'stream' ? { policyFindings: [{ id: STREAM_LIST_WILDCARD_FINDING, reason: STREAM_LIST_WILDCARD_REASON }] } : {}),
      });
      functions[row.name] = fn.function;
      this.addSource(fn, row, props.table, queues, workflowTasks);
    }
    this.consumerFunctions = functions;
    this.workflowTasks = workflowTasks;
    const pipeline = (name: ConsumerName) => functions[name] ?? fail(`the webhook pipeline needs the consumer ${name}`);
    this.fanout = pipeline('webhook-fanout');
    this.worker = pipeline('webhook-worker');
    this.deadLetterConsumer = pipeline('webhook-dlq');

    // cdk-nag: SSE (SQS2) and SSL (SQS4) are fixed above; AwsSolutions-SQS3 (no DLQ) does not fire
    // on the DLQ because the rule recognises it as the delivery queue's dead-letter queue. The
    // fan-out's ListStreams wildcard is acknowledged above, on its policy only.

    // --- Alarms (the stack gives every alarm its actions on the alarm topic) ------------------
    this.alarms = {
      deadLetters: new cloudwatch.Alarm(this, 'DeadLetterAlarm', {
        alarmDescription: alarmDescription(
          'Webhook DLQ has messages: deliveries exhausted their attempts, or the DLQ consumer fails. ' +
            'Check the DLQ consumer logs; the delivery log shows the attempts.',
          'deadLetterNotEmpty',
        ),
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      // SQS leaves a message received three times or more out of this metric, so deliveries in
      // their long backoff do not count; what remains is fresh deliveries nobody picks up.
      deliveryAge: new cloudwatch.Alarm(this, 'DeliveryAgeAlarm', {
        alarmDescription: alarmDescription(
          'Oldest webhook delivery message waits more than an hour: the worker is failing, throttled or disabled.',
          'queueOldestMessage',
        ),
        metric: this.deliveryQueue.metricApproximateAgeOfOldestMessage({
          period: Duration.minutes(5),
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        threshold: DELIVERY_AGE_ALARM_SECONDS,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      fanoutIteratorAge: new cloudwatch.Alarm(this, 'FanoutIteratorAgeAlarm', {
        alarmDescription: alarmDescription(
          'Webhook fan-out is more than 10 minutes behind the table stream (a failing record blocks its shard; ' +
            'stream records are trimmed after 24 h).',
          'streamIteratorAge',
        ),
        metric: this.fanout.metric('IteratorAge', {
          period: Duration.minutes(5),
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        threshold: FANOUT_ITERATOR_AGE_ALARM_MS,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    };
  }

  /**
   * Scheduled rows are invoked asynchronously by EventBridge: after Lambda's retries the event goes
   * to one failure queue shared by every schedule (created with the first scheduled row).
   */
  private invocationOf(row: ConsumerRow): Invocation {
    switch (row.kind) {
      case 'stream':
      case 'queue':
        return { kind: 'eventSource' };
      case 'workflowTask':
        return { kind: 'synchronous' };
      case 'schedule':
        return { kind: 'asynchronous', failureQueue: this.scheduleFailures() };
    }
  }

  private scheduleFailureQueue?: sqs.Queue;

  /** The failure queue of scheduled runs, if the table has a schedule row. */
  get scheduleFailureQueueIfAny(): sqs.Queue | undefined {
    return this.scheduleFailureQueue;
  }

  private scheduleFailures(): sqs.Queue {
    if (!this.scheduleFailureQueue) {
      this.scheduleFailureQueue = new sqs.Queue(this, 'ScheduleFailureQueue', {
        retentionPeriod: DEAD_LETTER_RETENTION,
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const reason =
        'This queue is itself the dead-letter queue of the scheduled functions (their failed asynchronous ' +
        'invocations); a dead-letter queue of its own would only move the same events one queue further.';
      for (const id of ['AwsSolutions-SQS3', 'Serverless-SQSRedrivePolicy']) {
        Validations.of(this.scheduleFailureQueue.node.defaultChild as sqs.CfnQueue).acknowledge({ id, reason });
      }
    }
    return this.scheduleFailureQueue;
  }

  /** Every background consumer (for stack-wide environment such as PUBLIC_BASE_URL). */
  get functions(): readonly nodejs.NodejsFunction[] {
    return Object.values(this.consumerFunctions);
  }

  /** The row's trigger: exactly one event source mapping, schedule rule or workflow task slot. */
  private addSource(
    fn: PlatformFunction,
    row: ConsumerRow,
    table: dynamodb.ITable,
    queues: Record<QueueName, sqs.IQueue>,
    workflowTasks: Record<string, Record<string, nodejs.NodejsFunction>>,
  ): void {
    switch (row.kind) {
      case 'stream': {
        // At-least-once, never drop: infinite retries (-1) and no maximum record age, with bisection
        // and ReportBatchItemFailures so a failing record is narrowed down and only it (and what
        // follows it in its shard) is retried. No on-failure destination: it would only receive the
        // record's coordinates, and the record itself is gone from the stream after 24 h. A record
        // that keeps failing blocks its shard; the IteratorAge alarm reports that long before the
        // stream's 24 h retention.
        fn.function.addEventSource(
          new DynamoEventSource(table, {
            startingPosition: lambda.StartingPosition.TRIM_HORIZON,
            batchSize: row.batchSize,
            bisectBatchOnError: true,
            retryAttempts: -1,
            reportBatchItemFailures: true,
            ...(row.filter ? { filters: [lambda.FilterCriteria.filter(row.filter)] } : {}),
          }),
        );
        const mapping = mappingOf(fn, row);
        // CDK only accepts 60 s - 7 d; -1 (the service default) says "forever" in the template too.
        (mapping.node.defaultChild as lambda.CfnEventSourceMapping).maximumRecordAgeInSeconds = -1;
        acknowledgeNoDestination(mapping, STREAM_NO_DESTINATION_REASON);
        return;
      }
      case 'queue': {
        // Grants consume (Receive, Delete, ChangeMessageVisibility, GetQueueAttributes, GetQueueUrl)
        // on the queue: the worker's backoff is a ChangeMessageVisibility call.
        fn.function.addEventSource(new SqsEventSource(queues[row.source], { batchSize: row.batchSize, reportBatchItemFailures: true }));
        acknowledgeNoDestination(mappingOf(fn, row), QUEUE_NO_DESTINATION_REASON);
        return;
      }
      case 'schedule':
        (this.schedules as Record<string, events.Rule>)[row.name] = new events.Rule(this, `${row.constructId}Schedule`, {
          description: `Runs ${row.name} on ${row.source}`,
          schedule: events.Schedule.expression(row.source),
          // EventBridge's own delivery failures go to the same failure queue as the function's.
          targets: [new targets.LambdaFunction(fn.function, { deadLetterQueue: this.scheduleFailures(), retryAttempts: 2 })],
        });
        return;
      case 'workflowTask': {
        const tasks = (workflowTasks[row.source.workflow] ??= {});
        if (tasks[row.source.state]) throw new Error(`${row.source.workflow}.${row.source.state} has two consumers`);
        tasks[row.source.state] = fn.function;
        return;
      }
      default: {
        const unknown: never = row;
        throw new Error(`unknown consumer kind in ${JSON.stringify(unknown)}`);
      }
    }
  }
}

/** The one event source mapping of a stream or queue row's function. */
function mappingOf(fn: PlatformFunction, row: ConsumerRow): lambda.EventSourceMapping {
  const mappings = fn.function.node.children.filter((c): c is lambda.EventSourceMapping => c instanceof lambda.EventSourceMapping);
  if (mappings.length !== 1) throw new Error(`${row.name} has ${mappings.length} event source mappings, expected one`);
  return mappings[0]!;
}

function acknowledgeNoDestination(mapping: lambda.EventSourceMapping, reason: string): void {
  Validations.of(mapping.node.defaultChild as lambda.CfnEventSourceMapping).acknowledge({
    id: 'Serverless-LambdaEventSourceMappingDestination',
    reason,
  });
}

const fail = (message: string): never => {
  throw new Error(message);
};

/** `QUEUE_URL_<NAME>` of each queue (as the Queue adapter reads them). */
function queueUrls(names: readonly QueueName[], queues: Record<QueueName, sqs.IQueue>): Record<string, string> {
  return Object.fromEntries(names.map((name) => [queueUrlEnvName(name), queues[name].queueUrl]));
}
