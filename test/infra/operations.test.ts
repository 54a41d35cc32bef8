import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_SECRETS_KEY_LOGICAL_ID } from '../../infra/app/constructs/signing-secrets-key';
import {
  AREA_CAPABILITY,
  CAPABILITY_ROWS,
  CONSUMER_CAPABILITY,
  QUEUE_CAPABILITY,
  SHARED_ROW_TITLE,
  WORKFLOW_CAPABILITY,
} from '../../infra/app/constructs/dashboard-rows';
import { isDeadLetterQueue, SCHEDULE_FAILURE_QUEUE, TABLE_OPERATIONS } from '../../infra/app/constructs/observability';
import { PROJECT_ROOT } from '../../infra/app/constructs/platform-function';
import { RUNBOOK_FILE, RUNBOOK_SECTIONS } from '../../infra/app/constructs/runbook';
import { TABLE_LOGICAL_ID } from '../../infra/app/constructs/data';
import { buildApp, type LoyaltyPlatformStack } from '../../infra/app/stack';
import { synthesizedApp } from '../support/synthesized-app';
import { alarmEmailOf, config } from '../../shared/platform/config';
import { CONSUMERS } from '../../shared/platform/consumers/table';
import { AREAS } from '../../shared/http/declarations';
import { TABLE_SCHEMA } from '../../shared/platform/data/table-schema';
import { type BusinessMetric, businessMetrics, type Capability, METRICS_NAMESPACE, METRICS_SERVICE } from '../../shared/platform/observability/metric-catalog';
import { QUEUES, type QueueName } from '../../shared/platform/ports/queue';
import { WORKFLOWS, type WorkflowName } from '../../shared/platform/ports/workflows';
import { platformFunctions } from './templates';

/**
 * The operators' view of the stack: what runs (derived from the area declarations, the consumer
 * table, the queue and workflow declarations and the metric catalog) has its dashboard widgets in
 * its capability row and its alarms; every alarm notifies the one topic and links its runbook
 * section. Bundling is skipped: none of this depends on the functions' code.
 */

type Resource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string };
type MetricArray = unknown[];
type Widget = { type: string; x: number; y: number; width: number; height: number; properties: { title?: string; markdown?: string; metrics?: MetricArray[] } };

const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [] };
let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;
let widgets: Widget[];

/** The dashboard body with every Ref/GetAtt written as `@Ref:<id>` / `@GetAtt:<id>.<attr>`, parsed. */
function dashboardWidgets(body: unknown): Widget[] {
  const join = (body as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  const text = join[1]
    .map((part) => {
      if (typeof part === 'string') return part;
      const p = part as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
      if (p.Ref) return `@Ref:${p.Ref}`;
      if (p['Fn::GetAtt']) return `@GetAtt:${p['Fn::GetAtt'].join('.')}`;
      throw new Error(`unexpected token in the dashboard body: ${JSON.stringify(part)}`);
    })
    .join('');
  return (JSON.parse(text) as { widgets: Widget[] }).widgets;
}

beforeAll(() => {
  ({ stack, resources } = synthesizedApp());
  const dashboards = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
  expect(dashboards).toHaveLength(1);
  widgets = dashboardWidgets(dashboards[0]!.Properties!.DashboardBody);
});

const logicalId = (c: IConstruct): string => Stack.of(stack).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const alarms = () => ofType('AWS::CloudWatch::Alarm');

/** Rows of the dashboard: each starts with a `## <title>` text widget, below it until the next. */
function rowOf(title: string): Widget[] {
  const headers = widgets.filter((w) => w.type === 'text' && w.properties.markdown?.startsWith('## ')).sort((a, b) => a.y - b.y);
  const start = headers.find((h) => h.properties.markdown === `## ${title}`);
  expect(start, `row "${title}"`).toBeDefined();
  const next = headers.find((h) => h.y > start!.y);
  return widgets.filter((w) => w.type === 'metric' && w.y > start!.y && (next === undefined || w.y < next.y));
}

/** Widgets of the row with a metric `namespace/metricName` whose dimensions include `token`. */
const graphing = (row: Widget[], namespace: string, metricName: string, token: string) =>
  row.filter((w) => (w.properties.metrics ?? []).some((m) => m[0] === namespace && m[1] === metricName && m.includes(token)));

/** Alarm resources on `namespace/metricName` (plain or inside a math expression) with `token` as a dimension value. */
function alarmsOn(namespace: string, metricName: string, token: unknown): [string, Resource][] {
  const tokenJson = JSON.stringify(token);
  return alarms().filter(([, a]) => {
    const p = a.Properties!;
    const stats = p.Metrics
      ? (p.Metrics as { MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: { Value: unknown }[] } } }[])
          .filter((q) => q.MetricStat)
          .map((q) => ({ Namespace: q.MetricStat!.Metric.Namespace, MetricName: q.MetricStat!.Metric.MetricName, Dimensions: q.MetricStat!.Metric.Dimensions }))
      : [{ Namespace: p.Namespace, MetricName: p.MetricName, Dimensions: p.Dimensions }];
    return stats.some(
      (s) =>
        s.Namespace === namespace && s.MetricName === metricName && (s.Dimensions ?? []).some((d: { Value: unknown }) => JSON.stringify(d.Value) === tokenJson),
    );
  });
}

