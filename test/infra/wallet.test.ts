import { type CfnElement, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { routesOfArea } from '../../shared/http/declarations';
import { routeKey } from '../../shared/platform/contract/endpoint';
import { MEMBER_CHANGE_STREAM_FILTER } from '../../shared/platform/events/stream-filter';
import { TABLE_LOGICAL_ID } from '../../infra/app/constructs/data';
import { WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID, WALLET_PUSH_QUEUE_LOGICAL_ID, WALLET_SECRET_LOGICAL_ID } from '../../infra/app/constructs/wallet';
import type { LoyaltyPlatformStack } from '../../infra/app/stack';
import { synthesizedApp } from '../support/synthesized-app';
import { platformFunctions } from './templates';

/** Wallet cards in the stack: push queue + DLQ (alarmed), its two consumers, the secret and its grants, the routes. */

type Resource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown };

let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;

beforeAll(() => {
  // Its synthesis ran the cdk-nag validation plugin too: it threw on an unacknowledged finding.
  ({ stack, resources } = synthesizedApp());
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const logicalId = (c: IConstruct): string => Stack.of(stack).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
const getAtt = (id: string, attr: string) => ({ 'Fn::GetAtt': [id, attr] });
const statementsOf = (fnId: string): Statement[] => {
  const roleId = resources[fnId]!.Properties!.Role['Fn::GetAtt'][0] as string;
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties?.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties?.PolicyDocument.Statement as Statement[]);
};
const actionsOn = (fnId: string, resource: unknown) =>
  statementsOf(fnId)
    .filter((s) => JSON.stringify([s.Resource].flat()).includes(JSON.stringify(resource)))
    .flatMap((s) => [s.Action].flat());
const fnId = (name: 'wallet-changes' | 'wallet-push') => logicalId(stack.consumerFunctions[name]!);
const mappingOf = (id: string) => {
  const mine = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties?.FunctionName?.Ref === id);
  expect(mine).toHaveLength(1);
  return mine[0]![1].Properties!;
};
const allFunctionIds = () => platformFunctions(resources).map(([id]) => id);

describe('wallet push queues', () => {
  it('the push queue redrives to its DLQ after maxReceiveCount receives, both encrypted and SSL-only, with pinned logical IDs', () => {
    expect(logicalId(stack.wallet.pushQueue)).toBe(WALLET_PUSH_QUEUE_LOGICAL_ID);
    expect(logicalId(stack.wallet.pushDeadLetterQueue)).toBe(WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID);
    const queue = resources[WALLET_PUSH_QUEUE_LOGICAL_ID]!.Properties!;
    expect(queue.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID, 'Arn'),
      maxReceiveCount: config.wallet.push.maxReceiveCount,
    });
    expect(queue.VisibilityTimeout).toBe(config.wallet.push.visibilitySeconds);
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * config.wallet.push.workerTimeoutSeconds);
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(resources[WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID]!.Properties!.RedrivePolicy).toBeUndefined();
    expect(resources[WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID]!.Properties!.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('an alarm fires on any message in the DLQ', () => {
    const alarm = resources[logicalId(stack.pipelines.walletAlarms.pushDeadLetters)]!.Properties!;
    expect(alarm).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(alarm.Dimensions).toEqual([{ Name: 'QueueName', Value: getAtt(WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID, 'QueueName') }]);
  });
});

