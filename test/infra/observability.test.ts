import { type CfnElement, Stack } from 'aws-cdk-lib';
import { CONSUMERS } from '../../shared/platform/consumers/table';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_5XX_RATE_THRESHOLD, API_P99_LATENCY_THRESHOLD_MS, DASHBOARD_NAME, DASHBOARD_ROUTES } from '../../infra/app/constructs/observability';
import { DEAD_LETTER_QUEUE_LOGICAL_ID, DELIVERY_QUEUE_LOGICAL_ID } from '../../infra/app/constructs/webhooks';
import { AREAS } from '../../shared/http/declarations';
import type { LoyaltyPlatformStack } from '../../infra/app/stack';
import { synthesizedApp } from '../support/synthesized-app';
import { platformFunctions } from './templates';

type Resource = { Type: string; Properties?: Record<string, any> };
type MetricDataQuery = {
  Id: string;
  Expression?: string;
  MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] }; Stat: string; Period: number };
  ReturnData?: boolean;
};

let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;
let dashboardBody: string;

beforeAll(() => {
  // The dashboard and alarms do not depend on the functions' code: no bundling. Its synthesis ran
  // the cdk-nag validation plugin: it threw on an unacknowledged finding.
  ({ stack, resources } = synthesizedApp());
  const dashboards = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
  expect(dashboards).toHaveLength(1);
  expect(dashboards[0]!.Properties?.DashboardName).toBe(DASHBOARD_NAME);
  // Fn::Join of literal JSON fragments and Refs/GetAtts; the stringified form holds both.
  dashboardBody = JSON.stringify(dashboards[0]!.Properties?.DashboardBody);
});