const capabilityTitle = (c: Capability) => CAPABILITY_ROWS[c];

/** Every function the declarations say should run, with its row. */
const expectedFunctions = (): { name: string; capability: Capability; id: string }[] => [
  ...AREAS.map((area) => ({ name: area as string, capability: AREA_CAPABILITY[area], id: logicalId(stack.areaFunctions.functions[area]) })),
  ...CONSUMERS.map((row) => ({ name: row.name as string, capability: CONSUMER_CAPABILITY[row.name], id: logicalId(stack.consumerFunctions[row.name]!) })),
];

/** Every queue: the declared ones and, with a schedule row, the failure queue of scheduled runs. */
const expectedQueues = (): { key: string; title: string; id: string; deadLetter: boolean }[] => [
  ...(Object.keys(QUEUES) as QueueName[]).map((key) => ({
    key: key as string,
    title: capabilityTitle(QUEUE_CAPABILITY[key]),
    id: logicalId(stack.queues[key]),
    deadLetter: isDeadLetterQueue(key),
  })),
  ...(CONSUMERS.some((row) => row.kind === 'schedule')
    ? [{ key: SCHEDULE_FAILURE_QUEUE, title: SHARED_ROW_TITLE, id: logicalId(stack.webhooks.scheduleFailureQueueIfAny!), deadLetter: true }]
    : []),
];