describe('wallet consumers', () => {
  it('wallet-changes reads the table stream (changed or removed members only) with partial batch failures, and never drops a record', () => {
    const m = mappingOf(fnId('wallet-changes'));
    expect(m.EventSourceArn).toEqual(getAtt(TABLE_LOGICAL_ID, 'StreamArn'));
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(m.MaximumRetryAttempts).toBe(-1);
    expect(JSON.parse(m.FilterCriteria.Filters[0].Pattern)).toEqual(MEMBER_CHANGE_STREAM_FILTER);
  });

  it('wallet-push consumes the push queue with partial batch failures and its own timeout', () => {
    const m = mappingOf(fnId('wallet-push'));
    expect(m.EventSourceArn).toEqual(getAtt(WALLET_PUSH_QUEUE_LOGICAL_ID, 'Arn'));
    expect(m.BatchSize).toBe(config.wallet.push.batchSize);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(resources[fnId('wallet-push')]!.Properties!.Timeout).toBe(config.wallet.push.workerTimeoutSeconds);
  });

  it('only wallet-changes may send to the push queue; nobody sends to its DLQ', () => {
    const queueArn = getAtt(WALLET_PUSH_QUEUE_LOGICAL_ID, 'Arn');
    const senders = allFunctionIds().filter((id) => actionsOn(id, queueArn).includes('sqs:SendMessage'));
    expect(senders).toEqual([fnId('wallet-changes')]);
    expect(actionsOn(fnId('wallet-push'), queueArn)).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
    );
    const dlqArn = getAtt(WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID, 'Arn');
    expect(allFunctionIds().filter((id) => actionsOn(id, dlqArn).includes('sqs:SendMessage'))).toEqual([]);
    // The stream consumer decides from the images alone: no table access at all.
    expect(actionsOn(fnId('wallet-changes'), getAtt(TABLE_LOGICAL_ID, 'Arn'))).toEqual([]);
  });
});

describe('wallet credentials secret', () => {
  it('is retained, pinned, and readable by exactly the wallet areas and the push worker, which know its ARN', () => {
    const secret = resources[WALLET_SECRET_LOGICAL_ID]!;
    expect(secret.Type).toBe('AWS::SecretsManager::Secret');
    expect(secret.DeletionPolicy).toBe('Retain');
    const readers = allFunctionIds().filter((id) =>
      statementsOf(id).some(
        (s) => [s.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes(WALLET_SECRET_LOGICAL_ID),
      ),
    );
    const expected = [logicalId(stack.areaFunctions.functions.wallet), logicalId(stack.areaFunctions.functions['wallet-passes']), fnId('wallet-push')];
    expect(readers.sort()).toEqual(expected.sort());
    for (const id of expected) expect(resources[id]!.Properties!.Environment.Variables.WALLET_SECRET_ARN).toEqual({ Ref: WALLET_SECRET_LOGICAL_ID });
    // The value never sits in a template: the functions read it at run time.
    expect(JSON.stringify(resources)).not.toContain('BEGIN PRIVATE KEY');
  });
});

describe('wallet routes', () => {
  it.each(['wallet', 'wallet-passes', 'portal'] as const)('every %s route is an API Gateway route integrated with its area function', (area) => {
    const keys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey as string);
    const declared = routesOfArea(area).map(routeKey);
    expect(declared.length).toBeGreaterThan(0);
    for (const key of declared) expect(keys, key).toContain(key);
  });

  it("has Apple's five pass web service calls, the consumer issue call and the branding settings; the two that build a pass apart", () => {
    expect(routesOfArea('wallet-passes').map(routeKey).sort()).toEqual([
      'GET /api/wallet/apple/v1/passes/{passTypeId}/{serial}',
      'POST /api/consumer/wallet/issue',
    ]);
    expect([...routesOfArea('wallet'), ...routesOfArea('wallet-passes')].map(routeKey).sort()).toEqual([
      'DELETE /api/wallet/apple/v1/devices/{deviceId}/registrations/{passTypeId}/{serial}',
      'GET /api/flash/wallet/branding',
      'GET /api/wallet/apple/v1/devices/{deviceId}/registrations/{passTypeId}',
      'GET /api/wallet/apple/v1/passes/{passTypeId}/{serial}',
      'POST /api/consumer/wallet/issue',
      'POST /api/wallet/apple/v1/devices/{deviceId}/registrations/{passTypeId}/{serial}',
      'POST /api/wallet/apple/v1/log',
      'PUT /api/flash/wallet/branding',
    ]);
  });
});
