import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { environmentOf } from '../../../shared/platform/config/index';
import type { ConsumerRow } from '../../../shared/platform/consumers/table';
import { queueUrlEnvName, type QueueName } from '../../../shared/platform/ports/queue';
import type { SecretName } from '../../../shared/platform/ports/secrets';
import { CONSUMER_CONSTRUCT_IDS } from './consumer-ids';
import type { Mail } from './mail';
import { type Invocation, PlatformFunction } from './platform-function';

export interface ConsumersProps {
  /** The rows of the consumer table (shared/platform/consumers/table.ts) this construct builds. */
  readonly rows: readonly ConsumerRow[];
  readonly table: dynamodb.ITable;
  readonly mail: Mail;
  /** The queues rows consume or send to. */
  readonly queues: Readonly<Partial<Record<QueueName, sqs.IQueue>>>;
  /** The wallet credentials secret, for rows whose access names `walletCredentials`. */
  readonly walletSecret?: secretsmanager.ISecret;
  /** The run-time secrets, for rows whose access names them. */
  readonly secrets?: Readonly<Partial<Record<SecretName, secretsmanager.ISecret>>>;
  /** Where failed scheduled runs go; required when a row is a schedule. */
  readonly scheduleFailureQueue?: sqs.IQueue;
  /** Each row's construct id, by row name (default `CONSUMER_CONSTRUCT_IDS`, the deployed ones). */
  readonly constructIds?: Readonly<Record<string, string>>;
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
  "(DescribeStream, GetShardIterator, GetRecords) is limited to this table's stream ARN in a separate statement.";

/**
 * The background consumers: one function per row of the consumer table, with exactly one trigger
 * (a table stream or queue event source, a schedule, or a workflow's Task state). The construct
 * ids of `consumer-ids.ts` keep the logical IDs.
 */
export class Consumers extends Construct {
  /** Row name -> its function. */
  readonly functions: Readonly<Record<string, nodejs.NodejsFunction>>;
  /** The EventBridge rule of every `schedule` row, by consumer name. */
  readonly schedules: Readonly<Record<string, events.Rule>> = {};
  /** Functions of `workflowTask` rows by workflow and state, for the workflow's state machine. */
  readonly workflowTasks: Readonly<Record<string, Readonly<Record<string, nodejs.NodejsFunction>>>> = {};

  constructor(
    scope: Construct,
    id: string,
    private readonly props: ConsumersProps,
  ) {
    super(scope, id);
    const functions: Record<string, nodejs.NodejsFunction> = {};
    for (const row of props.rows) {
      if (functions[row.name]) throw new Error(`consumer ${row.name} is declared twice`);
      const fn = this.functionOf(row);
      functions[row.name] = fn.function;
      this.addSource(fn, row);
    }
    this.functions = functions;
  }

  private constructIdOf(row: ConsumerRow): string {
    const ids: Readonly<Record<string, string>> = this.props.constructIds ?? CONSUMER_CONSTRUCT_IDS;
    const id = ids[row.name];
    if (!id) throw new Error(`consumer ${row.name} has no construct id (infra/app/constructs/consumer-ids.ts)`);
    return id;
  }

  /** The row's function with its row's timeout, numbers, access and (own queue's) URL. */
  private functionOf(row: ConsumerRow): PlatformFunction {
    const { props } = this;
    const ownQueue = row.kind === 'queue' ? [row.source] : [];
    return new PlatformFunction(this, this.constructIdOf(row), {
      table: props.table,
      mail: props.mail,
      name: row.name,
      description: row.description,
      timeout: Duration.seconds(row.timeoutSeconds),
      environment: {
        ...Object.assign({}, ...row.settings.map((group) => environmentOf(group))),
        ...queueUrls(ownQueue, props.queues),
      },
      access: row.access,
      queues: props.queues,
      ...(props.walletSecret ? { walletSecret: props.walletSecret } : {}),
      ...(props.secrets ? { secrets: props.secrets } : {}),
      invocation: this.invocationOf(row),
      // grantStreamRead (by the stream event source) adds dynamodb:ListStreams on "*".
      ...(row.kind === 'stream' ? { policyFindings: [{ id: STREAM_LIST_WILDCARD_FINDING, reason: STREAM_LIST_WILDCARD_REASON }] } : {}),
    });
  }

  /**
   * Scheduled rows are invoked asynchronously by EventBridge: after Lambda's retries the event goes
   * to the failure queue shared by every schedule.
   */
  private invocationOf(row: ConsumerRow): Invocation {
    switch (row.kind) {
      case 'stream':
      case 'queue':
        return { kind: 'eventSource' };
      case 'workflowTask':
        return { kind: 'synchronous' };
      case 'schedule':
        return { kind: 'asynchronous', failureQueue: this.scheduleFailures(row) };
    }
  }

  private scheduleFailures(row: ConsumerRow): sqs.IQueue {
    return this.props.scheduleFailureQueue ?? fail(`schedule row ${row.name} needs the failure queue of scheduled runs`);
  }

  /** The row's trigger: exactly one event source mapping, schedule rule or workflow task slot. */
  private addSource(fn: PlatformFunction, row: ConsumerRow): void {
    switch (row.kind) {
      case 'stream':
        this.addStreamSource(fn, row);
        return;
      case 'queue': {
        // Grants consume (Receive, Delete, ChangeMessageVisibility, GetQueueAttributes, GetQueueUrl)
        // on the queue: the worker's backoff is a ChangeMessageVisibility call.
        const queue = this.props.queues[row.source] ?? fail(`consumer ${row.name} consumes ${row.source}, which the stack did not give it`);
        fn.function.addEventSource(new SqsEventSource(queue, { batchSize: row.batchSize, reportBatchItemFailures: true }));
        acknowledgeNoDestination(mappingOf(fn, row), QUEUE_NO_DESTINATION_REASON);
        return;
      }
      case 'schedule':
        (this.schedules as Record<string, events.Rule>)[row.name] = new events.Rule(this, `${this.constructIdOf(row)}Schedule`, {
          description: `Runs ${row.name} on ${row.source}`,
          schedule: events.Schedule.expression(row.source),
          // EventBridge's own delivery failures go to the same failure queue as the function's.
          targets: [new targets.LambdaFunction(fn.function, { deadLetterQueue: this.scheduleFailures(row), retryAttempts: 2 })],
        });
        return;
      case 'workflowTask': {
        const all = this.workflowTasks as Record<string, Record<string, nodejs.NodejsFunction>>;
        const tasks = (all[row.source.workflow] ??= {});
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

  /**
   * At-least-once, never drop: infinite retries (-1) and no maximum record age, with bisection and
   * ReportBatchItemFailures so a failing record is narrowed down and only it (and what follows it in
   * its shard) is retried. No on-failure destination: it would only receive the record's
   * coordinates, and the record itself is gone from the stream after 24 h. A record that keeps
   * failing blocks its shard; the IteratorAge alarm reports that long before the 24 h retention.
   */
  private addStreamSource(fn: PlatformFunction, row: Extract<ConsumerRow, { kind: 'stream' }>): void {
    fn.function.addEventSource(
      new DynamoEventSource(this.props.table, {
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
function queueUrls(names: readonly QueueName[], queues: Readonly<Partial<Record<QueueName, sqs.IQueue>>>): Record<string, string> {
  return Object.fromEntries(names.map((name) => [queueUrlEnvName(name), (queues[name] ?? fail(`no queue ${name}`)).queueUrl]));
}
