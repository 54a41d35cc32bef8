import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskFunctionVariable, WORKFLOW_DIR } from '../../infra/app/constructs/exports';
import type { LoyaltyPlatformStack } from '../../infra/app/stack';
import { synthesizedApp } from '../support/synthesized-app';
import { substituteNumbers, workflowNumberSubstitutions } from '../../infra/app/workflows/numbers';
import { workflowDefinition } from '../../infra/local/workflows';
import { config } from '../../shared/platform/config';
import { CONSUMERS } from '../../shared/platform/consumers/table';
import { DECLARATIONS } from '../../shared/http/declarations';
import { workflowArnEnvName } from '../../shared/platform/ports/workflows';

/** The export bucket, the export workflow from its ASL file, its alarm, and grants from the declarations. */

type Resource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string };
let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ stack, resources } = synthesizedApp());
});

const logicalId = (c: IConstruct): string => Stack.of(stack).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const fnOf = (name: string) =>
  resources[logicalId(name in stack.areaFunctions.functions ? stack.areaFunctions.functions[name as never] : stack.consumerFunctions[name]!)]!;
const policiesOf = (fnName: string) => {
  const role = fnOf(fnName).Properties!.Role['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties!.Roles.some((r: { Ref: string }) => r.Ref === role))
    .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement);
};
const actionsOf = (fnName: string): string[] => policiesOf(fnName).flatMap((s: { Action: string | string[] }) => [s.Action].flat());