describe('dashboard', () => {
  it('has one row per capability of the metric catalog, in order, and the shared row last', () => {
    const headers = widgets
      .filter((w) => w.type === 'text')
      .sort((a, b) => a.y - b.y)
      .map((w) => w.properties.markdown);
    expect(headers).toEqual([...Object.values(CAPABILITY_ROWS), SHARED_ROW_TITLE].map((t) => `## ${t}`));
    // Every capability a metric names has a row (the record is typed; this keeps the catalog honest).
    for (const m of Object.values(businessMetrics)) expect(CAPABILITY_ROWS[m.capability], m.name).toBeDefined();
  });

  it('shows every function, and nothing but the declared ones, in its row: errors, throttles, duration p99, concurrent executions', () => {
    const expected = expectedFunctions();
    expect(
      platformFunctions(resources)
        .map(([id]) => id)
        .sort(),
    ).toEqual(expected.map((f) => f.id).sort());
    for (const f of expected) {
      const row = rowOf(capabilityTitle(f.capability));
      for (const metric of ['Errors', 'Throttles', 'Duration', 'ConcurrentExecutions']) {
        expect(graphing(row, 'AWS/Lambda', metric, `@Ref:${f.id}`), `${f.name} ${metric}`).not.toHaveLength(0);
      }
      const duration = graphing(row, 'AWS/Lambda', 'Duration', `@Ref:${f.id}`)[0]!;
      expect(JSON.stringify(duration.properties.metrics)).toContain('"stat":"p99"');
    }
  });

  it('shows every queue and dead-letter queue in its row: depth and age of the oldest message', () => {
    const expected = expectedQueues();
    expect(
      ofType('AWS::SQS::Queue')
        .map(([id]) => id)
        .sort(),
    ).toEqual(expected.map((q) => q.id).sort());
    for (const q of expected) {
      const row = rowOf(q.title);
      const name = `@GetAtt:${q.id}.QueueName`;
      expect(graphing(row, 'AWS/SQS', 'ApproximateNumberOfMessagesVisible', name), q.key).not.toHaveLength(0);
      expect(graphing(row, 'AWS/SQS', 'ApproximateAgeOfOldestMessage', name), q.key).not.toHaveLength(0);
    }
  });

  it('shows every workflow in its row: executions started, failed, timed out and their duration', () => {
    expect(ofType('AWS::StepFunctions::StateMachine')).toHaveLength(Object.keys(WORKFLOWS).length);
    for (const workflow of Object.keys(WORKFLOWS) as WorkflowName[]) {
      const row = rowOf(capabilityTitle(WORKFLOW_CAPABILITY[workflow]));
      const machine = `@Ref:${logicalId(stack.exports.stateMachine)}`;
      for (const metric of ['ExecutionsStarted', 'ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionTime']) {
        expect(graphing(row, 'AWS/States', metric, machine), `${workflow} ${metric}`).not.toHaveLength(0);
      }
    }
  });

  it('shows every schedule in its row: invocations and failed invocations', () => {
    const rows = CONSUMERS.filter((row) => row.kind === 'schedule');
    expect(ofType('AWS::Events::Rule')).toHaveLength(rows.length);
    for (const row of rows) {
      const rule = `@Ref:${logicalId(stack.schedules[row.name]!)}`;
      const dashboardRow = rowOf(capabilityTitle(CONSUMER_CAPABILITY[row.name]));
      for (const metric of ['Invocations', 'FailedInvocations'])
        expect(graphing(dashboardRow, 'AWS/Events', metric, rule), `${row.name} ${metric}`).not.toHaveLength(0);
    }
  });

  it('shows the table: throttled requests, throttle events of the table and each index, consumed capacity, system errors', () => {
    const row = rowOf(SHARED_ROW_TITLE);
    const table = `@Ref:${TABLE_LOGICAL_ID}`;
    for (const metric of [
      'ThrottledRequests',
      'ReadThrottleEvents',
      'WriteThrottleEvents',
      'ConsumedReadCapacityUnits',
      'ConsumedWriteCapacityUnits',
      'SystemErrors',
    ]) {
      expect(graphing(row, 'AWS/DynamoDB', metric, table), metric).not.toHaveLength(0);
    }
    for (const { indexName } of TABLE_SCHEMA.gsis) expect(graphing(row, 'AWS/DynamoDB', 'ReadThrottleEvents', indexName), indexName).not.toHaveLength(0);
  });

  it('shows every business metric of the catalog in the row of its capability, finding every series of its dimensions', () => {
    for (const m of Object.values(businessMetrics) as BusinessMetric[]) {
      const row = rowOf(capabilityTitle(m.capability));
      const widget = row.find((w) => w.properties.title === m.name || w.properties.title === `${m.name} (ms)`);
      expect(widget, m.name).toBeDefined();
      const metrics = widget!.properties.metrics!;
      if (!m.dimensions?.length) {
        expect(
          metrics.some((line) => line[0] === METRICS_NAMESPACE && line[1] === m.name && line[2] === 'service' && line[3] === METRICS_SERVICE),
          m.name,
        ).toBe(true);
      } else {
        const schema = `{${[METRICS_NAMESPACE, 'service', ...m.dimensions].join(',')}}`;
        const searches = metrics.map((line) => (line[0] as { expression?: string }).expression ?? '').filter((e) => e.includes('SEARCH('));
        expect(searches.length, m.name).toBeGreaterThan(0);
        for (const e of searches) {
          expect(e).toContain(schema);
          expect(e).toContain(`MetricName="${m.name}"`);
          expect(e).toContain(`service="${METRICS_SERVICE}"`);
        }
      }
    }
  });
});

