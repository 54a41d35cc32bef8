import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { config } from '../../shared/config';
import { CONSUMERS } from '../../shared/consumers/table';
import { routeKey, routes } from '../../shared/contracts/index';
import { TABLE_SCHEMA } from '../../shared/data/table-schema';
import type { Capability } from '../../shared/observability/metric-catalog';
import { QUEUES, type QueueName } from '../../shared/ports/queue';
import { WORKFLOWS, type WorkflowName } from '../../shared/ports/workflows';
import { TABLE_ACTIONS } from './access';
import type { Api } from './api';
import { businessMetricWidgets } from './business-metric-widgets';
import { CAPABILITY_ROWS, functionCapability, QUEUE_CAPABILITY, SHARED_ROW_TITLE, WORKFLOW_CAPABILITY } from './dashboard-rows';
import { alarmDescription, type RunbookSection } from './runbook';

/** Name of the operators' dashboard (one per account/region, like the stack). */
export const DASHBOARD_NAME = 'LoyaltyPlatform';

/** Busiest operations (by operationId) that get their own latency/5xx widget. */
const BUSIEST_OPERATIONS = ['createOrder', 'createMember', 'listMembers', 'createObjectRecord'];

/** Their API Gateway route keys, derived from the endpoint declarations. */
export const DASHBOARD_ROUTES: readonly string[] = BUSIEST_OPERATIONS.map((id) => {
  const route = routes.find((r) => r.operationId === id);
  if (!route) throw new Error(`dashboard: no endpoint with operationId ${id}`);
  return routeKey(route);
});

/** Alarm thresholds (config.alarms). */
export const API_5XX_RATE_THRESHOLD = config.alarms.api5xxRate;
export const API_P99_LATENCY_THRESHOLD_MS = config.alarms.apiP99LatencyMs;

/** The failure queue of scheduled consumers, next to the declared queues. */
export const SCHEDULE_FAILURE_QUEUE = 'scheduleFailures';
export type QueueKey = QueueName | typeof SCHEDULE_FAILURE_QUEUE;

/** A declared queue is a dead-letter queue when another queue redrives to it. */
export const isDeadLetterQueue = (key: QueueKey): boolean =>
  key === SCHEDULE_FAILURE_QUEUE || Object.values(QUEUES).some((q) => q.deadLetter === key);

type WorkQueueName = { [K in QueueName]: (typeof QUEUES)[K]['deadLetter'] extends null ? never : K }[QueueName];
/** Exhaustive: a new work queue does not compile without its threshold in config.alarms. */
const WORK_QUEUE_AGE_SECONDS: Readonly<Record<WorkQueueName, number>> = config.alarms.queueOldestMessageSeconds;

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

/** Alarms built next to their resources by the pipeline constructs; the ones missing here are made here. */
export interface ExistingAlarms {
  readonly queues?: Readonly<Partial<Record<QueueKey, { readonly notEmpty?: cloudwatch.Alarm; readonly oldestMessage?: cloudwatch.Alarm }>>>;
  readonly stateMachines?: Readonly<Partial<Record<WorkflowName, cloudwatch.Alarm>>>;
  /** Table stream consumers' IteratorAge, by consumer name. */
  readonly streams?: Readonly<Record<string, cloudwatch.Alarm>>;
}

export interface ObservabilityProps {
  readonly api: Api;
  readonly table: dynamodb.ITable;
  /** Every function of the stack by its name (area, `webhook-fanout`, ...). */
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  /** Every declared queue (`shared/ports/queue.ts`). */
  readonly queues: Readonly<Record<QueueName, sqs.IQueue>>;
  /** The failure queue of the scheduled consumers, when the consumer table has a schedule row. */
  readonly scheduleFailureQueue?: sqs.IQueue;
  /** Every workflow's state machine (`shared/ports/workflows.ts`). */
  readonly stateMachines: Readonly<Record<WorkflowName, sfn.IStateMachine>>;
  /** The EventBridge rule of every schedule row, by consumer name. */
  readonly schedules: Readonly<Record<string, events.IRule>>;
  readonly existingAlarms?: ExistingAlarms;
}

