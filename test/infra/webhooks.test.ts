import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { App as CdkApp, type App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUIRED_FUNCTION_ENV } from '../../shared/platform/config';
import { OUTBOX_STREAM_FILTER } from '../../shared/platform/events/stream-filter';
import { config, WEBHOOK_ENV, type WebhookSettings, webhookSettings } from '../../shared/platform/config';
import { CONSUMERS, type ConsumerName, type ConsumerRow } from '../../shared/platform/consumers/table';
import type { QueueName } from '../../shared/platform/ports/queue';
import { Data, TABLE_LOGICAL_ID } from '../../infra/app/constructs/data';
import { Mail } from '../../infra/app/constructs/mail';
import { LOCAL_QUEUE_DRIVING, localConsumerPlan } from '../../infra/local/pipelines';
import { PROJECT_ROOT } from '../../infra/app/constructs/platform-function';
import {
  checkWebhookQueueSettings,
  DEAD_LETTER_QUEUE_LOGICAL_ID,
  DELIVERY_QUEUE_LOGICAL_ID,
  Webhooks,
  worstCaseDeliverySpanSeconds,
} from '../../infra/app/constructs/webhooks';
import { CONSUMER_CONSTRUCT_IDS } from '../../infra/app/constructs/consumer-ids';
import { Consumers } from '../../infra/app/constructs/consumers';
import { Wallet, WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID, WALLET_PUSH_QUEUE_LOGICAL_ID } from '../../infra/app/constructs/wallet';
import { TABLE_ACTIONS } from '../../infra/app/constructs/access';
import { queueUrlEnvName } from '../../shared/platform/ports/queue';
import { AREAS, type Area } from '../../shared/http/declarations';
import type { LoyaltyPlatformStack } from '../../infra/app/stack';
import { synthesizedApp } from '../support/synthesized-app';
import { platformFunctions } from './templates';
import { CONSOLE_COPIER_ID_PREFIX } from '../../infra/app/constructs/console-hosting';

type Resource = { Type: string; Properties?: Record<string, any>; Metadata?: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };

let app: App;
let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;

beforeAll(() => {
  // Its synthesis ran the cdk-nag validation plugin: it threw on an unacknowledged finding. (That
  // every function, these three included, is bundled as ESM is checked in stack.test.ts.)
  ({ app, stack, resources } = synthesizedApp());
});

const ofType = (type: string): [string, Resource][] => Object.entries(resources).filter(([, r]) => r.Type === type);
const logicalId = (c: IConstruct): string => Stack.of(stack).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
const getAtt = (id: string, attr: string) => ({ 'Fn::GetAtt': [id, attr] });

const deliveryQueue = (): Resource => resources[DELIVERY_QUEUE_LOGICAL_ID]!;
const deadLetterQueue = (): Resource => resources[DEAD_LETTER_QUEUE_LOGICAL_ID]!;

/** The three pipeline functions: construct, entry folder, source queue of its event source. */
const pipeline = () =>
  [
    { name: 'webhook-fanout', fn: stack.pipelines.fanout },
    { name: 'webhook-worker', fn: stack.pipelines.worker },
    { name: 'webhook-dlq', fn: stack.pipelines.deadLetterConsumer },
  ] as const;

const statementsOfRole = (roleArn: unknown): Statement[] => {
  const roleId = (roleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties?.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties?.PolicyDocument.Statement as Statement[]);
};
const statementsOf = (fnId: string): Statement[] => statementsOfRole(resources[fnId]?.Properties?.Role);
const actionsOn = (fnId: string, resource: unknown): string[] =>
  statementsOf(fnId)
    .filter((s) => JSON.stringify([s.Resource].flat()).includes(JSON.stringify(resource)))
    .flatMap((s) => [s.Action].flat());
const sqsActions = (fnId: string): string[] =>
  statementsOf(fnId)
    .flatMap((s) => [s.Action].flat())
    .filter((a) => a.startsWith('sqs:'));

const mappings = (): [string, Resource][] => ofType('AWS::Lambda::EventSourceMapping');
const mappingOf = (fnId: string): Record<string, any> => {
  const mine = mappings().filter(([, m]) => m.Properties?.FunctionName?.Ref === fnId);
  expect(mine, fnId).toHaveLength(1);
  return mine[0]![1].Properties!;
};