describe('alarms', () => {
  it('every function has an errors and a throttles alarm', () => {
    for (const f of expectedFunctions()) {
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarmsOn('AWS/Lambda', metric, { Ref: f.id });
        expect(found, `${f.name} ${metric}`).toHaveLength(1);
        expect(found[0]![1].Properties).toMatchObject({
          Statistic: 'Sum',
          Period: config.alarms.periodMinutes * 60,
          ComparisonOperator: 'GreaterThanThreshold',
        });
      }
    }
  });

  it('every queue has an oldest-message alarm and every dead-letter queue a not-empty alarm', () => {
    for (const q of expectedQueues()) {
      const name = { 'Fn::GetAtt': [q.id, 'QueueName'] };
      const age = alarmsOn('AWS/SQS', 'ApproximateAgeOfOldestMessage', name);
      expect(age, q.key).toHaveLength(1);
      const threshold = q.deadLetter
        ? config.alarms.deadLetterOldestMessageSeconds
        : (config.alarms.queueOldestMessageSeconds as Record<string, number>)[q.key];
      expect(age[0]![1].Properties!.Threshold, q.key).toBe(threshold);
      const visible = alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', name);
      expect(visible, q.key).toHaveLength(q.deadLetter ? 1 : 0);
      if (q.deadLetter) expect(visible[0]![1].Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    }
  });

  it('every table stream consumer has an IteratorAge alarm', () => {
    for (const row of CONSUMERS.filter((r) => r.kind === 'stream')) {
      const found = alarmsOn('AWS/Lambda', 'IteratorAge', { Ref: logicalId(stack.consumerFunctions[row.name]!) });
      expect(found, row.name).toHaveLength(1);
      expect(found[0]![1].Properties!.Threshold).toBe(config.alarms.streamIteratorAgeMs);
    }
  });

  it('every workflow alarms on failed and timed-out executions', () => {
    for (const workflow of Object.keys(WORKFLOWS) as WorkflowName[]) {
      const machine = { Ref: logicalId(stack.exports.stateMachine) };
      const failed = alarmsOn('AWS/States', 'ExecutionsFailed', machine);
      expect(failed, workflow).toHaveLength(1);
      expect(alarmsOn('AWS/States', 'ExecutionsTimedOut', machine).map(([id]) => id)).toEqual(failed.map(([id]) => id));
    }
  });

  it('every schedule alarms on failed invocations', () => {
    for (const row of CONSUMERS.filter((r) => r.kind === 'schedule')) {
      expect(alarmsOn('AWS/Events', 'FailedInvocations', { Ref: logicalId(stack.schedules[row.name]!) }), row.name).toHaveLength(1);
    }
  });

  it('the table alarms on throttle events of the table and every index, and on system errors of every operation the platform calls', () => {
    const table = { Ref: TABLE_LOGICAL_ID };
    const throttling = resources[logicalId(stack.observability.alarms.tableThrottling)]!.Properties!;
    const stats = (throttling.Metrics as { MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } } }[]).filter(
      (q) => q.MetricStat,
    );
    for (const index of [undefined, ...TABLE_SCHEMA.gsis.map((g) => g.indexName)]) {
      for (const metricName of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
        const match = stats.filter((q) => {
          const dims = Object.fromEntries(q.MetricStat!.Metric.Dimensions.map((d) => [d.Name, d.Value]));
          return (
            q.MetricStat!.Metric.MetricName === metricName &&
            JSON.stringify(dims.TableName) === JSON.stringify(table) &&
            dims.GlobalSecondaryIndexName === index
          );
        });
        expect(match, `${metricName} ${index ?? 'table'}`).toHaveLength(1);
      }
    }
    const systemErrors = resources[logicalId(stack.observability.alarms.tableSystemErrors)]!.Properties!;
    const operations = (systemErrors.Metrics as { MetricStat?: { Metric: { Dimensions: { Name: string; Value: unknown }[] } } }[])
      .filter((q) => q.MetricStat)
      .map((q) => q.MetricStat!.Metric.Dimensions.find((d) => d.Name === 'Operation')!.Value);
    expect(operations.sort()).toEqual([...TABLE_OPERATIONS].sort());
    expect(TABLE_OPERATIONS).toEqual(expect.arrayContaining(['GetItem', 'Query', 'PutItem', 'UpdateItem', 'TransactWriteItems', 'GetRecords']));
  });

  it('the API alarms on its 5xx rate and p99 latency with the thresholds from config', () => {
    expect(resources[logicalId(stack.observability.alarms.api5xxRate)]!.Properties!.Threshold).toBe(config.alarms.api5xxRate);
    expect(resources[logicalId(stack.observability.alarms.apiLatencyP99)]!.Properties).toMatchObject({
      Threshold: config.alarms.apiP99LatencyMs,
      Period: config.alarms.apiLatencyPeriodMinutes * 60,
    });
  });

  it("every alarm is on the dashboard's alarm status", () => {
    const status = widgets.filter((w) => w.type === 'alarm').flatMap((w) => (w.properties as { alarms?: string[] }).alarms ?? []);
    expect(status.sort()).toEqual(
      alarms()
        .map(([id]) => `@GetAtt:${id}.Arn`)
        .sort(),
    );
  });
});

