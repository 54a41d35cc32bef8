import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { config } from '../../../shared/platform/config';
import { CONSUMERS } from '../../../shared/platform/consumers/table';
import { TABLE_SCHEMA } from '../../../shared/platform/data/table-schema';
import { QUEUES, type QueueName } from '../../../shared/platform/ports/queue';
import { WORKFLOWS, type WorkflowName } from '../../../shared/platform/ports/workflows';
import { TABLE_ACTIONS } from './access';
import type { Api } from './api';
import { alarmDescription, type RunbookSection } from './runbook';

/** The failure queue of scheduled consumers, next to the declared queues. */
export const SCHEDULE_FAILURE_QUEUE = 'scheduleFailures';
export type QueueKey = QueueName | typeof SCHEDULE_FAILURE_QUEUE;

/** A declared queue is a dead-letter queue when another queue redrives to it. */
export const isDeadLetterQueue = (key: QueueKey): boolean => key === SCHEDULE_FAILURE_QUEUE || Object.values(QUEUES).some((q) => q.deadLetter === key);

type WorkQueueName = { [K in QueueName]: (typeof QUEUES)[K]['deadLetter'] extends null ? never : K }[QueueName];
/** Exhaustive: a new work queue does not compile without its threshold in config.alarms. */
const WORK_QUEUE_AGE_SECONDS: Readonly<Record<WorkQueueName, number>> = config.alarms.queueOldestMessageSeconds;

/** Alarm thresholds (config.alarms). */
export const API_5XX_RATE_THRESHOLD = config.alarms.api5xxRate;
export const API_P99_LATENCY_THRESHOLD_MS = config.alarms.apiP99LatencyMs;

/**
 * The DynamoDB operations the platform calls, for the system-errors alarm: the declared table
 * actions that are API operations (ConditionCheckItem is part of a transaction), the transactions
 * the repositories run, and the stream consumers' GetRecords.
 */
export const TABLE_OPERATIONS: readonly string[] = [
  ...TABLE_ACTIONS.readWrite.map((a) => a.replace(/^dynamodb:/, '')).filter((op) => op !== 'ConditionCheckItem'),
  'TransactWriteItems',
  'GetRecords',
];

/** CloudWatch evaluates at most 10 metrics in one alarm. */
const ALARM_METRIC_LIMIT = 10;

const a = config.alarms;
/** The period of every alarm but the dead-letter "not empty" ones and the API latency. */
export const ALARM_PERIOD = Duration.minutes(a.periodMinutes);
const DEAD_LETTER_PERIOD = Duration.minutes(a.deadLetterPeriodMinutes);

export interface QueueAlarms {
  /** Dead-letter queues only. */
  readonly notEmpty?: cloudwatch.Alarm;
  readonly oldestMessage: cloudwatch.Alarm;
}

/** Alarms built next to their resources by the pipeline constructs; the ones missing here are made here. */
export interface ExistingAlarms {
  readonly queues?: Readonly<Partial<Record<QueueKey, { readonly notEmpty?: cloudwatch.Alarm; readonly oldestMessage?: cloudwatch.Alarm }>>>;
  readonly stateMachines?: Readonly<Partial<Record<WorkflowName, cloudwatch.Alarm>>>;
  /** Table stream consumers' IteratorAge, by consumer name. */
  readonly streams?: Readonly<Record<string, cloudwatch.Alarm>>;
}

/** Builds alarms in one scope: value above threshold for one period; no data (nothing happened) is not breaching. */
export class AlarmKit {
  constructor(private readonly scope: Construct) {}

  alarm(alarmId: string, metric: cloudwatch.IMetric, threshold: number, what: string, section: RunbookSection): cloudwatch.Alarm {
    return new cloudwatch.Alarm(this.scope, alarmId, {
      alarmDescription: alarmDescription(what, section),
      metric,
      threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  /** Sum of several metrics, a missing data point counting 0. */
  sumOf(label: string, metrics: Record<string, cloudwatch.IMetric>): cloudwatch.MathExpression {
    const ids = Object.keys(metrics);
    if (ids.length > ALARM_METRIC_LIMIT) throw new Error(`${label}: ${ids.length} metrics, an alarm takes at most ${ALARM_METRIC_LIMIT}`);
    return new cloudwatch.MathExpression({
      expression: `SUM([${ids.map((i) => `FILL(${i}, 0)`).join(', ')}])`,
      usingMetrics: metrics,
      period: ALARM_PERIOD,
      label,
    });
  }
}

/** An API Gateway metric of the API's stage (optionally of one route). */
export function apiMetric(api: Api, metricName: string, statistic: string, period: Duration, route?: string, label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: { ApiId: api.httpApi.apiId, Stage: api.stage.stageName, ...(route ? { Route: route } : {}) },
    statistic,
    period,
    ...(label ? { label } : {}),
  });
}

/** An EventBridge metric of one rule (Sum). */
export function ruleMetric(rule: events.IRule, metricName: string, period: Duration, label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/Events',
    metricName,
    dimensionsMap: { RuleName: rule.ruleName },
    statistic: cloudwatch.Stats.SUM,
    period,
    ...(label ? { label } : {}),
  });
}