interface QueueAlarms {
  /** Dead-letter queues only. */
  readonly notEmpty?: cloudwatch.Alarm;
  readonly oldestMessage: cloudwatch.Alarm;
}

/**
 * The operators' CloudWatch dashboard and the stack-wide alarms. The dashboard has the state of
 * every alarm on top, then one row per capability (`dashboard-rows.ts`): its functions (errors,
 * throttles, duration p99, concurrent executions), queues (depth, age of the oldest message),
 * stream consumers (IteratorAge), workflows, schedules and business metrics; the API row adds the
 * API Gateway metrics; the last row shows the table and the failure queue of scheduled runs.
 * Alarms: API 5xx rate and p99 latency, errors and throttles of every function, every queue's
 * oldest message and every dead-letter queue not empty, stream IteratorAge, workflow failures,
 * schedule failed invocations, table throttling and system errors, each naming its runbook section.
 * The actions (the alarm topic) are added to every alarm of the stack by the stack itself.
 */
export class Observability extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: {
    /** 5xx / Count of the whole API over 5 minutes. */
    readonly api5xxRate: cloudwatch.Alarm;
    /** p99 latency of the whole API over 15 minutes. */
    readonly apiLatencyP99: cloudwatch.Alarm;
    /** Function name -> Errors over 5 minutes. */
    readonly functionErrors: Readonly<Record<string, cloudwatch.Alarm>>;
    /** Function name -> Throttles over 5 minutes. */
    readonly functionThrottles: Readonly<Record<string, cloudwatch.Alarm>>;
    readonly queues: Readonly<Partial<Record<QueueKey, QueueAlarms>>>;
    /** Stream consumer name -> IteratorAge. */
    readonly streams: Readonly<Record<string, cloudwatch.Alarm>>;
    /** Failed, timed-out or aborted executions. */
    readonly stateMachines: Readonly<Record<WorkflowName, cloudwatch.Alarm>>;
    /** Schedule row name -> FailedInvocations. */
    readonly schedules: Readonly<Record<string, cloudwatch.Alarm>>;
    readonly tableThrottling: cloudwatch.Alarm;
    readonly tableSystemErrors: cloudwatch.Alarm;
  };

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { api, table } = props;
    const existing = props.existingAlarms ?? {};
    for (const key of DASHBOARD_ROUTES) {
      if (!api.routes.has(key)) throw new Error(`Dashboard route "${key}" is not in the route table`);
    }
    const a = config.alarms;
    const alarmPeriod = Duration.minutes(a.periodMinutes);
    const oneMinute = Duration.minutes(1);

    const apiMetric = (metricName: string, statistic: string, period: Duration, route?: string, label?: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: {
          ApiId: api.httpApi.apiId,
          Stage: api.stage.stageName,
          ...(route ? { Route: route } : {}),
        },
        statistic,
        period,
        ...(label ? { label } : {}),
      });
    /** Value above threshold for one period; no data (nothing happened) is not breaching. */
    const alarm = (alarmId: string, metric: cloudwatch.IMetric, threshold: number, what: string, section: RunbookSection) =>
      new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: alarmDescription(what, section),
        metric,
        threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    /** Sum of several metrics, a missing data point counting 0. */
    const sumOf = (label: string, metrics: Record<string, cloudwatch.IMetric>) => {
      const ids = Object.keys(metrics);
      if (ids.length > ALARM_METRIC_LIMIT) throw new Error(`${label}: ${ids.length} metrics, an alarm takes at most ${ALARM_METRIC_LIMIT}`);
      return new cloudwatch.MathExpression({ expression: `SUM([${ids.map((i) => `FILL(${i}, 0)`).join(', ')}])`, usingMetrics: metrics, period: alarmPeriod, label });
    };

    // --- API --------------------------------------------------------------------------------------
    // No requests in a period: no data point (0/0), treated as not breaching.
    const api5xxRate = alarm(
      'Api5xxRateAlarm',
      new cloudwatch.MathExpression({
        expression: 'errors / requests',
        usingMetrics: {
          errors: apiMetric('5xx', cloudwatch.Stats.SUM, alarmPeriod),
          requests: apiMetric('Count', cloudwatch.Stats.SUM, alarmPeriod),
        },
        period: alarmPeriod,
        label: '5xx rate',
      }),
      API_5XX_RATE_THRESHOLD,
      `More than ${API_5XX_RATE_THRESHOLD * 100} % of API requests answered 5xx over ${a.periodMinutes} minutes.`,
      'api5xxRate',
    );
    const apiLatencyP99 = alarm(
      'ApiLatencyP99Alarm',
      apiMetric('Latency', cloudwatch.Stats.p(99), Duration.minutes(a.apiLatencyPeriodMinutes)),
      API_P99_LATENCY_THRESHOLD_MS,
      `API p99 latency above ${API_P99_LATENCY_THRESHOLD_MS} ms over ${a.apiLatencyPeriodMinutes} minutes.`,
      'apiLatency',
    );

    // --- Functions --------------------------------------------------------------------------------
    const functionErrors: Record<string, cloudwatch.Alarm> = {};
    const functionThrottles: Record<string, cloudwatch.Alarm> = {};
    for (const [name, fn] of Object.entries(props.functions)) {
      functionErrors[name] = alarm(
        `Errors-${name}`,
        fn.metricErrors({ period: alarmPeriod, statistic: cloudwatch.Stats.SUM }),
        a.functionErrors,
        `Lambda function "${name}" reported errors (uncaught exceptions, timeouts) in the last ${a.periodMinutes} minutes.`,
        'functionErrors',
      );
      functionThrottles[name] = alarm(
        `Throttles-${name}`,
        fn.metricThrottles({ period: alarmPeriod, statistic: cloudwatch.Stats.SUM }),
        a.functionThrottles,
        `Lambda function "${name}" had invocations throttled (no concurrency left) in the last ${a.periodMinutes} minutes.`,
        'functionThrottles',
      );
    }

    // --- Queues: every queue's oldest message, every dead-letter queue not empty -----------------
    const queueEntries: [QueueKey, sqs.IQueue][] = [
      ...(Object.entries(props.queues) as [QueueName, sqs.IQueue][]),
      ...(props.scheduleFailureQueue ? [[SCHEDULE_FAILURE_QUEUE, props.scheduleFailureQueue] as [QueueKey, sqs.IQueue]] : []),
    ];
    const queueAlarms: Partial<Record<QueueKey, QueueAlarms>> = {};
    for (const [key, queue] of queueEntries) {
      const given = existing.queues?.[key];
      const dead = isDeadLetterQueue(key);
      const notEmpty = dead
        ? (given?.notEmpty ??
          alarm(
            `Queue-${key}-NotEmpty`,
            queue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, statistic: cloudwatch.Stats.MAXIMUM }),
            0,
            `Dead-letter queue "${key}" has messages: work that failed every attempt waits there for an operator.`,
            'deadLetterNotEmpty',
          ))
        : undefined;
      const oldestMessage =
        given?.oldestMessage ??
        alarm(
          `Queue-${key}-OldestMessage`,
          queue.metricApproximateAgeOfOldestMessage({ period: alarmPeriod, statistic: cloudwatch.Stats.MAXIMUM }),
          dead ? a.deadLetterOldestMessageSeconds : WORK_QUEUE_AGE_SECONDS[key as WorkQueueName],
          dead
            ? `The oldest message of dead-letter queue "${key}" is older than ${a.deadLetterOldestMessageSeconds / 86400} days: replay or remove it before SQS deletes it.`
            : `The oldest message of queue "${key}" waits longer than ${WORK_QUEUE_AGE_SECONDS[key as WorkQueueName]} s: its consumer is failing, throttled or disabled.`,
          dead ? 'deadLetterOldestMessage' : 'queueOldestMessage',
        );
      queueAlarms[key] = { ...(notEmpty ? { notEmpty } : {}), oldestMessage };
    }

    // --- Table stream consumers ---------------------------------------------------------------------
    const streamConsumers = CONSUMERS.filter((row) => row.kind === 'stream').map((row) => row.name);
    const streams: Record<string, cloudwatch.Alarm> = {};
    for (const name of streamConsumers) {
      const fn = props.functions[name];
      if (!fn) throw new Error(`stream consumer ${name} has no function`);
      streams[name] =
        existing.streams?.[name] ??
        alarm(
          `IteratorAge-${name}`,
          fn.metric('IteratorAge', { period: alarmPeriod, statistic: cloudwatch.Stats.MAXIMUM }),
          a.streamIteratorAgeMs,
          `Stream consumer "${name}" is more than ${a.streamIteratorAgeMs / 60000} minutes behind the table stream (records are trimmed after 24 h).`,
          'streamIteratorAge',
        );
    }

    // --- Workflows ----------------------------------------------------------------------------------
    const stateMachines = {} as Record<WorkflowName, cloudwatch.Alarm>;
    for (const workflow of Object.keys(WORKFLOWS) as WorkflowName[]) {
      const machine = props.stateMachines[workflow];
      stateMachines[workflow] =
        existing.stateMachines?.[workflow] ??
        alarm(
          `Workflow-${workflow}-Failures`,
          sumOf(`${workflow} failed, timed out or aborted`, {
            failed: machine.metricFailed({ statistic: cloudwatch.Stats.SUM }),
            timedOut: machine.metricTimedOut({ statistic: cloudwatch.Stats.SUM }),
            aborted: machine.metricAborted({ statistic: cloudwatch.Stats.SUM }),
          }),
          0,
          `Workflow "${workflow}": an execution failed, timed out or was aborted.`,
          'workflowFailures',
        );
    }

    // --- Schedules ----------------------------------------------------------------------------------
    const ruleMetric = (rule: events.IRule, metricName: string, period: Duration, label?: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/Events',
        metricName,
        dimensionsMap: { RuleName: rule.ruleName },
        statistic: cloudwatch.Stats.SUM,
        period,
        ...(label ? { label } : {}),
      });
    const schedules: Record<string, cloudwatch.Alarm> = {};
    for (const [name, rule] of Object.entries(props.schedules)) {
      schedules[name] = alarm(
        `Schedule-${name}-FailedInvocations`,
        ruleMetric(rule, 'FailedInvocations', alarmPeriod),
        a.scheduleFailedInvocations,
        `The schedule of "${name}" could not invoke its function (after EventBridge's retries; the event went to the schedule failure queue).`,
        'scheduleFailedInvocations',
      );
    }

    // --- Table --------------------------------------------------------------------------------------
    const tableMetric = (metricName: string, period: Duration, extra: Record<string, string> = {}, label?: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: table.tableName, ...extra },
        statistic: cloudwatch.Stats.SUM,
        period,
        ...(label ? { label } : {}),
      });
    const indexes = TABLE_SCHEMA.gsis.map((g) => g.indexName);
    const throttleEvents = (period: Duration): Record<string, cloudwatch.Metric> =>
      Object.fromEntries(
        [undefined, ...indexes].flatMap((index, i) =>
          (['Read', 'Write'] as const).map((kind) => [
            `${kind.toLowerCase()}${i}`,
            tableMetric(`${kind}ThrottleEvents`, period, index ? { GlobalSecondaryIndexName: index } : {}, `${kind.toLowerCase()} ${index ?? 'table'}`),
          ]),
        ),
      );
    const systemErrors = (period: Duration): Record<string, cloudwatch.Metric> =>
      Object.fromEntries(TABLE_OPERATIONS.map((op) => [`op${op}`, tableMetric('SystemErrors', period, { Operation: op }, op)]));
    const tableThrottling = alarm(
      'TableThrottlingAlarm',
      sumOf('read and write throttle events (table and indexes)', throttleEvents(alarmPeriod)),
      a.tableThrottleEvents,
      `DynamoDB throttled reads or writes of the table or an index in the last ${a.periodMinutes} minutes.`,
      'tableThrottling',
    );
    const tableSystemErrors = alarm(
      'TableSystemErrorsAlarm',
      sumOf('system errors', systemErrors(alarmPeriod)),
      a.tableSystemErrors,
      `DynamoDB answered requests of the platform with system errors (HTTP 500) in the last ${a.periodMinutes} minutes.`,
      'tableSystemErrors',
    );

    this.alarms = {
      api5xxRate,
      apiLatencyP99,
      functionErrors,
      functionThrottles,
      queues: queueAlarms,
      streams,
      stateMachines,
      schedules,
      tableThrottling,
      tableSystemErrors,
    };

    // --- Dashboard ----------------------------------------------------------------------------------
    // The alarm's own metric with its threshold line (an AlarmWidget would only carry the alarm ARN).
    const alarmGraph = (title: string, al: cloudwatch.Alarm, width = 6) =>
      new cloudwatch.GraphWidget({ title, left: [al.metric], leftAnnotations: [al.toAnnotation()], width });
    const header = (title: string) => new cloudwatch.TextWidget({ markdown: `## ${title}`, width: 24, height: 1 });
    const byCapability = <T>(entries: [string, T][], capabilityOf: (key: string) => Capability, capability: Capability) =>
      entries.filter(([key]) => capabilityOf(key) === capability);

    const functionWidgets = (fns: [string, lambda.IFunction][]): cloudwatch.IWidget[] => {
      if (fns.length === 0) return [];
      const lines = (make: (fn: lambda.IFunction, name: string) => cloudwatch.IMetric) => fns.map(([name, fn]) => make(fn, name));
      return [
        new cloudwatch.GraphWidget({ title: 'Errors', left: lines((fn, label) => fn.metricErrors({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label })), width: 6 }),
        new cloudwatch.GraphWidget({ title: 'Throttles', left: lines((fn, label) => fn.metricThrottles({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label })), width: 6 }),
        new cloudwatch.GraphWidget({ title: 'Duration p99 (ms)', left: lines((fn, label) => fn.metricDuration({ period: oneMinute, statistic: cloudwatch.Stats.p(99), label })), width: 6 }),
        new cloudwatch.GraphWidget({
          title: 'Concurrent executions',
          left: lines((fn, label) => fn.metric('ConcurrentExecutions', { period: oneMinute, statistic: cloudwatch.Stats.MAXIMUM, label })),
          width: 6,
        }),
      ];
    };
    const queueWidgets = (key: QueueKey, queue: sqs.IQueue): cloudwatch.IWidget[] => {
      const alarms = queueAlarms[key]!;
      return [
        new cloudwatch.GraphWidget({
          title: `Queue ${key}: depth`,
          left: [
            queue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, statistic: cloudwatch.Stats.MAXIMUM, label: 'visible' }),
            queue.metricApproximateNumberOfMessagesNotVisible({ period: oneMinute, statistic: cloudwatch.Stats.MAXIMUM, label: 'in flight / backoff' }),
          ],
          ...(alarms.notEmpty ? { leftAnnotations: [alarms.notEmpty.toAnnotation()] } : {}),
          width: 6,
        }),
        alarmGraph(`Queue ${key}: age of oldest message (s)`, alarms.oldestMessage),
      ];
    };
    const workflowWidgets = (workflow: WorkflowName): cloudwatch.IWidget[] => {
      const machine = props.stateMachines[workflow];
      return [
        new cloudwatch.GraphWidget({
          title: `Workflow ${workflow}: executions`,
          left: [
            machine.metricStarted({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label: 'started' }),
            machine.metricSucceeded({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label: 'succeeded' }),
            machine.metricFailed({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label: 'failed' }),
            machine.metricTimedOut({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label: 'timed out' }),
            machine.metricAborted({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label: 'aborted' }),
          ],
          width: 6,
        }),
        new cloudwatch.GraphWidget({
          title: `Workflow ${workflow}: duration (ms)`,
          left: [
            machine.metricTime({ period: oneMinute, statistic: cloudwatch.Stats.p(50), label: 'p50' }),
            machine.metricTime({ period: oneMinute, statistic: cloudwatch.Stats.p(99), label: 'p99' }),
          ],
          width: 6,
        }),
      ];
    };
    const scheduleWidget = (name: string, rule: events.IRule) =>
      new cloudwatch.GraphWidget({
        title: `Schedule ${name}: invocations`,
        left: [ruleMetric(rule, 'Invocations', oneMinute, 'invocations'), ruleMetric(rule, 'FailedInvocations', oneMinute, 'failed')],
        width: 6,
      });

    const apiWidgets: cloudwatch.IWidget[] = [
      new cloudwatch.GraphWidget({
        title: 'API requests and errors',
        left: [
          apiMetric('Count', cloudwatch.Stats.SUM, oneMinute, undefined, 'requests'),
          apiMetric('4xx', cloudwatch.Stats.SUM, oneMinute, undefined, '4xx'),
          apiMetric('5xx', cloudwatch.Stats.SUM, oneMinute, undefined, '5xx'),
        ],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'API latency (ms)',
        left: [apiMetric('Latency', cloudwatch.Stats.p(50), oneMinute, undefined, 'p50'), apiMetric('Latency', cloudwatch.Stats.p(99), oneMinute, undefined, 'p99')],
        leftAnnotations: [{ value: API_P99_LATENCY_THRESHOLD_MS, label: 'p99 alarm' }],
        width: 8,
      }),
      alarmGraph('API 5xx rate (5xx / Count)', api5xxRate, 8),
      ...DASHBOARD_ROUTES.map(
        (route) =>
          new cloudwatch.GraphWidget({
            title: route,
            left: [apiMetric('Latency', cloudwatch.Stats.p(50), oneMinute, route, 'latency p50'), apiMetric('Latency', cloudwatch.Stats.p(99), oneMinute, route, 'latency p99')],
            right: [apiMetric('5xx', cloudwatch.Stats.SUM, oneMinute, route, '5xx')],
            width: 6,
          }),
      ),
    ];

    const capabilityRow = (capability: Capability): cloudwatch.IWidget[] => [
      header(CAPABILITY_ROWS[capability]),
      ...(capability === 'api' ? apiWidgets : []),
      ...functionWidgets(byCapability(Object.entries(props.functions), functionCapability, capability)),
      ...byCapability(Object.entries(props.queues) as [QueueName, sqs.IQueue][], (k) => QUEUE_CAPABILITY[k as QueueName], capability).flatMap(([key, queue]) =>
        queueWidgets(key as QueueName, queue),
      ),
      ...byCapability(Object.entries(streams), functionCapability, capability).map(([name, al]) => alarmGraph(`${name}: IteratorAge (ms)`, al)),
      ...(Object.keys(WORKFLOWS) as WorkflowName[]).filter((w) => WORKFLOW_CAPABILITY[w] === capability).flatMap(workflowWidgets),
      ...byCapability(Object.entries(props.schedules), functionCapability, capability).map(([name, rule]) => scheduleWidget(name, rule)),
      ...businessMetricWidgets(capability),
    ];

    const sharedRow: cloudwatch.IWidget[] = [
      header(SHARED_ROW_TITLE),
      alarmGraph('Table: read and write throttle events', tableThrottling),
      new cloudwatch.GraphWidget({
        title: 'Table: throttled requests by operation',
        left: TABLE_OPERATIONS.map((op) => tableMetric('ThrottledRequests', oneMinute, { Operation: op }, op)),
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: 'Table: consumed capacity units',
        left: [tableMetric('ConsumedReadCapacityUnits', oneMinute, {}, 'read'), tableMetric('ConsumedWriteCapacityUnits', oneMinute, {}, 'write')],
        width: 6,
      }),
      alarmGraph('Table: system errors', tableSystemErrors),
      ...(props.scheduleFailureQueue ? queueWidgets(SCHEDULE_FAILURE_QUEUE, props.scheduleFailureQueue) : []),
    ];

    // Every alarm of the stack (the pipelines' own too); a status widget takes at most 100.
    const allAlarms = rootStackOf(this).node.findAll().filter((c): c is cloudwatch.Alarm => c instanceof cloudwatch.Alarm);
    const statusWidgets: cloudwatch.IWidget[] = [];
    for (let i = 0; i < allAlarms.length; i += 100) {
      statusWidgets.push(new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: allAlarms.slice(i, i + 100), width: 24, height: 6 }));
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: DASHBOARD_NAME,
      defaultInterval: Duration.hours(3),
      widgets: [statusWidgets, ...(Object.keys(CAPABILITY_ROWS) as Capability[]).map(capabilityRow), sharedRow],
    });
  }
}

/** The stack at the top (every alarm of the platform is below it, nested stacks included). */
function rootStackOf(scope: Construct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}