const logicalId = (c: IConstruct): string => Stack.of(stack).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
const ref = (id: string): string => JSON.stringify({ Ref: id });
const alarms = (): [string, Resource][] => Object.entries(resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');

/** Every function of the stack: the area functions and the webhook pipeline. */
const allFunctions = () => [
  ...AREAS.map((area) => ({ name: area as string, fn: stack.areaFunctions.functions[area] })),
  { name: 'webhook-fanout', fn: stack.pipelines.fanout },
  { name: 'webhook-worker', fn: stack.pipelines.worker },
  { name: 'webhook-dlq', fn: stack.pipelines.deadLetterConsumer },
  // Data exports: the other rows of the consumer table.
  ...CONSUMERS.filter((c) => !c.name.startsWith('webhook-')).map((c) => ({ name: c.name as string, fn: stack.consumerFunctions[c.name]! })),
];

describe('dashboard', () => {
  it('references every function (errors, throttles, duration) by name', () => {
    const lambdaFunctions = platformFunctions(resources);
    expect(allFunctions()).toHaveLength(lambdaFunctions.length);
    for (const { fn } of allFunctions()) {
      expect(dashboardBody, logicalId(fn)).toContain(ref(logicalId(fn)));
    }
    for (const metric of ['Errors', 'Throttles', 'Duration']) {
      expect(dashboardBody).toContain(`\\"AWS/Lambda\\",\\"${metric}\\"`);
    }
  });

  it('shows both webhook queues, the age of the oldest delivery and the fan-out IteratorAge', () => {
    const queueName = (id: string) => JSON.stringify({ 'Fn::GetAtt': [id, 'QueueName'] });
    expect(dashboardBody).toContain(queueName(DELIVERY_QUEUE_LOGICAL_ID));
    expect(dashboardBody).toContain(queueName(DEAD_LETTER_QUEUE_LOGICAL_ID));
    for (const metric of ['ApproximateNumberOfMessagesVisible', 'ApproximateAgeOfOldestMessage', 'IteratorAge']) {
      expect(dashboardBody).toContain(metric);
    }
    for (const alarm of Object.values(stack.pipelines.webhookAlarms)) {
      expect(dashboardBody).toContain(JSON.stringify({ 'Fn::GetAtt': [logicalId(alarm), 'Arn'] }));
    }
  });

  it('shows API 4xx, 5xx, count and latency p50/p99, overall and for the busiest routes', () => {
    expect(dashboardBody).toContain(ref(logicalId(stack.api.httpApi)));
    for (const metric of ['4xx', '5xx', 'Count', 'Latency']) {
      expect(dashboardBody).toContain(`\\"AWS/ApiGateway\\",\\"${metric}\\"`);
    }
    expect(dashboardBody).toContain('\\"stat\\":\\"p50\\"');
    expect(dashboardBody).toContain('\\"stat\\":\\"p99\\"');
    for (const route of DASHBOARD_ROUTES) {
      expect(stack.api.routes.has(route), route).toBe(true);
      expect(dashboardBody).toContain(`\\"Route\\",\\"${route}\\"`);
    }
  });
});

describe('alarms', () => {
  it('API 5xx rate: math expression 5xx / Count over 5 minutes, threshold 1 %', () => {
    const alarm = resources[logicalId(stack.observability.alarms.api5xxRate)]!.Properties!;
    expect(alarm.Threshold).toBe(API_5XX_RATE_THRESHOLD);
    expect(API_5XX_RATE_THRESHOLD).toBe(0.01);
    expect(alarm.ComparisonOperator).toBe('GreaterThanThreshold');
    const queries = alarm.Metrics as MetricDataQuery[];
    const expr = queries.find((q) => q.Expression);
    expect(expr?.Expression).toBe('errors / requests');
    expect(expr?.ReturnData ?? true).toBe(true);
    const stat = (id: string) => queries.find((q) => q.Id === id)?.MetricStat;
    expect(stat('errors')?.Metric.MetricName).toBe('5xx');
    expect(stat('requests')?.Metric.MetricName).toBe('Count');
    for (const id of ['errors', 'requests']) {
      const s = stat(id)!;
      expect(s.Metric.Namespace).toBe('AWS/ApiGateway');
      expect(s.Stat).toBe('Sum');
      expect(s.Period).toBe(300);
      const dims = Object.fromEntries(s.Metric.Dimensions!.map((d) => [d.Name, d.Value]));
      expect(dims).toEqual({ ApiId: { Ref: logicalId(stack.api.httpApi) }, Stage: '$default' });
    }
  });

  it('API p99 latency > 3 s over 15 minutes', () => {
    const alarm = resources[logicalId(stack.observability.alarms.apiLatencyP99)]!.Properties!;
    expect(alarm).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Period: 900,
      EvaluationPeriods: 1,
      Threshold: API_P99_LATENCY_THRESHOLD_MS,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(API_P99_LATENCY_THRESHOLD_MS).toBe(3000);
  });

  it('every function has an errors alarm (Errors > 0, Sum over 5 minutes)', () => {
    const errorAlarms = alarms().filter(([, a]) => a.Properties?.Namespace === 'AWS/Lambda' && a.Properties?.MetricName === 'Errors');
    expect(errorAlarms).toHaveLength(allFunctions().length);
    for (const { name, fn } of allFunctions()) {
      const alarm = stack.observability.alarms.functionErrors[name];
      expect(alarm, name).toBeDefined();
      expect(resources[logicalId(alarm!)]!.Properties).toMatchObject({
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(fn) } }],
        Statistic: 'Sum',
        Period: 300,
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('notify the one alarm topic on ALARM and on OK', () => {
    const topic = { Ref: logicalId(stack.alarmTopic.topic) };
    for (const [id, a] of alarms()) {
      expect(a.Properties?.AlarmActions, id).toEqual([topic]);
      expect(a.Properties?.OKActions, id).toEqual([topic]);
    }
  });
});

describe('size', () => {
  it('adds the dashboard and at most two alarms per running thing, and keeps the stack far below the CloudFormation limit', () => {
    const own = Object.keys(resources).filter((id) => id.startsWith('Observability'));
    expect(own.length).toBeGreaterThan(0);
    const queues = Object.values(resources).filter((r) => r.Type === 'AWS::SQS::Queue').length;
    const others = ['AWS::StepFunctions::StateMachine', 'AWS::Events::Rule'].map((t) => Object.values(resources).filter((r) => r.Type === t).length);
    const streams = CONSUMERS.filter((c) => c.kind === 'stream').length;
    // Dashboard, API 5xx and latency, table throttling and system errors.
    const fixed = 1 + 2 + 2;
    expect(own.length).toBeLessThanOrEqual(fixed + 2 * allFunctions().length + 2 * queues + streams + others.reduce((a, b) => a + b, 0));
    // The limit holds per template: the root's and each nested stack's (test/infra/stacks.test.ts holds each to 60 %).
    const { templates } = synthesizedApp();
    for (const t of [templates.root, ...Object.values(templates.nested)]) expect(Object.keys(t.Resources).length).toBeLessThan(400);
  });
});