describe('queues', () => {
  it('are exactly the delivery queue and its DLQ, the wallet push queue and its DLQ, with pinned logical IDs', () => {
    // Plus, once the consumer table has a schedule row, the failure queue of scheduled runs.
    const scheduleFailures = stack.webhooks.scheduleFailureQueueIfAny;
    expect(CONSUMERS.some((c) => c.kind === 'schedule')).toBe(scheduleFailures !== undefined);
    expect(
      ofType('AWS::SQS::Queue')
        .map(([id]) => id)
        .sort(),
    ).toEqual(
      [
        DEAD_LETTER_QUEUE_LOGICAL_ID,
        DELIVERY_QUEUE_LOGICAL_ID,
        WALLET_PUSH_QUEUE_LOGICAL_ID,
        WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID,
        ...(scheduleFailures ? [logicalId(scheduleFailures)] : []),
      ].sort(),
    );
    expect(logicalId(stack.webhooks.deliveryQueue)).toBe(DELIVERY_QUEUE_LOGICAL_ID);
    expect(logicalId(stack.webhooks.deadLetterQueue)).toBe(DEAD_LETTER_QUEUE_LOGICAL_ID);
  });

  it('the delivery queue redrives to the DLQ after maxAttempts receives', () => {
    expect(deliveryQueue().Properties?.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(DEAD_LETTER_QUEUE_LOGICAL_ID, 'Arn'),
      maxReceiveCount: config.webhooks.maxAttempts,
    });
    expect(deadLetterQueue().Properties?.RedrivePolicy).toBeUndefined();
  });

  it('visibility timeout is the configured one and at least 6x the worker timeout', () => {
    const visibility = deliveryQueue().Properties?.VisibilityTimeout as number;
    expect(visibility).toBe(config.webhooks.visibilitySeconds);
    const workerTimeout = resources[logicalId(stack.pipelines.worker)]?.Properties?.Timeout as number;
    expect(workerTimeout).toBe(config.webhooks.workerTimeoutSeconds);
    expect(visibility).toBeGreaterThanOrEqual(6 * workerTimeout);

    // The DLQ consumer gets the same 6x margin over its own timeout.
    const dlqConsumerTimeout = resources[logicalId(stack.pipelines.deadLetterConsumer)]?.Properties?.Timeout as number;
    expect(deadLetterQueue().Properties?.VisibilityTimeout).toBeGreaterThanOrEqual(6 * dlqConsumerTimeout);
  });

  it('retention: the whole retry schedule fits into the delivery queue, the DLQ keeps 14 days', () => {
    const retention = deliveryQueue().Properties?.MessageRetentionPeriod as number;
    expect(worstCaseDeliverySpanSeconds({ ...config.webhooks })).toBeLessThan(retention);
    expect(deadLetterQueue().Properties?.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    // AWS: a DLQ must keep messages longer than its source queue (the enqueue time is kept on redrive).
    expect(deadLetterQueue().Properties?.MessageRetentionPeriod).toBeGreaterThan(retention);
  });

  it('both queues use SQS-managed encryption and refuse requests without TLS', () => {
    for (const id of [DELIVERY_QUEUE_LOGICAL_ID, DEAD_LETTER_QUEUE_LOGICAL_ID]) {
      expect(resources[id]?.Properties?.SqsManagedSseEnabled, id).toBe(true);
      const policies = ofType('AWS::SQS::QueuePolicy').filter(([, p]) =>
        (p.Properties?.Queues as unknown[]).some((q) => JSON.stringify(q) === JSON.stringify({ Ref: id })),
      );
      expect(policies, id).toHaveLength(1);
      expect(policies[0]![1].Properties?.PolicyDocument.Statement).toContainEqual({
        Action: 'sqs:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Resource: getAtt(id, 'Arn'),
      });
    }
  });

  it('synthesis fails when the numbers break the SQS/Lambda rules', () => {
    const base: WebhookSettings = { ...config.webhooks };
    expect(() => checkWebhookQueueSettings(base)).not.toThrow();
    expect(() => checkWebhookQueueSettings({ ...base, visibilitySeconds: 6 * base.workerTimeoutSeconds - 1 })).toThrow(/6 x workerTimeoutSeconds/);
    expect(() => checkWebhookQueueSettings({ ...base, backoffCapSeconds: 13 * 3600 })).toThrow(/12 h/);
    expect(() => checkWebhookQueueSettings({ ...base, maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => checkWebhookQueueSettings({ ...base, maxAttempts: 40 })).toThrow(/retention/);
  });
});

describe('event sources', () => {
  it('there are exactly three webhook mappings: stream -> fan-out, deliveries -> worker, DLQ -> DLQ consumer (plus the wallet two)', () => {
    expect(mappings()).toHaveLength(5);
    const wallet = [logicalId(stack.consumerFunctions['wallet-changes']!), logicalId(stack.consumerFunctions['wallet-push']!)];
    expect(mappings().filter(([, m]) => !wallet.includes((m.Properties?.FunctionName as { Ref: string }).Ref))).toHaveLength(3);
  });

  it('the fan-out reads the table stream, outbox inserts only, and never drops a record', () => {
    const m = mappingOf(logicalId(stack.pipelines.fanout));
    expect(m.EventSourceArn).toEqual(getAtt(TABLE_LOGICAL_ID, 'StreamArn'));
    expect(m.StartingPosition).toBe('TRIM_HORIZON');
    expect(m.BatchSize).toBe(config.webhooks.fanoutBatchSize);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(m.BisectBatchOnFunctionError).toBe(true);
    // At-least-once: infinite retries, no maximum record age, no on-failure destination.
    expect(m.MaximumRetryAttempts).toBe(-1);
    expect(m.MaximumRecordAgeInSeconds).toBe(-1);
    expect(m.DestinationConfig).toBeUndefined();

    const filters = m.FilterCriteria?.Filters as { Pattern: string }[];
    expect(filters).toHaveLength(1);
    expect(JSON.parse(filters[0]!.Pattern)).toEqual(OUTBOX_STREAM_FILTER);
  });

  it('the worker consumes the delivery queue with partial batch failures', () => {
    const m = mappingOf(logicalId(stack.pipelines.worker));
    expect(m.EventSourceArn).toEqual(getAtt(DELIVERY_QUEUE_LOGICAL_ID, 'Arn'));
    expect(m.BatchSize).toBe(config.webhooks.workerBatchSize);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('the DLQ consumer consumes the DLQ with partial batch failures', () => {
    const m = mappingOf(logicalId(stack.pipelines.deadLetterConsumer));
    expect(m.EventSourceArn).toEqual(getAtt(DEAD_LETTER_QUEUE_LOGICAL_ID, 'Arn'));
    expect(m.BatchSize).toBe(config.webhooks.workerBatchSize);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });
});

describe('consumer table: one declaration, CDK and the local runtime derived from it', () => {
  const rows = CONSUMERS as readonly ConsumerRow[];
  const QUEUE_LOGICAL_IDS: Record<QueueName, string> = {
    webhookDeliveries: DELIVERY_QUEUE_LOGICAL_ID,
    webhookDeadLetters: DEAD_LETTER_QUEUE_LOGICAL_ID,
    walletPushes: WALLET_PUSH_QUEUE_LOGICAL_ID,
    walletPushDeadLetters: WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID,
  };
  const fnIdOf = (row: ConsumerRow) => logicalId(stack.consumerFunctions[row.name]!);
  const rules = () => ofType('AWS::Events::Rule').filter(([, r]) => r.Properties?.ScheduleExpression !== undefined);
  const ruleTargets = (fnId: string) =>
    rules().filter(([, r]) => (r.Properties?.Targets as { Arn: unknown }[]).some((t) => JSON.stringify(t.Arn) === JSON.stringify(getAtt(fnId, 'Arn'))));

  it.each(rows.map((r) => [r.name, r] as const))('%s: its function, timeout and exactly one event source or schedule as the row says', (_, row) => {
    const fnId = fnIdOf(row);
    const props = resources[fnId]!.Properties!;
    expect(props.Timeout).toBe(row.timeoutSeconds);
    expect(props.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe(row.name);
    expect(existsSync(join(PROJECT_ROOT, 'functions', row.name, 'handler.ts'))).toBe(true);
    const mine = mappings().filter(([, m]) => m.Properties?.FunctionName?.Ref === fnId);
    switch (row.kind) {
      case 'queue': {
        expect(mine).toHaveLength(1);
        expect(mine[0]![1].Properties).toMatchObject({
          EventSourceArn: getAtt(QUEUE_LOGICAL_IDS[row.source], 'Arn'),
          BatchSize: row.batchSize,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        });
        expect(ruleTargets(fnId)).toEqual([]);
        break;
      }
      case 'stream': {
        expect(mine).toHaveLength(1);
        const m = mine[0]![1].Properties!;
        expect(m).toMatchObject({ EventSourceArn: getAtt(TABLE_LOGICAL_ID, 'StreamArn'), BatchSize: row.batchSize });
        const patterns = ((m.FilterCriteria?.Filters ?? []) as { Pattern: string }[]).map((f) => JSON.parse(f.Pattern));
        expect(patterns).toEqual(row.filter ? [row.filter] : []);
        expect(ruleTargets(fnId)).toEqual([]);
        break;
      }
      case 'schedule':
        expect(mine).toEqual([]);
        expect(ruleTargets(fnId).map(([, r]) => r.Properties?.ScheduleExpression)).toEqual([row.source]);
        break;
      case 'workflowTask':
        expect(mine).toEqual([]);
        expect(ruleTargets(fnId)).toEqual([]);
        expect(stack.exportsStack.consumers.workflowTasks[row.source.workflow]?.[row.source.state]).toBe(stack.consumerFunctions[row.name]);
        break;
    }
  });

  it('no event source mapping or schedule without a row, and no background function outside the table', () => {
    const rowFunctionIds = new Set(rows.map(fnIdOf));
    for (const [id, m] of mappings()) expect(rowFunctionIds.has(m.Properties?.FunctionName?.Ref), id).toBe(true);
    expect(mappings()).toHaveLength(rows.filter((r) => r.kind === 'queue' || r.kind === 'stream').length);
    expect(rules()).toHaveLength(rows.filter((r) => r.kind === 'schedule').length);
    const areaIds = new Set(AREAS.map((a) => logicalId(stack.areaFunctions.functions[a])));
    for (const [id] of platformFunctions(resources)) expect(areaIds.has(id) || rowFunctionIds.has(id), id).toBe(true);
    expect(Object.keys(stack.consumerFunctions).sort()).toEqual(rows.map((r) => r.name).sort());
  });

  it('the local runtime registers every row exactly once with the same numbers, and nothing else', () => {
    const loaded: string[] = [];
    const plan = localConsumerPlan(rows, (name) => {
      loaded.push(name);
      return async () => undefined;
    });
    expect(loaded.sort()).toEqual(rows.map((r) => r.name).sort());
    for (const row of rows) {
      const functionName = `loyalty-${row.name}`;
      switch (row.kind) {
        case 'queue':
          expect(plan.queues[row.source], row.name).toMatchObject({
            functionName,
            batchSize: row.batchSize,
            timeoutSeconds: row.timeoutSeconds,
          });
          expect(plan.queues[row.source]!.concurrency, row.name).toBe(LOCAL_QUEUE_DRIVING[row.name as ConsumerName]?.concurrency);
          break;
        case 'stream': {
          const pollers = plan.streams.filter((p) => p.consumer === row.name);
          expect(pollers).toHaveLength(1);
          expect(pollers[0]).toMatchObject({ functionName, batchSize: row.batchSize, timeoutSeconds: row.timeoutSeconds, filter: row.filter });
          break;
        }
        case 'schedule':
          expect(plan.schedules.filter((s) => s.name === row.name).map((s) => s.expression)).toEqual([row.source]);
          break;
        case 'workflowTask':
          expect(plan.workflowTasks[row.source.workflow]?.[row.source.state]).toBeTypeOf('function');
          break;
      }
    }
    const registrations =
      Object.keys(plan.queues).length + plan.streams.length + plan.schedules.length + Object.values(plan.workflowTasks).flatMap(Object.keys).length;
    expect(registrations).toBe(rows.length);
  });

  it('a new row is all a consumer needs: a schedule and a workflow task, in CDK and locally', () => {
    // Existing entry folders stand in for the new rows' handler files: only the wiring is under test.
    const base = { description: 'test row', timeoutSeconds: 60, settings: [], access: { table: 'readWrite' } } as const;
    const rowsWithExtra: ConsumerRow[] = [
      ...rows,
      { ...base, name: 'system', kind: 'schedule', source: 'cron(0 3 * * ? *)' },
      { ...base, name: 'tags', kind: 'workflowTask', source: { workflow: 'nightly', state: 'WritePart' } },
    ];
    const plan = localConsumerPlan(rowsWithExtra, () => async () => undefined);
    const tableSchedules = rows.flatMap((r) => (r.kind === 'schedule' ? [[r.name, r.source, r.timeoutSeconds]] : []));
    expect(plan.schedules.map((s) => [s.name, s.expression, s.timeoutSeconds])).toEqual([...tableSchedules, ['system', 'cron(0 3 * * ? *)', 60]]);
    expect(Object.keys(plan.workflowTasks.nightly ?? {})).toEqual(['WritePart']);

    // CDK, without bundling: each row gets its function and its trigger, nothing else changes.
    const testApp = new CdkApp({ context: { 'aws:cdk:bundling-stacks': [] } });
    const testStack = new Stack(testApp, 'ConsumerRows');
    const data = new Data(testStack, 'Data');
    const wallet = new Wallet(testStack, 'Wallet');
    const webhookQueues = new Webhooks(testStack, 'Webhooks', { scheduleFailures: true });
    const consumers = new Consumers(testStack, 'Consumers', {
      rows: rowsWithExtra,
      table: data.table,
      mail: new Mail(testStack, 'Mail', { fromAddress: 'no-reply@example.test' }),
      queues: { ...wallet.queues, webhookDeliveries: webhookQueues.deliveryQueue, webhookDeadLetters: webhookQueues.deadLetterQueue },
      walletSecret: wallet.secret,
      // The rows that page with cursors read the page cursor key.
      secrets: { pageCursors: new secretsmanager.Secret(testStack, 'CursorSecret') },
      scheduleFailureQueue: webhookQueues.scheduleFailureQueueIfAny!,
      // The new rows' construct ids, beside the deployed ones.
      constructIds: { ...CONSUMER_CONSTRUCT_IDS, system: 'NightlyExport', tags: 'ExportTask' },
    });
    const webhooks = { consumerFunctions: consumers.functions, workflowTasks: consumers.workflowTasks };
    expect(Object.keys(webhooks.consumerFunctions).sort()).toEqual(rowsWithExtra.map((r) => r.name).sort());
    const t = Template.fromStack(testStack).toJSON().Resources as Record<string, Resource>;
    const fnRef = (name: string) => ({
      'Fn::GetAtt': [testStack.resolve((webhooks.consumerFunctions[name]!.node.defaultChild as CfnElement).logicalId), 'Arn'],
    });
    // The table's own schedule rows have their rules too; the new row adds exactly one.
    const scheduleRules = Object.values(t).filter((r) => r.Type === 'AWS::Events::Rule' && r.Properties?.ScheduleExpression === 'cron(0 3 * * ? *)');
    expect(scheduleRules).toHaveLength(1);
    expect(Object.values(t).filter((r) => r.Type === 'AWS::Events::Rule')).toHaveLength(1 + rows.filter((r) => r.kind === 'schedule').length);
    expect(scheduleRules[0]!.Properties).toMatchObject({ ScheduleExpression: 'cron(0 3 * * ? *)', Targets: [{ Arn: fnRef('system') }] });
    expect(Object.values(t).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')).toHaveLength(
      rows.filter((r) => r.kind === 'stream' || r.kind === 'queue').length,
    );
    expect(webhooks.workflowTasks.nightly?.WritePart).toBe(webhooks.consumerFunctions.tags);
    const timeoutOf = (name: string) =>
      t[testStack.resolve((webhooks.consumerFunctions[name]!.node.defaultChild as CfnElement).logicalId)]!.Properties!.Timeout;
    expect([timeoutOf('system'), timeoutOf('tags')]).toEqual([60, 60]);

    // A scheduled run is asynchronous: its failures (EventBridge's and the function's) land in one failure queue.
    const queues = Object.entries(t)
      .filter(([, r]) => r.Type === 'AWS::SQS::Queue')
      .map(([id]) => id);
    const failureQueue = queues.find((id) => id.includes('ScheduleFailureQueue'));
    expect(failureQueue).toBeDefined();
    const fnProps = (name: string) => t[testStack.resolve((webhooks.consumerFunctions[name]!.node.defaultChild as CfnElement).logicalId)]!.Properties!;
    expect(fnProps('system').DeadLetterConfig).toEqual({ TargetArn: { 'Fn::GetAtt': [failureQueue, 'Arn'] } });
    expect(fnProps('tags').DeadLetterConfig).toBeUndefined();
    expect(scheduleRules[0]!.Properties!.Targets[0]).toMatchObject({
      DeadLetterConfig: { Arn: { 'Fn::GetAtt': [failureQueue, 'Arn'] } },
      RetryPolicy: { MaximumRetryAttempts: 2 },
    });
  });
});

describe('alarms', () => {
  const alarm = (c: IConstruct): Record<string, any> => {
    const r = resources[logicalId(c)]!;
    expect(r.Type).toBe('AWS::CloudWatch::Alarm');
    return r.Properties!;
  };

  it('any visible message in the DLQ', () => {
    expect(alarm(stack.pipelines.webhookAlarms.deadLetters)).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(DEAD_LETTER_QUEUE_LOGICAL_ID, 'QueueName') }],
      Statistic: 'Maximum',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
    });
  });

  it('delivery queue age above one hour', () => {
    expect(alarm(stack.pipelines.webhookAlarms.deliveryAge)).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(DELIVERY_QUEUE_LOGICAL_ID, 'QueueName') }],
      Statistic: 'Maximum',
      Threshold: 3600,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('fan-out iterator age (stream falling behind)', () => {
    const props = alarm(stack.pipelines.webhookAlarms.fanoutIteratorAge);
    expect(props).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(stack.pipelines.fanout) } }],
      Statistic: 'Maximum',
      ComparisonOperator: 'GreaterThanThreshold',
    });
    // Far below the stream's 24 h retention.
    expect(props.Threshold).toBeGreaterThan(0);
    expect(props.Threshold).toBeLessThanOrEqual(3600 * 1000);
  });

  it('are the three webhook alarms, each notifying the alarm topic on ALARM and OK', () => {
    const own = ofType('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith('Webhooks'));
    expect(own).toHaveLength(3);
    const topic = { Ref: logicalId(stack.alarmTopic.topic) };
    for (const [id, a] of own) {
      expect(a.Properties?.AlarmActions, id).toEqual([topic]);
      expect(a.Properties?.OKActions, id).toEqual([topic]);
    }
  });
});

