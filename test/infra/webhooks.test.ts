import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUIRED_FUNCTION_ENV } from '../../shared/config';
import { OUTBOX_STREAM_FILTER } from '../../shared/events/stream-filter';
import { config, WEBHOOK_ENV, type WebhookSettings, webhookSettings } from '../../shared/config';
import { TABLE_LOGICAL_ID } from '../../infra/constructs/data';
import { PROJECT_ROOT } from '../../infra/constructs/platform-function';
import {
  checkWebhookQueueSettings,
  DEAD_LETTER_QUEUE_LOGICAL_ID,
  DELIVERY_QUEUE_LOGICAL_ID,
  queueUrlEnv,
  worstCaseDeliverySpanSeconds,
} from '../../infra/constructs/webhooks';
import { TABLE_ACTIONS } from '../../infra/constructs/access';
import { AREAS, type Area } from '../../shared/contracts/index';
import { buildApp, type LoyaltyPlatformStack } from '../../infra/stack';

type Resource = { Type: string; Properties?: Record<string, any>; Metadata?: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };

let app: App;
let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;
let assemblyDir: string;

beforeAll(() => {
  ({ app, stack } = buildApp());
  // Runs the cdk-nag validation plugin: throws on an unacknowledged finding.
  assemblyDir = app.synth().directory;
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
});

const ofType = (type: string): [string, Resource][] => Object.entries(resources).filter(([, r]) => r.Type === type);
const logicalId = (c: IConstruct): string =>
  Stack.of(stack).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
const getAtt = (id: string, attr: string) => ({ 'Fn::GetAtt': [id, attr] });

const deliveryQueue = (): Resource => resources[DELIVERY_QUEUE_LOGICAL_ID]!;
const deadLetterQueue = (): Resource => resources[DEAD_LETTER_QUEUE_LOGICAL_ID]!;

/** The three pipeline functions: construct, entry folder, source queue of its event source. */
const pipeline = () =>
  [
    { name: 'webhook-fanout', fn: stack.webhooks.fanout },
    { name: 'webhook-worker', fn: stack.webhooks.worker },
    { name: 'webhook-dlq', fn: stack.webhooks.deadLetterConsumer },
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
  statementsOf(fnId).flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('sqs:'));

const mappings = (): [string, Resource][] => ofType('AWS::Lambda::EventSourceMapping');
const mappingOf = (fnId: string): Record<string, any> => {
  const mine = mappings().filter(([, m]) => m.Properties?.FunctionName?.Ref === fnId);
  expect(mine, fnId).toHaveLength(1);
  return mine[0]![1].Properties!;
};