/** A DynamoDB metric of the table (Sum), with extra dimensions (index, operation). */
export function tableMetric(
  table: dynamodb.ITable,
  metricName: string,
  period: Duration,
  extra: Record<string, string> = {},
  label?: string,
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/DynamoDB',
    metricName,
    dimensionsMap: { TableName: table.tableName, ...extra },
    statistic: cloudwatch.Stats.SUM,
    period,
    ...(label ? { label } : {}),
  });
}

/** API 5xx rate and p99 latency. No requests in a period: no data point (0/0), not breaching. */
export function apiAlarms(kit: AlarmKit, api: Api) {
  const api5xxRate = kit.alarm(
    'Api5xxRateAlarm',
    new cloudwatch.MathExpression({
      expression: 'errors / requests',
      usingMetrics: {
        errors: apiMetric(api, '5xx', cloudwatch.Stats.SUM, ALARM_PERIOD),
        requests: apiMetric(api, 'Count', cloudwatch.Stats.SUM, ALARM_PERIOD),
      },
      period: ALARM_PERIOD,
      label: '5xx rate',
    }),
    API_5XX_RATE_THRESHOLD,
    `More than ${API_5XX_RATE_THRESHOLD * 100} % of API requests answered 5xx over ${a.periodMinutes} minutes.`,
    'api5xxRate',
  );
  const apiLatencyP99 = kit.alarm(
    'ApiLatencyP99Alarm',
    apiMetric(api, 'Latency', cloudwatch.Stats.p(99), Duration.minutes(a.apiLatencyPeriodMinutes)),
    API_P99_LATENCY_THRESHOLD_MS,
    `API p99 latency above ${API_P99_LATENCY_THRESHOLD_MS} ms over ${a.apiLatencyPeriodMinutes} minutes.`,
    'apiLatency',
  );
  return { api5xxRate, apiLatencyP99 };
}

/** Errors and throttles of every function. */
export function functionAlarms(kit: AlarmKit, functions: Readonly<Record<string, lambda.IFunction>>) {
  const functionErrors: Record<string, cloudwatch.Alarm> = {};
  const functionThrottles: Record<string, cloudwatch.Alarm> = {};
  for (const [name, fn] of Object.entries(functions)) {
    functionErrors[name] = kit.alarm(
      `Errors-${name}`,
      fn.metricErrors({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM }),
      a.functionErrors,
      `Lambda function "${name}" reported errors (uncaught exceptions, timeouts) in the last ${a.periodMinutes} minutes.`,
      'functionErrors',
    );
    functionThrottles[name] = kit.alarm(
      `Throttles-${name}`,
      fn.metricThrottles({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM }),
      a.functionThrottles,
      `Lambda function "${name}" had invocations throttled (no concurrency left) in the last ${a.periodMinutes} minutes.`,
      'functionThrottles',
    );
  }
  return { functionErrors, functionThrottles };
}

/** Every queue's oldest message, every dead-letter queue not empty; the pipelines' own alarms are reused. */
export function queueAlarms(kit: AlarmKit, queues: readonly [QueueKey, sqs.IQueue][], existing: ExistingAlarms['queues'] = {}) {
  const alarms: Partial<Record<QueueKey, QueueAlarms>> = {};
  for (const [key, queue] of queues) {
    const given = existing[key];
    const dead = isDeadLetterQueue(key);
    const notEmpty = dead ? (given?.notEmpty ?? deadLetterNotEmpty(kit, key, queue)) : undefined;
    const oldestMessage = given?.oldestMessage ?? oldestMessageAlarm(kit, key, queue, dead);
    alarms[key] = { ...(notEmpty ? { notEmpty } : {}), oldestMessage };
  }
  return alarms;
}

function deadLetterNotEmpty(kit: AlarmKit, key: QueueKey, queue: sqs.IQueue): cloudwatch.Alarm {
  return kit.alarm(
    `Queue-${key}-NotEmpty`,
    queue.metricApproximateNumberOfMessagesVisible({ period: DEAD_LETTER_PERIOD, statistic: cloudwatch.Stats.MAXIMUM }),
    0,
    `Dead-letter queue "${key}" has messages: work that failed every attempt waits there for an operator.`,
    'deadLetterNotEmpty',
  );
}

function oldestMessageAlarm(kit: AlarmKit, key: QueueKey, queue: sqs.IQueue, dead: boolean): cloudwatch.Alarm {
  const threshold = dead ? a.deadLetterOldestMessageSeconds : WORK_QUEUE_AGE_SECONDS[key as WorkQueueName];
  return kit.alarm(
    `Queue-${key}-OldestMessage`,
    queue.metricApproximateAgeOfOldestMessage({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.MAXIMUM }),
    threshold,
    dead
      ? `The oldest message of dead-letter queue "${key}" is older than ${a.deadLetterOldestMessageSeconds / 86400} days: replay or remove it before SQS deletes it.`
      : `The oldest message of queue "${key}" waits longer than ${threshold} s: its consumer is failing, throttled or disabled.`,
    dead ? 'deadLetterOldestMessage' : 'queueOldestMessage',
  );
}

