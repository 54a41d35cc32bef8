import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Capability } from '../../../shared/platform/observability/metric-catalog';
import type { QueueName } from '../../../shared/platform/ports/queue';
import { WORKFLOWS, type WorkflowName } from '../../../shared/platform/ports/workflows';
import type { Api } from './api';
import { businessMetricWidgets } from './business-metric-widgets';
import { CAPABILITY_ROWS, functionCapability, QUEUE_CAPABILITY, SHARED_ROW_TITLE, WORKFLOW_CAPABILITY } from './dashboard-rows';
import {
  API_P99_LATENCY_THRESHOLD_MS,
  apiMetric,
  type QueueAlarms,
  type QueueKey,
  ruleMetric,
  SCHEDULE_FAILURE_QUEUE,
  TABLE_OPERATIONS,
  tableMetric,
} from './platform-alarms';

const ONE_MINUTE = Duration.minutes(1);

/** What the dashboard shows: the running things and the alarms built on them. */
/** Everything that runs, as the dashboard and the alarms watch it. */
export interface ObservedResources {
  readonly api: Api;
  readonly table: dynamodb.ITable;
  /** Every function of the stack by its name (area, `webhook-fanout`, ...). */
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  /** Every declared queue (`shared/platform/ports/queue.ts`). */
  readonly queues: Readonly<Record<QueueName, sqs.IQueue>>;
  /** The failure queue of the scheduled consumers, when the consumer table has a schedule row. */
  readonly scheduleFailureQueue?: sqs.IQueue;
  /** Every workflow's state machine (`shared/platform/ports/workflows.ts`). */
  readonly stateMachines: Readonly<Record<WorkflowName, sfn.IStateMachine>>;
  /** The EventBridge rule of every schedule row, by consumer name. */
  readonly schedules: Readonly<Record<string, events.IRule>>;
}

export interface DashboardSources extends ObservedResources {
  /** The busiest routes' keys (their own latency/5xx widget). */
  readonly routes: readonly string[];
  readonly alarms: {
    readonly api5xxRate: cloudwatch.Alarm;
    readonly queues: Readonly<Partial<Record<QueueKey, QueueAlarms>>>;
    readonly streams: Readonly<Record<string, cloudwatch.Alarm>>;
    readonly tableThrottling: cloudwatch.Alarm;
    readonly tableSystemErrors: cloudwatch.Alarm;
  };
}

/** The alarm's own metric with its threshold line (an AlarmWidget would only carry the alarm ARN). */
const alarmGraph = (title: string, al: cloudwatch.Alarm, width = 6) =>
  new cloudwatch.GraphWidget({ title, left: [al.metric], leftAnnotations: [al.toAnnotation()], width });
const header = (title: string) => new cloudwatch.TextWidget({ markdown: `## ${title}`, width: 24, height: 1 });
const byCapability = <T>(entries: [string, T][], capabilityOf: (key: string) => Capability, capability: Capability) =>
  entries.filter(([key]) => capabilityOf(key) === capability);

/**
 * The widgets of the operators' dashboard: the state of every alarm on top, then one row per
 * capability (`dashboard-rows.ts`), then the shared row (the table, the failure queue of scheduled runs).
 */
export class DashboardWidgets {
  constructor(private readonly s: DashboardSources) {}

