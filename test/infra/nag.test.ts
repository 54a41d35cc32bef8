import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type LoyaltyPlatformStack } from '../../infra/app/stack';
import { synthesizedApp } from '../support/synthesized-app';
import { platformFunctions } from './templates';

type Suppression = { id: string; reason: string };
type Resource = { Type: string; Metadata?: { cdk_nag?: { rules_to_suppress?: Suppression[] } } };

let app: App;
let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;
let assemblyDir: string;

beforeAll(() => {
  // Its synthesis threw "ValidationFailed" if the registered AwsSolutions plugin reported an unacknowledged error.
  ({ app, stack, assemblyDir, resources } = synthesizedApp());
});

const suppressions = (): { logicalId: string; type: string; s: Suppression }[] =>
  Object.entries(resources).flatMap(([logicalId, r]) => (r.Metadata?.cdk_nag?.rules_to_suppress ?? []).map((s) => ({ logicalId, type: r.Type, s })));

describe('cdk-nag AwsSolutions and Serverless', () => {
  it.each([
    ['AwsSolutions', () => new AwsSolutionsChecks()],
    ['Serverless', () => new ServerlessChecks()],
  ] as const)('%s reports no unacknowledged errors and no unacknowledged warnings', (_, pack) => {
    const report = pack().validateScope(app);
    const findings = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('fails synthesis on a new unacknowledged Serverless finding too', () => {
    const { app: other, stack: otherStack } = buildApp();
    new lambda.Function(otherStack, 'Untraced', {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('export const handler = async () => {};'),
    });
    expect(() => other.synth()).toThrow(/Serverless-LambdaDLQ/);
  });

  it('every function is traced, and only API Gateway, event sources and workflows invoke a function without a dead-letter queue', () => {
    const functions = platformFunctions(resources);
    expect(functions.length).toBeGreaterThan(0);
    for (const [logicalId, r] of functions) {
      const props = (r as Resource & { Properties: { TracingConfig?: { Mode: string }; DeadLetterConfig?: unknown } }).Properties;
      expect(props.TracingConfig, logicalId).toEqual({ Mode: 'Active' });
      const dlqAck = (r as Resource).Metadata?.cdk_nag?.rules_to_suppress?.find((s) => s.id === 'Serverless-LambdaDLQ');
      expect(Boolean(props.DeadLetterConfig) !== Boolean(dlqAck), `${logicalId}: a DLQ or a reason for none`).toBe(true);
      if (dlqAck) expect(dlqAck.reason).toMatch(/synchronously|event source mapping/);
    }
  });

  it('the synthesized validation report is clean', () => {
    const report = JSON.parse(readFileSync(join(assemblyDir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { pluginName: string; conclusion?: string; violations: unknown[] }[];
    };
    for (const r of report.pluginReports) {
      expect(r.violations, r.pluginName).toEqual([]);
    }
  });

  it('nothing ends up as a CDK annotation either', () => {
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    expect(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
  });

  it('fails synthesis on a new unacknowledged finding (the app really runs the checks)', () => {
    const { app: other, stack: otherStack } = buildApp();
    new iam.Policy(otherStack, 'TooBroad', {
      statements: [new iam.PolicyStatement({ actions: ['dynamodb:*'], resources: ['*'] })],
      roles: [otherStack.areaFunctions.functions.system.role!],
    });
    expect(() => other.synth()).toThrow(/AwsSolutions-IAM5/);
  });
});

describe('suppressions', () => {
  it('every suppression names a rule and gives a concrete reason', () => {
    expect(suppressions().length).toBeGreaterThan(0);
    for (const { logicalId, s } of suppressions()) {
      expect(s.id, logicalId).toMatch(/^(AwsSolutions-[A-Z]+\d+(\[.+\])?|Serverless-[A-Za-z]+)$/);
      expect(s.reason.trim().length, `${logicalId} ${s.id}`).toBeGreaterThanOrEqual(20);
    }
  });

  it('IAM5 is only ever acknowledged for one specific finding, never as a whole rule', () => {
    const iam5 = suppressions().filter(({ s }) => s.id.startsWith('AwsSolutions-IAM5'));
    expect(iam5.length).toBeGreaterThan(0);
    for (const { logicalId, s } of iam5) expect(s.id, logicalId).toMatch(/^AwsSolutions-IAM5\[(Resource|Action)::.+\]$/);
  });

  it('each rule is acknowledged only on the resource type it is about', () => {
    const allowed: Record<string, string[]> = {
      'AwsSolutions-APIG4': ['AWS::ApiGatewayV2::Route'],
      'AwsSolutions-IAM5': ['AWS::IAM::Policy'],
      'AwsSolutions-SMG4': ['AWS::SecretsManager::Secret'],
      'AwsSolutions-SQS3': ['AWS::SQS::Queue'],
      'Serverless-LambdaDLQ': ['AWS::Lambda::Function'],
      'Serverless-LambdaEventSourceMappingDestination': ['AWS::Lambda::EventSourceMapping'],
      'Serverless-SQSRedrivePolicy': ['AWS::SQS::Queue'],
      // The alarm e-mail subscription, when an address is configured
      'Serverless-SNSRedrivePolicy': ['AWS::SNS::Subscription'],
      // Data exports: the export bucket's access logging
      'AwsSolutions-S1': ['AWS::S3::Bucket'],
      // The console's distribution
      'AwsSolutions-CFR1': ['AWS::CloudFront::Distribution'],
      'AwsSolutions-CFR2': ['AWS::CloudFront::Distribution'],
      'AwsSolutions-CFR3': ['AWS::CloudFront::Distribution'],
      'AwsSolutions-CFR4': ['AWS::CloudFront::Distribution'],
      // CDK's deployment-time copier of the console build (its runtime and role are CDK's)
      'AwsSolutions-L1': ['AWS::Lambda::Function'],
      'AwsSolutions-IAM4': ['AWS::IAM::Role'],
      'Serverless-LambdaLatestVersion': ['AWS::Lambda::Function'],
      'Serverless-LambdaTracing': ['AWS::Lambda::Function'],
    };
    for (const { logicalId, type, s } of suppressions()) {
      const rule = s.id.replace(/\[.*$/, '');
      expect(allowed[rule], `unexpected suppression ${s.id} on ${logicalId}`).toBeDefined();
      expect(allowed[rule], `${s.id} on ${logicalId}`).toContain(type);
    }
  });

  it('nothing is acknowledged on the app or the stack as a whole', () => {
    const blanket = (c: IConstruct) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY);
    expect(blanket(app)).toEqual([]);
    expect(blanket(Stack.of(stack))).toEqual([]);
  });
});