describe('queues', () => {
  it('are exactly the delivery queue and its DLQ, with pinned logical IDs', () => {
    expect(ofType('AWS::SQS::Queue').map(([id]) => id).sort()).toEqual(
      [DEAD_LETTER_QUEUE_LOGICAL_ID, DELIVERY_QUEUE_LOGICAL_ID].sort(),
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
    const workerTimeout = resources[logicalId(stack.webhooks.worker)]?.Properties?.Timeout as number;
    expect(workerTimeout).toBe(config.webhooks.workerTimeoutSeconds);
    expect(visibility).toBeGreaterThanOrEqual(6 * workerTimeout);

    // The DLQ consumer gets the same 6x margin over its own timeout.
    const dlqConsumerTimeout = resources[logicalId(stack.webhooks.deadLetterConsumer)]?.Properties?.Timeout as number;
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
    expect(() => checkWebhookQueueSettings({ ...base, visibilitySeconds: 6 * base.workerTimeoutSeconds - 1 })).toThrow(
      /6 x workerTimeoutSeconds/,
    );
    expect(() => checkWebhookQueueSettings({ ...base, backoffCapSeconds: 13 * 3600 })).toThrow(/12 h/);
    expect(() => checkWebhookQueueSettings({ ...base, maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => checkWebhookQueueSettings({ ...base, maxAttempts: 40 })).toThrow(/retention/);
  });
});

describe('event sources', () => {
  it('there are exactly three mappings: stream -> fan-out, deliveries -> worker, DLQ -> DLQ consumer', () => {
    expect(mappings()).toHaveLength(3);
  });

  it('the fan-out reads the table stream, outbox inserts only, and never drops a record', () => {
    const m = mappingOf(logicalId(stack.webhooks.fanout));
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
    const m = mappingOf(logicalId(stack.webhooks.worker));
    expect(m.EventSourceArn).toEqual(getAtt(DELIVERY_QUEUE_LOGICAL_ID, 'Arn'));
    expect(m.BatchSize).toBe(config.webhooks.workerBatchSize);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('the DLQ consumer consumes the DLQ with partial batch failures', () => {
    const m = mappingOf(logicalId(stack.webhooks.deadLetterConsumer));
    expect(m.EventSourceArn).toEqual(getAtt(DEAD_LETTER_QUEUE_LOGICAL_ID, 'Arn'));
    expect(m.BatchSize).toBe(config.webhooks.workerBatchSize);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });
});

describe('alarms', () => {
  const alarm = (c: IConstruct): Record<string, any> => {
    const r = resources[logicalId(c)]!;
    expect(r.Type).toBe('AWS::CloudWatch::Alarm');
    return r.Properties!;
  };

  it('any visible message in the DLQ', () => {
    expect(alarm(stack.webhooks.alarms.deadLetters)).toMatchObject({
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
    expect(alarm(stack.webhooks.alarms.deliveryAge)).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(DELIVERY_QUEUE_LOGICAL_ID, 'QueueName') }],
      Statistic: 'Maximum',
      Threshold: 3600,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('fan-out iterator age (stream falling behind)', () => {
    const props = alarm(stack.webhooks.alarms.fanoutIteratorAge);
    expect(props).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(stack.webhooks.fanout) } }],
      Statistic: 'Maximum',
      ComparisonOperator: 'GreaterThanThreshold',
    });
    // Far below the stream's 24 h retention.
    expect(props.Threshold).toBeGreaterThan(0);
    expect(props.Threshold).toBeLessThanOrEqual(3600 * 1000);
  });

  it('are the three webhook alarms, and no alarm has actions (operators wire them)', () => {
    expect(ofType('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith('Webhooks'))).toHaveLength(3);
    for (const [id, a] of ofType('AWS::CloudWatch::Alarm')) expect(a.Properties?.AlarmActions, id).toBeUndefined();
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
    const deliveries = queueUrlEnv('webhookDeliveries');
    const deadLetters = queueUrlEnv('webhookDeadLetters');
    expect(deliveries).toBe('QUEUE_URL_WEBHOOKDELIVERIES');
    expect(deadLetters).toBe('QUEUE_URL_WEBHOOKDEADLETTERS');
    const vars = (c: IConstruct) => resources[logicalId(c)]!.Properties!.Environment.Variables as Record<string, unknown>;
    expect(vars(stack.webhooks.fanout)[deliveries]).toEqual({ Ref: DELIVERY_QUEUE_LOGICAL_ID });
    expect(vars(stack.webhooks.worker)[deliveries]).toEqual({ Ref: DELIVERY_QUEUE_LOGICAL_ID });
    expect(vars(stack.webhooks.deadLetterConsumer)[deadLetters]).toEqual({ Ref: DEAD_LETTER_QUEUE_LOGICAL_ID });
    expect(vars(stack.webhooks.fanout)).not.toHaveProperty(deadLetters);
    expect(vars(stack.webhooks.worker)).not.toHaveProperty(deadLetters);
    expect(vars(stack.webhooks.deadLetterConsumer)).not.toHaveProperty(deliveries);
  });

  it('no function may reach loopback receivers in AWS (WEBHOOK_ALLOW_LOOPBACK is local-only)', () => {
    for (const [id, f] of ofType('AWS::Lambda::Function')) {
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
    const others = pipeline().filter((p) => p.name !== name).map((p) => resources[logicalId(p.fn)]!.Properties!.LoggingConfig.LogGroup.Ref);
    expect(others).not.toContain(logGroupId);
  });

  it.each(['webhook-fanout', 'webhook-worker', 'webhook-dlq'])('%s is bundled as ESM exporting handler', (name) => {
    const { fn } = pipeline().find((p) => p.name === name)!;
    const s3Key = resources[logicalId(fn)]!.Properties!.Code.S3Key as string;
    const manifest = JSON.parse(readFileSync(join(assemblyDir, `${stack.artifactId}.assets.json`), 'utf8'));
    const dir = join(assemblyDir, manifest.files[s3Key.replace(/\.zip$/, '')].source.path as string);
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code.startsWith('import { createRequire as __loyaltyCreateRequire }')).toBe(true);
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
  });
});

describe('least privilege', () => {
  const tableArn = getAtt(TABLE_LOGICAL_ID, 'Arn');
  const streamArn = getAtt(TABLE_LOGICAL_ID, 'StreamArn');
  const deliveryArn = getAtt(DELIVERY_QUEUE_LOGICAL_ID, 'Arn');
  const dlqArn = getAtt(DEAD_LETTER_QUEUE_LOGICAL_ID, 'Arn');
  const fanoutId = () => logicalId(stack.webhooks.fanout);
  const workerId = () => logicalId(stack.webhooks.worker);
  const dlqId = () => logicalId(stack.webhooks.deadLetterConsumer);
  const areaId = (area: Area) => logicalId(stack.areaFunctions.functions[area]);

  it('the fan-out only reads the table; worker and dead-letter consumer read and write it', () => {
    expect(new Set(actionsOn(fanoutId(), tableArn))).toEqual(new Set(TABLE_ACTIONS.read));
    for (const id of [workerId(), dlqId()]) expect(new Set(actionsOn(id, tableArn)), id).toEqual(new Set(TABLE_ACTIONS.readWrite));
    for (const id of [fanoutId(), workerId(), dlqId()]) for (const s of statementsOf(id)) expect(s.Action, id).not.toBe('*');
  });

  it('fan-out: reads the stream, sends to the delivery queue, nothing else on SQS', () => {
    expect(actionsOn(fanoutId(), streamArn)).toEqual(
      expect.arrayContaining(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']),
    );
    expect(actionsOn(fanoutId(), deliveryArn)).toContain('sqs:SendMessage');
    expect(sqsActions(fanoutId())).not.toContain('sqs:DeleteMessage');
    expect(actionsOn(fanoutId(), dlqArn)).toEqual([]);
    // The only "*" resource is ListStreams (no resource-level permissions exist for it).
    const star = statementsOf(fanoutId()).filter((s) => s.Resource === '*');
    expect(star.flatMap((s) => [s.Action].flat())).toEqual(['dynamodb:ListStreams']);
  });

  it('worker: consumes the delivery queue and may change visibility (the backoff), cannot send', () => {
    expect(actionsOn(workerId(), deliveryArn)).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
    );
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
      expect(Object.keys(vars).filter((k) => k.startsWith('QUEUE_URL_') || k.startsWith('WEBHOOK_')), area).toEqual([]);
    }
  });
});

describe('cdk-nag', () => {
  it('no unacknowledged finding on the webhook resources (or anywhere)', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });

  it('the ListStreams wildcard is acknowledged on the fan-out policy only', () => {
    const withStar = ofType('AWS::IAM::Policy').filter(([, p]) =>
      (p.Metadata?.cdk_nag?.rules_to_suppress as { id: string }[] | undefined)?.some((s) => s.id === 'AwsSolutions-IAM5[Resource::*]'),
    );
    expect(withStar).toHaveLength(1);
    const [, policy] = withStar[0]!;
    const fanoutRoleId = (resources[logicalId(stack.webhooks.fanout)]!.Properties!.Role as { 'Fn::GetAtt': [string, string] })[
      'Fn::GetAtt'
    ][0];
    expect(policy.Properties?.Roles).toEqual([{ Ref: fanoutRoleId }]);
  });
});