describe('export workflow', () => {
  it('the state machine definition is the ASL file, byte for byte, with its Task functions substituted', () => {
    const [, machine] = ofType('AWS::StepFunctions::StateMachine')[0]!;
    const asl = readFileSync(join(WORKFLOW_DIR, 'export.asl.json'), 'utf8');
    expect(machine.Properties!.DefinitionString).toBe(asl);
    const states = CONSUMERS.flatMap((c) => (c.kind === 'workflowTask' && c.source.workflow === 'export' ? [c] : []));
    const expected = {
      ...workflowNumberSubstitutions('export'),
      ...Object.fromEntries(states.map((c) => [taskFunctionVariable(c.source.state), { 'Fn::GetAtt': [logicalId(stack.consumerFunctions[c.name]!), 'Arn'] }])),
    };
    expect(machine.Properties!.DefinitionSubstitutions).toEqual(expected);
    // Every `${...}` in the file is a Task state's function or a retry number, and each of those is used.
    const variables = [...asl.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect([...new Set(variables)]).toEqual(Object.keys(expected).sort());
    expect(machine.Properties!.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('the notices are retried like webhook deliveries (attempts, base, cap, full jitter)', () => {
    const asl = JSON.parse(substituteNumbers('export', readFileSync(join(WORKFLOW_DIR, 'export.asl.json'), 'utf8')));
    const retry = asl.States.Notify.Retry.find((r: { ErrorEquals: string[] }) => r.ErrorEquals.includes('ExportNoticeRetryable'));
    expect(retry).toEqual({
      ErrorEquals: ['ExportNoticeRetryable', 'States.Timeout'],
      IntervalSeconds: config.webhooks.backoffBaseSeconds,
      MaxAttempts: config.webhooks.maxAttempts - 1,
      BackoffRate: 2,
      MaxDelaySeconds: config.webhooks.backoffCapSeconds,
      JitterStrategy: 'FULL',
    });
  });

  it('every Retry number comes from config, substituted alike by CDK and by the local runner', () => {
    const text = readFileSync(join(WORKFLOW_DIR, 'export.asl.json'), 'utf8');
    // No number is written in a Retry block of the file itself.
    expect(text).not.toMatch(/"(IntervalSeconds|MaxAttempts|BackoffRate|MaxDelaySeconds)":\s*\d/);
    const [, machine] = ofType('AWS::StepFunctions::StateMachine')[0]!;
    const substitutions = machine.Properties!.DefinitionSubstitutions as Record<string, unknown>;
    const numbers = workflowNumberSubstitutions('export');
    for (const [name, value] of Object.entries(numbers)) expect(substitutions[name], name).toBe(value);
    // The local runner's definition: the same file with the same values.
    const local = workflowDefinition('export') as unknown as {
      States: Record<string, { Retry?: Record<string, unknown>[]; ItemProcessor?: { States: Record<string, { Retry?: Record<string, unknown>[] }> } }>;
    };
    expect(local).toEqual(JSON.parse(substituteNumbers('export', text)));
    const { task, markFailed } = config.exportWorkflowRetry;
    const lambdaRetry = (r: Record<string, unknown>) => (r.ErrorEquals as string[]).includes('Lambda.ServiceException');
    const retries = [...Object.values(local.States), ...Object.values(local.States.BuildSections!.ItemProcessor!.States)].flatMap((st) => st.Retry ?? []);
    expect(retries.filter(lambdaRetry)).toHaveLength(6);
    for (const r of retries.filter(lambdaRetry))
      expect(r).toMatchObject({ IntervalSeconds: task.intervalSeconds, MaxAttempts: task.maxAttempts, BackoffRate: task.backoffRate });
    expect(local.States.MarkFailed!.Retry).toEqual([
      {
        ErrorEquals: ['States.ALL'],
        IntervalSeconds: markFailed.intervalSeconds,
        MaxAttempts: markFailed.maxAttempts,
        BackoffRate: markFailed.backoffRate,
        JitterStrategy: 'FULL',
      },
    ]);
  });

  it('alarms on failed, timed-out or aborted executions, notifying the alarm topic', () => {
    const alarm = resources[logicalId(stack.exports.alarms.workflowFailures)]!.Properties!;
    expect(alarm).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(JSON.stringify(alarm.Metrics)).toContain('ExecutionsFailed');
    expect(JSON.stringify(alarm.Metrics)).toContain('ExecutionsTimedOut');
    const topic = { Ref: logicalId(stack.alarmTopic.topic) };
    expect(alarm.AlarmActions).toEqual([topic]);
    expect(alarm.OKActions).toEqual([topic]);
  });
});

describe('export bucket', () => {
  it('is encrypted, private, TLS only, and expires files after the documented retention', () => {
    const [id, bucket] = ofType('AWS::S3::Bucket')[0]!;
    expect(bucket!.Properties).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: {
        Rules: [{ ExpirationInDays: config.exports.retentionDays, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }],
      },
    });
    const policy = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties!.Bucket.Ref === id)![1];
    expect(policy.Properties!.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it("lets the console's origin alone PUT an import file to a presigned link (the browser's preflight)", () => {
    const [, bucket] = ofType('AWS::S3::Bucket')[0]!;
    const distribution = ofType('AWS::CloudFront::Distribution')[0]![0];
    expect(bucket!.Properties!.CorsConfiguration).toEqual({
      CorsRules: [
        {
          AllowedMethods: ['PUT'],
          AllowedOrigins: [{ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }]] }],
          AllowedHeaders: ['content-type'],
          MaxAge: 3000,
        },
      ],
    });
  });

  it('grants follow the declarations: writers write, link signers read, starters start, nobody else', () => {
    const all = [
      ...DECLARATIONS.map((d) => ({ name: d.area as string, access: d.access })),
      ...CONSUMERS.map((c) => ({ name: c.name as string, access: c.access })),
    ];
    for (const { name, access } of all) {
      const actions = actionsOf(name);
      const env = fnOf(name).Properties!.Environment.Variables;
      const bucket = 'exportsBucket' in access ? access.exportsBucket : undefined;
      expect(actions.includes('s3:PutObject'), `${name} writes`).toBe(bucket === 'readWrite');
      expect(actions.includes('s3:GetObject'), `${name} reads`).toBe(bucket !== undefined);
      expect(
        actions.filter((a) => a.startsWith('s3:') && !['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'].includes(a)),
        name,
      ).toEqual([]);
      expect('EXPORTS_BUCKET' in env, name).toBe(bucket !== undefined);
      const startsOf = (w: 'export' | 'import') => 'startsWorkflows' in access && (access.startsWorkflows ?? []).includes(w);
      expect(actions.includes('states:StartExecution'), `${name} starts`).toBe(startsOf('export') || startsOf('import'));
      expect(workflowArnEnvName('export') in env, name).toBe(startsOf('export'));
      expect(workflowArnEnvName('import') in env, name).toBe(startsOf('import'));
    }
  });
});