describe('pipeline functions', () => {
  it.each(['webhook-fanout', 'webhook-worker', 'webhook-dlq'])('%s runs nodejs24.x on arm64 from its own handler file', (name) => {
    const { fn } = pipeline().find((p) => p.name === name)!;
    expect(existsSync(join(PROJECT_ROOT, 'functions', name, 'handler.ts'))).toBe(true);
    const props = resources[logicalId(fn)]!.Properties!;
    expect(props).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: config.lambda.memoryMiB,
    });
    expect(props.VpcConfig).toBeUndefined();
  });

  it.each(['webhook-fanout', 'webhook-worker', 'webhook-dlq'])('%s has the runtime environment and every WEBHOOK_* number from config', (name) => {
    const { fn } = pipeline().find((p) => p.name === name)!;
    const vars = resources[logicalId(fn)]!.Properties!.Environment.Variables as Record<string, unknown>;
    for (const v of REQUIRED_FUNCTION_ENV) expect(vars, v).toHaveProperty(v);
    expect(vars).toMatchObject({
      STAGE: 'aws',
      TABLE_NAME: { Ref: TABLE_LOGICAL_ID },
      POWERTOOLS_SERVICE_NAME: name,
      NODE_OPTIONS: '--enable-source-maps',
    });
    for (const [key, envName] of Object.entries(WEBHOOK_ENV) as [keyof WebhookSettings, string][]) {
      expect(vars[envName], envName).toBe(String(config.webhooks[key]));
    }
    // What the function reads through webhookSettings() is exactly config.webhooks.
    const stringVars = Object.fromEntries(Object.entries(vars).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    expect(webhookSettings(stringVars)).toEqual(config.webhooks);
  });

  it('queue URLs: fan-out and worker get the delivery queue, the DLQ consumer the DLQ', () => {
    const deliveries = queueUrlEnvName('webhookDeliveries');
    const deadLetters = queueUrlEnvName('webhookDeadLetters');
    expect(deliveries).toBe('QUEUE_URL_WEBHOOKDELIVERIES');
    expect(deadLetters).toBe('QUEUE_URL_WEBHOOKDEADLETTERS');
    const vars = (c: IConstruct) => resources[logicalId(c)]!.Properties!.Environment.Variables as Record<string, unknown>;
    expect(vars(stack.pipelines.fanout)[deliveries]).toEqual({ Ref: DELIVERY_QUEUE_LOGICAL_ID });
    expect(vars(stack.pipelines.worker)[deliveries]).toEqual({ Ref: DELIVERY_QUEUE_LOGICAL_ID });
    expect(vars(stack.pipelines.deadLetterConsumer)[deadLetters]).toEqual({ Ref: DEAD_LETTER_QUEUE_LOGICAL_ID });
    expect(vars(stack.pipelines.fanout)).not.toHaveProperty(deadLetters);
    expect(vars(stack.pipelines.worker)).not.toHaveProperty(deadLetters);
    expect(vars(stack.pipelines.deadLetterConsumer)).not.toHaveProperty(deliveries);
  });

  it('no function may reach loopback receivers in AWS (WEBHOOK_ALLOW_LOOPBACK is local-only)', () => {
    for (const [id, f] of platformFunctions(resources)) {
      expect(f.Properties?.Environment?.Variables ?? {}, id).not.toHaveProperty('WEBHOOK_ALLOW_LOOPBACK');
    }
  });

  it.each(['webhook-fanout', 'webhook-worker', 'webhook-dlq'])('%s logs to its own retained log group', (name) => {
    const { fn } = pipeline().find((p) => p.name === name)!;
    const logGroupId = resources[logicalId(fn)]!.Properties!.LoggingConfig.LogGroup.Ref as string;
    const lg = resources[logGroupId] as Resource & { DeletionPolicy?: string };
    expect(lg.Type).toBe('AWS::Logs::LogGroup');
    expect(lg.Properties?.RetentionInDays).toBe(config.lambda.logRetentionDays);
    expect(lg.DeletionPolicy).toBe('Retain');
    const others = pipeline()
      .filter((p) => p.name !== name)
      .map((p) => resources[logicalId(p.fn)]!.Properties!.LoggingConfig.LogGroup.Ref);
    expect(others).not.toContain(logGroupId);
  });
});

