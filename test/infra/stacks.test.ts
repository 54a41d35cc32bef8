import { beforeAll, describe, expect, it } from 'vitest';
import { HTTP_API_LOGICAL_ID } from '../../infra/app/constructs/api';
import { TABLE_LOGICAL_ID } from '../../infra/app/constructs/data';
import { EXPORT_BUCKET_LOGICAL_ID } from '../../infra/app/constructs/exports';
import { WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID, WALLET_PUSH_QUEUE_LOGICAL_ID, WALLET_SECRET_LOGICAL_ID } from '../../infra/app/constructs/wallet';
import { DEAD_LETTER_QUEUE_LOGICAL_ID, DELIVERY_QUEUE_LOGICAL_ID, SCHEDULE_FAILURE_QUEUE_LOGICAL_ID } from '../../infra/app/constructs/webhooks';
import { CURSOR_SECRET_LOGICAL_ID } from '../../infra/app/stack';
import { synthesizedApp } from '../support/synthesized-app';
import type { PlatformTemplates } from './templates';

/** CloudFormation's hard limit of resources per template, and the share a stack may use of it. */
const RESOURCE_LIMIT = 500;
const MAX_SHARE = 0.6;

let templates: PlatformTemplates;

beforeAll(() => {
  ({ templates } = synthesizedApp());
});

const count = (t: { Resources: Record<string, unknown> }) => Object.keys(t.Resources).length;

describe('stack shape', () => {
  it('is a root stack and one nested stack per capability', () => {
    expect(Object.keys(templates.nested).sort()).toEqual(['ApiStack', 'AreasStack', 'ExportsStack', 'ObservabilityStack', 'Pipelines'].sort());
  });

  it('every stack stays at or below 60 % of the resource limit', () => {
    const counts = { root: count(templates.root), ...Object.fromEntries(Object.entries(templates.nested).map(([id, t]) => [id, count(t)])) };
    console.info('resources per stack:', JSON.stringify(counts));
    for (const [id, n] of Object.entries(counts)) expect(n, id).toBeLessThanOrEqual(RESOURCE_LIMIT * MAX_SHARE);
  });

  it('keeps every stateful resource in the root stack under its pinned logical ID', () => {
    const pinned: Record<string, string> = {
      [TABLE_LOGICAL_ID]: 'AWS::DynamoDB::Table',
      [DELIVERY_QUEUE_LOGICAL_ID]: 'AWS::SQS::Queue',
      [DEAD_LETTER_QUEUE_LOGICAL_ID]: 'AWS::SQS::Queue',
      [WALLET_PUSH_QUEUE_LOGICAL_ID]: 'AWS::SQS::Queue',
      [WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID]: 'AWS::SQS::Queue',
      [SCHEDULE_FAILURE_QUEUE_LOGICAL_ID]: 'AWS::SQS::Queue',
      [WALLET_SECRET_LOGICAL_ID]: 'AWS::SecretsManager::Secret',
      [CURSOR_SECRET_LOGICAL_ID]: 'AWS::SecretsManager::Secret',
      [EXPORT_BUCKET_LOGICAL_ID]: 'AWS::S3::Bucket',
      [HTTP_API_LOGICAL_ID]: 'AWS::ApiGatewayV2::Api',
    };
    for (const [id, type] of Object.entries(pinned)) expect(templates.root.Resources[id]?.Type, id).toBe(type);
    // The values they had before the split into nested stacks (a changed one replaces the resource).
    expect([EXPORT_BUCKET_LOGICAL_ID, CURSOR_SECRET_LOGICAL_ID, SCHEDULE_FAILURE_QUEUE_LOGICAL_ID, HTTP_API_LOGICAL_ID]).toEqual([
      'ExportsBucket54D5CE64',
      'CursorSecretABAE1358',
      'WebhooksScheduleFailureQueue4FC0C19A',
      'ApiHttpApi4C294DC0',
    ]);
  });

  it('the area functions live in AreasStack under the logical IDs they had in ApiStack, the routes in ApiStack', () => {
    const functions = (id: string) =>
      Object.entries(templates.nested[id]!.Resources)
        .filter(([, r]) => (r as { Type: string }).Type === 'AWS::Lambda::Function')
        .map(([logicalId]) => logicalId);
    // A few of the IDs before the move: a changed one would make a deploy replace the function.
    expect(functions('AreasStack')).toEqual(
      expect.arrayContaining(['FunctionssystemFunctionDF6832F6', 'FunctionsmembersFunction87EC0205', 'FunctionsordersFunctionB6F660C8']),
    );
    expect(functions('ApiStack')).toEqual([]);
    const routes = Object.values(templates.nested.ApiStack!.Resources).filter((r) => (r as { Type: string }).Type === 'AWS::ApiGatewayV2::Route');
    expect(routes.length).toBeGreaterThan(100);
  });

  it('no table, queue, bucket, secret or key lives in a nested stack', () => {
    const stateful = ['AWS::DynamoDB::Table', 'AWS::SQS::Queue', 'AWS::S3::Bucket', 'AWS::SecretsManager::Secret', 'AWS::KMS::Key', 'AWS::ApiGatewayV2::Api'];
    for (const [stackId, t] of Object.entries(templates.nested)) {
      const found = Object.entries(t.Resources).filter(([, r]) => stateful.includes((r as { Type: string }).Type));
      expect(
        found.map(([id]) => id),
        stackId,
      ).toEqual([]);
    }
  });
});