  /** Rows top to bottom; `allAlarms` are every alarm of the platform (a status widget takes at most 100). */
  rows(allAlarms: readonly cloudwatch.Alarm[]): cloudwatch.IWidget[][] {
    const statusWidgets: cloudwatch.IWidget[] = [];
    for (let i = 0; i < allAlarms.length; i += 100) {
      statusWidgets.push(new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: allAlarms.slice(i, i + 100), width: 24, height: 6 }));
    }
    return [statusWidgets, ...(Object.keys(CAPABILITY_ROWS) as Capability[]).map((c) => this.capabilityRow(c)), this.sharedRow()];
  }

  private capabilityRow(capability: Capability): cloudwatch.IWidget[] {
    const { s } = this;
    return [
      header(CAPABILITY_ROWS[capability]),
      ...(capability === 'api' ? this.apiWidgets() : []),
      ...this.functionWidgets(byCapability(Object.entries(s.functions), functionCapability, capability)),
      ...byCapability(Object.entries(s.queues) as [QueueName, sqs.IQueue][], (k) => QUEUE_CAPABILITY[k as QueueName], capability).flatMap(([key, queue]) =>
        this.queueWidgets(key as QueueName, queue),
      ),
      ...byCapability(Object.entries(s.alarms.streams), functionCapability, capability).map(([name, al]) => alarmGraph(`${name}: IteratorAge (ms)`, al)),
      ...(Object.keys(WORKFLOWS) as WorkflowName[]).filter((w) => WORKFLOW_CAPABILITY[w] === capability).flatMap((w) => this.workflowWidgets(w)),
      ...byCapability(Object.entries(s.schedules), functionCapability, capability).map(([name, rule]) => this.scheduleWidget(name, rule)),
      ...businessMetricWidgets(capability),
    ];
  }

  private sharedRow(): cloudwatch.IWidget[] {
    const { table, alarms, scheduleFailureQueue } = this.s;
    return [
      header(SHARED_ROW_TITLE),
      alarmGraph('Table: read and write throttle events', alarms.tableThrottling),
      new cloudwatch.GraphWidget({
        title: 'Table: throttled requests by operation',
        left: TABLE_OPERATIONS.map((op) => tableMetric(table, 'ThrottledRequests', ONE_MINUTE, { Operation: op }, op)),
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: 'Table: consumed capacity units',
        left: [
          tableMetric(table, 'ConsumedReadCapacityUnits', ONE_MINUTE, {}, 'read'),
          tableMetric(table, 'ConsumedWriteCapacityUnits', ONE_MINUTE, {}, 'write'),
        ],
        width: 6,
      }),
      alarmGraph('Table: system errors', alarms.tableSystemErrors),
      ...(scheduleFailureQueue ? this.queueWidgets(SCHEDULE_FAILURE_QUEUE, scheduleFailureQueue) : []),
    ];
  }

  private apiWidgets(): cloudwatch.IWidget[] {
    const metric = (name: string, stat: string, route?: string, label?: string) => apiMetric(this.s.api, name, stat, ONE_MINUTE, route, label);
    return [
      new cloudwatch.GraphWidget({
        title: 'API requests and errors',
        left: [
          metric('Count', cloudwatch.Stats.SUM, undefined, 'requests'),
          metric('4xx', cloudwatch.Stats.SUM, undefined, '4xx'),
          metric('5xx', cloudwatch.Stats.SUM, undefined, '5xx'),
        ],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'API latency (ms)',
        left: [metric('Latency', cloudwatch.Stats.p(50), undefined, 'p50'), metric('Latency', cloudwatch.Stats.p(99), undefined, 'p99')],
        leftAnnotations: [{ value: API_P99_LATENCY_THRESHOLD_MS, label: 'p99 alarm' }],
        width: 8,
      }),
      alarmGraph('API 5xx rate (5xx / Count)', this.s.alarms.api5xxRate, 8),
      ...this.s.routes.map(
        (route) =>
          new cloudwatch.GraphWidget({
            title: route,
            left: [metric('Latency', cloudwatch.Stats.p(50), route, 'latency p50'), metric('Latency', cloudwatch.Stats.p(99), route, 'latency p99')],
            right: [metric('5xx', cloudwatch.Stats.SUM, route, '5xx')],
            width: 6,
          }),
      ),
    ];
  }

  private functionWidgets(fns: [string, lambda.IFunction][]): cloudwatch.IWidget[] {
    if (fns.length === 0) return [];
    const lines = (make: (fn: lambda.IFunction, name: string) => cloudwatch.IMetric) => fns.map(([name, fn]) => make(fn, name));
    return [
      new cloudwatch.GraphWidget({
        title: 'Errors',
        left: lines((fn, label) => fn.metricErrors({ period: ONE_MINUTE, statistic: cloudwatch.Stats.SUM, label })),
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: 'Throttles',
        left: lines((fn, label) => fn.metricThrottles({ period: ONE_MINUTE, statistic: cloudwatch.Stats.SUM, label })),
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: 'Duration p99 (ms)',
        left: lines((fn, label) => fn.metricDuration({ period: ONE_MINUTE, statistic: cloudwatch.Stats.p(99), label })),
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: 'Concurrent executions',
        left: lines((fn, label) => fn.metric('ConcurrentExecutions', { period: ONE_MINUTE, statistic: cloudwatch.Stats.MAXIMUM, label })),
        width: 6,
      }),
    ];
  }

  private queueWidgets(key: QueueKey, queue: sqs.IQueue): cloudwatch.IWidget[] {
    const alarms = this.s.alarms.queues[key]!;
    return [
      new cloudwatch.GraphWidget({
        title: `Queue ${key}: depth`,
        left: [
          queue.metricApproximateNumberOfMessagesVisible({ period: ONE_MINUTE, statistic: cloudwatch.Stats.MAXIMUM, label: 'visible' }),
          queue.metricApproximateNumberOfMessagesNotVisible({ period: ONE_MINUTE, statistic: cloudwatch.Stats.MAXIMUM, label: 'in flight / backoff' }),
        ],
        ...(alarms.notEmpty ? { leftAnnotations: [alarms.notEmpty.toAnnotation()] } : {}),
        width: 6,
      }),
      alarmGraph(`Queue ${key}: age of oldest message (s)`, alarms.oldestMessage),
    ];
  }

  private workflowWidgets(workflow: WorkflowName): cloudwatch.IWidget[] {
    const machine = this.s.stateMachines[workflow];
    const sum = (label: string) => ({ period: ONE_MINUTE, statistic: cloudwatch.Stats.SUM, label });
    return [
      new cloudwatch.GraphWidget({
        title: `Workflow ${workflow}: executions`,
        left: [
          machine.metricStarted(sum('started')),
          machine.metricSucceeded(sum('succeeded')),
          machine.metricFailed(sum('failed')),
          machine.metricTimedOut(sum('timed out')),
          machine.metricAborted(sum('aborted')),
        ],
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: `Workflow ${workflow}: duration (ms)`,
        left: [
          machine.metricTime({ period: ONE_MINUTE, statistic: cloudwatch.Stats.p(50), label: 'p50' }),
          machine.metricTime({ period: ONE_MINUTE, statistic: cloudwatch.Stats.p(99), label: 'p99' }),
        ],
        width: 6,
      }),
    ];
  }

  private scheduleWidget(name: string, rule: events.IRule): cloudwatch.IWidget {
    return new cloudwatch.GraphWidget({
      title: `Schedule ${name}: invocations`,
      left: [ruleMetric(rule, 'Invocations', ONE_MINUTE, 'invocations'), ruleMetric(rule, 'FailedInvocations', ONE_MINUTE, 'failed')],
      width: 6,
    });
  }
}
