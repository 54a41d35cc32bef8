import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { routeKey, routes } from '../../shared/contracts/index';
import type { Api } from './api';
import type { Webhooks } from './webhooks';

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

/** Alarm thresholds (operators wire the actions). */
export const API_5XX_RATE_THRESHOLD = 0.01;
export const API_P99_LATENCY_THRESHOLD_MS = 3000;

export interface ObservabilityProps {
  readonly api: Api;
  /** Every function of the stack by its name (area, `webhook-fanout`, ...): errors alarm and dashboard lines. */
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  /** The webhook pipeline: queues and its three alarms are shown on the dashboard. */
  readonly webhooks: Webhooks;
}

/**
 * Operators' CloudWatch dashboard and alarms: API 4xx/5xx/latency
 * (whole API and the busiest routes), Lambda errors/throttles/duration per function, webhook queue
 * depth/age, DLQ depth and fan-out IteratorAge. Alarms have no actions: operators wire SNS or chat.
 */
export class Observability extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: {
    /** 5xx / Count of the whole API > 1 % over 5 minutes. */
    readonly api5xxRate: cloudwatch.Alarm;
    /** p99 latency of the whole API > 3 s over 15 minutes. */
    readonly apiLatencyP99: cloudwatch.Alarm;
    /** Function name -> Errors > 0 over 5 minutes. */
    readonly functionErrors: Readonly<Record<string, cloudwatch.Alarm>>;
  };

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { api, webhooks } = props;
    for (const key of DASHBOARD_ROUTES) {
      if (!api.routes.has(key)) throw new Error(`Dashboard route "${key}" is not in the route table`);
    }

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
    const fiveMinutes = Duration.minutes(5);

    // --- Alarms ---------------------------------------------------------------------------------
    const api5xxRate = new cloudwatch.MathExpression({
      expression: 'errors / requests',
      usingMetrics: {
        errors: apiMetric('5xx', cloudwatch.Stats.SUM, fiveMinutes),
        requests: apiMetric('Count', cloudwatch.Stats.SUM, fiveMinutes),
      },
      period: fiveMinutes,
      label: '5xx rate',
    });
    const functionErrors: Record<string, cloudwatch.Alarm> = {};
    for (const [name, fn] of Object.entries(props.functions)) {
      functionErrors[name] = new cloudwatch.Alarm(this, `Errors-${name}`, {
        alarmDescription: `Lambda function "${name}" reported errors (uncaught exceptions, timeouts) in the last 5 minutes.`,
        metric: fn.metricErrors({ period: fiveMinutes, statistic: cloudwatch.Stats.SUM }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
    this.alarms = {
      // No requests in a period: no data point (0/0), treated as not breaching.
      api5xxRate: new cloudwatch.Alarm(this, 'Api5xxRateAlarm', {
        alarmDescription: 'More than 1 % of API requests answered 5xx over 5 minutes. Check the function errors and the access log.',
        metric: api5xxRate,
        threshold: API_5XX_RATE_THRESHOLD,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      apiLatencyP99: new cloudwatch.Alarm(this, 'ApiLatencyP99Alarm', {
        alarmDescription: 'API p99 latency above 3 s over 15 minutes.',
        metric: apiMetric('Latency', cloudwatch.Stats.p(99), Duration.minutes(15)),
        threshold: API_P99_LATENCY_THRESHOLD_MS,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      functionErrors,
    };

    // --- Dashboard ------------------------------------------------------------------------------
    const oneMinute = Duration.minutes(1);
    const fnLines = (make: (fn: lambda.IFunction, name: string) => cloudwatch.IMetric) =>
      Object.entries(props.functions).map(([name, fn]) => make(fn, name));
    // The alarm's own metric with its threshold line (an AlarmWidget would only carry the alarm ARN).
    const alarmGraph = (title: string, alarm: cloudwatch.Alarm, width: number) =>
      new cloudwatch.GraphWidget({ title, left: [alarm.metric], leftAnnotations: [alarm.toAnnotation()], width });
    const allAlarms: cloudwatch.IAlarm[] = [
      this.alarms.api5xxRate,
      this.alarms.apiLatencyP99,
      webhooks.alarms.deadLetters,
      webhooks.alarms.deliveryAge,
      webhooks.alarms.fanoutIteratorAge,
      ...Object.values(functionErrors),
    ];

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: DASHBOARD_NAME,
      defaultInterval: Duration.hours(3),
      widgets: [
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: allAlarms, width: 24, height: 4 })],
        [
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
            left: [
              apiMetric('Latency', cloudwatch.Stats.p(50), oneMinute, undefined, 'p50'),
              apiMetric('Latency', cloudwatch.Stats.p(99), oneMinute, undefined, 'p99'),
            ],
            leftAnnotations: [{ value: API_P99_LATENCY_THRESHOLD_MS, label: 'p99 alarm' }],
            width: 8,
          }),
          alarmGraph('API 5xx rate (5xx / Count)', this.alarms.api5xxRate, 8),
        ],
        DASHBOARD_ROUTES.map(
          (route) =>
            new cloudwatch.GraphWidget({
              title: route,
              left: [
                apiMetric('Latency', cloudwatch.Stats.p(50), oneMinute, route, 'latency p50'),
                apiMetric('Latency', cloudwatch.Stats.p(99), oneMinute, route, 'latency p99'),
              ],
              right: [apiMetric('5xx', cloudwatch.Stats.SUM, oneMinute, route, '5xx')],
              width: 6,
            }),
        ),
        [
          new cloudwatch.GraphWidget({
            title: 'Lambda errors',
            left: fnLines((fn, name) => fn.metricErrors({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label: name })),
            width: 8,
          }),
          new cloudwatch.GraphWidget({
            title: 'Lambda throttles',
            left: fnLines((fn, name) => fn.metricThrottles({ period: oneMinute, statistic: cloudwatch.Stats.SUM, label: name })),
            width: 8,
          }),
          new cloudwatch.GraphWidget({
            title: 'Lambda duration p99 (ms)',
            left: fnLines((fn, name) => fn.metricDuration({ period: oneMinute, statistic: cloudwatch.Stats.p(99), label: name })),
            width: 8,
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Webhook queues: depth',
            left: [
              webhooks.deliveryQueue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, statistic: cloudwatch.Stats.MAXIMUM, label: 'delivery queue visible' }),
              webhooks.deliveryQueue.metricApproximateNumberOfMessagesNotVisible({ period: oneMinute, statistic: cloudwatch.Stats.MAXIMUM, label: 'delivery queue in flight / backoff' }),
              webhooks.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, statistic: cloudwatch.Stats.MAXIMUM, label: 'DLQ visible' }),
            ],
            width: 6,
          }),
          alarmGraph('Delivery queue: age of oldest message (s)', webhooks.alarms.deliveryAge, 6),
          alarmGraph('DLQ depth', webhooks.alarms.deadLetters, 6),
          alarmGraph('Fan-out IteratorAge (ms)', webhooks.alarms.fanoutIteratorAge, 6),
        ],
      ],
    });
  }
}