describe('alarm topic', () => {
  const topicRef = () => {
    const topics = ofType('AWS::SNS::Topic');
    expect(topics).toHaveLength(1);
    return { Ref: topics[0]![0] };
  };

  it('every alarm of the stack has an alarm action and an OK action on the one topic', () => {
    expect(alarms().length).toBeGreaterThan(0);
    for (const [id, a] of alarms()) {
      expect(a.Properties!.AlarmActions, id).toEqual([topicRef()]);
      expect(a.Properties!.OKActions, id).toEqual([topicRef()]);
    }
  });

  it('an alarm added anywhere later notifies the topic too', () => {
    const { app, stack: other } = buildApp({ context: NO_BUNDLING });
    const late = new cloudwatch.Alarm(other.wallet, 'LateAlarm', {
      metric: other.wallet.pushQueue.metricNumberOfMessagesSent(),
      threshold: 1,
      evaluationPeriods: 1,
      alarmDescription: 'A later alarm. Runbook: docs/operations.md#queue-oldest-message',
    });
    app.synth();
    const props = Template.fromStack(other).toJSON().Resources[Stack.of(other).resolve((late.node.defaultChild as CfnElement).logicalId)].Properties;
    const topic = { Ref: Stack.of(other).resolve((other.alarmTopic.topic.node.defaultChild as CfnElement).logicalId) };
    expect(props.AlarmActions).toEqual([topic]);
    expect(props.OKActions).toEqual([topic]);
  });

  it('is encrypted with its own rotated key, which CloudWatch alarms of this account may use, and refuses requests without TLS', () => {
    const [, topic] = ofType('AWS::SNS::Topic')[0]!;
    // The stack's other key seals signing secrets (test/infra/security.test.ts).
    const topicKeys = ofType('AWS::KMS::Key').filter(([id]) => id !== SIGNING_SECRETS_KEY_LOGICAL_ID);
    const [keyId, key] = topicKeys[0]!;
    expect(topicKeys).toHaveLength(1);
    expect(topic.Properties!.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(key.Properties!.EnableKeyRotation).toBe(true);
    const keyStatements = key.Properties!.KeyPolicy.Statement as { Principal?: { Service?: string }; Action: string[]; Condition?: Record<string, unknown> }[];
    const forCloudWatch = keyStatements.find((s) => s.Principal?.Service === 'cloudwatch.amazonaws.com');
    expect(forCloudWatch?.Action).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
    expect(forCloudWatch?.Condition).toMatchObject({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } });
    const [, policy] = ofType('AWS::SNS::TopicPolicy')[0]!;
    const statements = policy.Properties!.PolicyDocument.Statement as {
      Effect: string;
      Condition?: { Bool?: Record<string, string> };
      Principal?: { Service?: string };
      Action: string | string[];
    }[];
    expect(statements.some((s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false')).toBe(true);
    expect(statements.some((s) => s.Effect === 'Allow' && s.Principal?.Service === 'cloudwatch.amazonaws.com' && s.Action === 'sns:Publish')).toBe(true);
  });

  it('has no subscription unless an alarm e-mail is configured', () => {
    expect(ofType('AWS::SNS::Subscription')).toHaveLength(0);
  });

  it('subscribes the alarm e-mail from the alarmEmail context value (cdk-nag passes with it too)', () => {
    const { app, stack: other } = buildApp({ context: { ...NO_BUNDLING, alarmEmail: 'oncall@example.com' } });
    // Runs the cdk-nag plugins: throws on an unacknowledged finding.
    app.synth();
    const subs = Object.values(Template.fromStack(other).toJSON().Resources as Record<string, Resource>).filter((r) => r.Type === 'AWS::SNS::Subscription');
    expect(subs).toHaveLength(1);
    expect(subs[0]!.Properties).toMatchObject({ Protocol: 'email', Endpoint: 'oncall@example.com' });
  });

  it('the address comes from the context value, else ALARM_EMAIL, and must be an address', () => {
    expect(alarmEmailOf(undefined, {})).toBeUndefined();
    expect(alarmEmailOf(undefined, { ALARM_EMAIL: 'ops@example.com' })).toBe('ops@example.com');
    expect(alarmEmailOf('oncall@example.com', { ALARM_EMAIL: 'ops@example.com' })).toBe('oncall@example.com');
    expect(alarmEmailOf('', { ALARM_EMAIL: '' })).toBeUndefined();
    expect(() => alarmEmailOf('not-an-address', {})).toThrow(/context alarmEmail="not-an-address" must be an e-mail address/);
    expect(() => alarmEmailOf(undefined, { ALARM_EMAIL: 'ops@' })).toThrow(/ALARM_EMAIL/);
    expect(() => buildApp({ context: { ...NO_BUNDLING, alarmEmail: 'nobody' } })).toThrow(/alarmEmail/);
  });

  it('is an output of the stack', () => {
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.values(outputs).map((o) => o.Value)).toContainEqual(topicRef());
  });
});

describe('runbook', () => {
  /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
  const anchor = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s-]/gu, '')
      .replace(/\s/g, '-');
  const anchors = () =>
    new Set(
      readFileSync(join(PROJECT_ROOT, RUNBOOK_FILE), 'utf8')
        .split('\n')
        .filter((line) => /^#{2,3} /.test(line))
        .map((line) => anchor(line.replace(/^#+ /, ''))),
    );

  it('every alarm description ends with a link to a section of docs/operations.md that exists', () => {
    const sections = anchors();
    for (const [id, a] of alarms()) {
      const match = /Runbook: docs\/operations\.md#([a-z0-9-]+)$/.exec(a.Properties!.AlarmDescription ?? '');
      expect(match, `${id}: ${a.Properties!.AlarmDescription}`).not.toBeNull();
      expect(sections.has(match![1]!), `${id} -> #${match![1]}`).toBe(true);
    }
  });

  it('has a section for every runbook anchor the alarms may name', () => {
    const sections = anchors();
    for (const [key, section] of Object.entries(RUNBOOK_SECTIONS)) expect(sections.has(section), `${key} -> #${section}`).toBe(true);
  });
});

describe('functions', () => {
  it('every function has active tracing, a log group with retention, and the Powertools metrics and tracer settings', () => {
    for (const [id, fn] of platformFunctions(resources)) {
      const props = fn.Properties!;
      expect(props.TracingConfig, id).toEqual({ Mode: 'Active' });
      const logGroup = resources[props.LoggingConfig.LogGroup.Ref]!;
      expect(logGroup.Type, id).toBe('AWS::Logs::LogGroup');
      expect(logGroup.Properties!.RetentionInDays, id).toBe(config.lambda.logRetentionDays);
      expect(props.Environment.Variables, id).toMatchObject({
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
      });
    }
  });

  it('each function role may write traces', () => {
    for (const [id, fn] of platformFunctions(resources)) {
      const role = fn.Properties!.Role['Fn::GetAtt'][0] as string;
      const policies = ofType('AWS::IAM::Policy').filter(([, p]) => (p.Properties!.Roles as { Ref: string }[]).some((r) => r.Ref === role));
      const actions = policies.flatMap(([, p]) =>
        (p.Properties!.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((s) => [s.Action].flat()),
      );
      expect(actions, id).toEqual(expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']));
    }
  });
});

describe('synthesis', () => {
  it('emits no CDK warnings', () => {
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
  });
});