/** IteratorAge of every table stream consumer of the consumer table. */
export function streamAlarms(kit: AlarmKit, functions: Readonly<Record<string, lambda.IFunction>>, existing: ExistingAlarms['streams'] = {}) {
  const streams: Record<string, cloudwatch.Alarm> = {};
  for (const name of CONSUMERS.filter((row) => row.kind === 'stream').map((row) => row.name)) {
    const fn = functions[name];
    if (!fn) throw new Error(`stream consumer ${name} has no function`);
    streams[name] =
      existing[name] ??
      kit.alarm(
        `IteratorAge-${name}`,
        fn.metric('IteratorAge', { period: ALARM_PERIOD, statistic: cloudwatch.Stats.MAXIMUM }),
        a.streamIteratorAgeMs,
        `Stream consumer "${name}" is more than ${a.streamIteratorAgeMs / 60000} minutes behind the table stream (records are trimmed after 24 h).`,
        'streamIteratorAge',
      );
  }
  return streams;
}

/** Failed, timed-out or aborted executions of every workflow. */
export function workflowAlarms(kit: AlarmKit, machines: Readonly<Record<WorkflowName, sfn.IStateMachine>>, existing: ExistingAlarms['stateMachines'] = {}) {
  const alarms = {} as Record<WorkflowName, cloudwatch.Alarm>;
  for (const workflow of Object.keys(WORKFLOWS) as WorkflowName[]) {
    const machine = machines[workflow];
    alarms[workflow] =
      existing[workflow] ??
      kit.alarm(
        `Workflow-${workflow}-Failures`,
        kit.sumOf(`${workflow} failed, timed out or aborted`, {
          failed: machine.metricFailed({ statistic: cloudwatch.Stats.SUM }),
          timedOut: machine.metricTimedOut({ statistic: cloudwatch.Stats.SUM }),
          aborted: machine.metricAborted({ statistic: cloudwatch.Stats.SUM }),
        }),
        0,
        `Workflow "${workflow}": an execution failed, timed out or was aborted.`,
        'workflowFailures',
      );
  }
  return alarms;
}

/** Failed invocations of every schedule's target. */
export function scheduleAlarms(kit: AlarmKit, schedules: Readonly<Record<string, events.IRule>>) {
  const alarms: Record<string, cloudwatch.Alarm> = {};
  for (const [name, rule] of Object.entries(schedules)) {
    alarms[name] = kit.alarm(
      `Schedule-${name}-FailedInvocations`,
      ruleMetric(rule, 'FailedInvocations', ALARM_PERIOD),
      a.scheduleFailedInvocations,
      `The schedule of "${name}" could not invoke its function (after EventBridge's retries; the event went to the schedule failure queue).`,
      'scheduleFailedInvocations',
    );
  }
  return alarms;
}

/** Throttle events of the table and every index, and system errors of every operation the platform calls. */
export function tableAlarms(kit: AlarmKit, table: dynamodb.ITable) {
  const indexes = TABLE_SCHEMA.gsis.map((g) => g.indexName);
  const throttleEvents: Record<string, cloudwatch.Metric> = Object.fromEntries(
    [undefined, ...indexes].flatMap((index, i) =>
      (['Read', 'Write'] as const).map((kind) => [
        `${kind.toLowerCase()}${i}`,
        tableMetric(
          table,
          `${kind}ThrottleEvents`,
          ALARM_PERIOD,
          index ? { GlobalSecondaryIndexName: index } : {},
          `${kind.toLowerCase()} ${index ?? 'table'}`,
        ),
      ]),
    ),
  );
  const systemErrors = Object.fromEntries(TABLE_OPERATIONS.map((op) => [`op${op}`, tableMetric(table, 'SystemErrors', ALARM_PERIOD, { Operation: op }, op)]));
  const tableThrottling = kit.alarm(
    'TableThrottlingAlarm',
    kit.sumOf('read and write throttle events (table and indexes)', throttleEvents),
    a.tableThrottleEvents,
    `DynamoDB throttled reads or writes of the table or an index in the last ${a.periodMinutes} minutes.`,
    'tableThrottling',
  );
  const tableSystemErrors = kit.alarm(
    'TableSystemErrorsAlarm',
    kit.sumOf('system errors', systemErrors),
    a.tableSystemErrors,
    `DynamoDB answered requests of the platform with system errors (HTTP 500) in the last ${a.periodMinutes} minutes.`,
    'tableSystemErrors',
  );
  return { tableThrottling, tableSystemErrors };
}