describe('least privilege', () => {
  const tableArn = getAtt(TABLE_LOGICAL_ID, 'Arn');
  const streamArn = getAtt(TABLE_LOGICAL_ID, 'StreamArn');
  const deliveryArn = getAtt(DELIVERY_QUEUE_LOGICAL_ID, 'Arn');
  const dlqArn = getAtt(DEAD_LETTER_QUEUE_LOGICAL_ID, 'Arn');
  const fanoutId = () => logicalId(stack.pipelines.fanout);
  const workerId = () => logicalId(stack.pipelines.worker);
  const dlqId = () => logicalId(stack.pipelines.deadLetterConsumer);
  const areaId = (area: Area) => logicalId(stack.areaFunctions.functions[area]);

  it('the fan-out only reads the table; worker and dead-letter consumer read and write it', () => {
    expect(new Set(actionsOn(fanoutId(), tableArn))).toEqual(new Set(TABLE_ACTIONS.read));
    for (const id of [workerId(), dlqId()]) expect(new Set(actionsOn(id, tableArn)), id).toEqual(new Set(TABLE_ACTIONS.readWrite));
    for (const id of [fanoutId(), workerId(), dlqId()]) for (const s of statementsOf(id)) expect(s.Action, id).not.toBe('*');
  });

  it.each(CONSUMERS.map((r) => [r.name, r] as const))('consumer %s gets exactly the table actions and send rights its row declares', (_, row) => {
    const id = logicalId(stack.consumerFunctions[row.name]!);
    expect(new Set(actionsOn(id, tableArn))).toEqual(new Set(TABLE_ACTIONS[row.access.table]));
    const queueArns = {
      webhookDeliveries: deliveryArn,
      webhookDeadLetters: dlqArn,
      walletPushes: getAtt(WALLET_PUSH_QUEUE_LOGICAL_ID, 'Arn'),
      walletPushDeadLetters: getAtt(WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID, 'Arn'),
    } as const;
    const sendsTo = (Object.keys(queueArns) as (keyof typeof queueArns)[]).filter((q) => actionsOn(id, queueArns[q]).includes('sqs:SendMessage'));
    expect(sendsTo.sort()).toEqual([...((row.access as { sendsTo?: readonly string[] }).sendsTo ?? [])].sort());
    expect(statementsOf(id).flatMap((s) => [s.Action].flat())).not.toContain('dynamodb:Scan');
  });

  it('fan-out: reads the stream, sends to the delivery queue, nothing else on SQS', () => {
    expect(actionsOn(fanoutId(), streamArn)).toEqual(expect.arrayContaining(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']));
    expect(actionsOn(fanoutId(), deliveryArn)).toContain('sqs:SendMessage');
    expect(sqsActions(fanoutId())).not.toContain('sqs:DeleteMessage');
    expect(actionsOn(fanoutId(), dlqArn)).toEqual([]);
    // The only "*" resources are ListStreams and the X-Ray writes (no resource-level permissions exist for them).
    const star = statementsOf(fanoutId()).filter((s) => s.Resource === '*');
    expect(star.flatMap((s) => [s.Action].flat()).sort()).toEqual(['dynamodb:ListStreams', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });

  it('worker: consumes the delivery queue and may change visibility (the backoff), cannot send', () => {
    expect(actionsOn(workerId(), deliveryArn)).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']));
    expect(sqsActions(workerId())).not.toContain('sqs:SendMessage');
    expect(actionsOn(workerId(), dlqArn)).toEqual([]);
    expect(actionsOn(workerId(), streamArn)).toEqual([]);
  });

  it('DLQ consumer: consumes the DLQ only', () => {
    expect(actionsOn(dlqId(), dlqArn)).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(actionsOn(dlqId(), deliveryArn)).toEqual([]);
    expect(sqsActions(dlqId())).not.toContain('sqs:SendMessage');
  });

  it('the webhooks area (replay, test ping) can send to the delivery queue and knows its URL', () => {
    expect(actionsOn(areaId('webhooks'), deliveryArn)).toContain('sqs:SendMessage');
    expect(actionsOn(areaId('webhooks'), dlqArn)).toEqual([]);
    expect(sqsActions(areaId('webhooks'))).not.toContain('sqs:ReceiveMessage');
    const vars = resources[areaId('webhooks')]!.Properties!.Environment.Variables as Record<string, unknown>;
    expect(vars.QUEUE_URL_WEBHOOKDELIVERIES).toEqual({ Ref: DELIVERY_QUEUE_LOGICAL_ID });
    for (const [key, envName] of Object.entries(WEBHOOK_ENV) as [keyof WebhookSettings, string][]) {
      expect(vars[envName], envName).toBe(String(config.webhooks[key]));
    }
  });

  it('no other area touches SQS or gets a queue URL', () => {
    for (const area of AREAS.filter((a) => a !== 'webhooks')) {
      expect(sqsActions(areaId(area)), area).toEqual([]);
      const vars = resources[areaId(area)]!.Properties!.Environment.Variables as Record<string, unknown>;
      expect(
        Object.keys(vars).filter((k) => k.startsWith('QUEUE_URL_') || k.startsWith('WEBHOOK_')),
        area,
      ).toEqual([]);
    }
  });
});

describe('cdk-nag', () => {
  it('no unacknowledged finding on the webhook resources (or anywhere)', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });

  it('the ListStreams wildcard is acknowledged on the policies of the stream consumers only (the fan-out, and the wallet changes consumer); every other "*" is an X-Ray write', () => {
    const starReason = (p: Resource) =>
      (p.Metadata?.cdk_nag?.rules_to_suppress as { id: string; reason: string }[] | undefined)?.find((s) => s.id === 'AwsSolutions-IAM5[Resource::*]')?.reason;
    const withListStreams = ofType('AWS::IAM::Policy').filter(([, p]) => starReason(p)?.includes('ListStreams'));
    const streamRows = CONSUMERS.filter((r) => r.kind === 'stream');
    expect(withListStreams).toHaveLength(streamRows.length);
    // The export and import workflows' roles: X-Ray tracing and the set-up of its log delivery, neither with resource-level permissions.
    const machineRoles = [logicalId(stack.exports.stateMachine.role), logicalId(stack.exportsStack.imports.stateMachine.role)];
    for (const [id, p] of ofType('AWS::IAM::Policy')) {
      if (starReason(p)?.includes('ListStreams')) continue;
      // CDK's copier of the console build (test/infra/console.test.ts): its policy is CDK's.
      if (id.startsWith(CONSOLE_COPIER_ID_PREFIX)) continue;
      const statements = (p.Properties!.PolicyDocument as { Statement: { Resource: unknown; Action: string | string[] }[] }).Statement;
      const starActions = statements.filter((st) => st.Resource === '*').flatMap((st) => [st.Action].flat());
      if ((p.Properties!.Roles as { Ref: string }[]).some((r) => machineRoles.includes(r.Ref))) {
        for (const a of starActions)
          expect(a).toMatch(
            /^(xray:(PutTraceSegments|PutTelemetryRecords|GetSamplingRules|GetSamplingTargets)|logs:(CreateLogDelivery|GetLogDelivery|UpdateLogDelivery|DeleteLogDelivery|ListLogDeliveries|PutResourcePolicy|DescribeResourcePolicies|DescribeLogGroups))$/,
          );
        expect(starReason(p)).toContain('X-Ray');
        continue;
      }
      expect(starActions.every((a) => a.startsWith('xray:Put'))).toBe(true);
      if (starActions.length > 0) expect(starReason(p)).toContain('xray:PutTraceSegments');
    }
    const roleOf = (fn: IConstruct) => (resources[logicalId(fn)]!.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const expected = streamRows.map((r) => [{ Ref: roleOf(stack.consumerFunctions[r.name]!) }]);
    expect(withListStreams.map(([, policy]) => policy.Properties?.Roles)).toEqual(expect.arrayContaining(expected));
    expect(expected).toContainEqual([{ Ref: roleOf(stack.pipelines.fanout) }]);
  });
});
