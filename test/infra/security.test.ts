import { type CfnElement, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_SECRETS_KEY_LOGICAL_ID } from '../../infra/app/constructs/signing-secrets-key';
import type { LoyaltyPlatformStack } from '../../infra/app/stack';
import { synthesizedApp } from '../support/synthesized-app';
import { routes } from '../../shared/http/declarations';

type Resource = { Type: string; Properties?: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;

beforeAll(() => {
  // Every stack's resources as one template (the key in the root, the functions in nested stacks).
  ({ stack, resources } = synthesizedApp());
});

const logicalId = (c: IConstruct): string => Stack.of(stack).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
const keyArn = { 'Fn::GetAtt': [SIGNING_SECRETS_KEY_LOGICAL_ID, 'Arn'] };

/** Every function of the stack by its name (area or consumer). */
const functions = () => ({ ...stack.areaFunctions.functions, ...stack.consumerFunctions }) as Record<string, IConstruct>;

/** KMS actions granted on the key by any IAM policy attached to the given role. */
function kmsActionsOfRole(roleId: string): string[] {
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties?.Roles as { Ref: string }[]).some((x) => x.Ref === roleId))
    .flatMap((p) => p.Properties!.PolicyDocument.Statement as Statement[])
    .filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')))
    .flatMap((s) => {
      expect(s.Effect).toBe('Allow');
      expect([s.Resource].flat()).toEqual([keyArn]);
      return [s.Action].flat();
    });
}

const roleOf = (fn: IConstruct): string => (resources[logicalId(fn)]!.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];

describe('the signing-secrets key', () => {
  it('is a customer-managed symmetric KMS key with automatic rotation, kept when the stack goes', () => {
    const key = resources[SIGNING_SECRETS_KEY_LOGICAL_ID]!;
    expect(key.Type).toBe('AWS::KMS::Key');
    expect(key.Properties!.EnableKeyRotation).toBe(true);
    // Symmetric (the default spec): GenerateDataKey needs a symmetric key.
    expect(key.Properties!.KeySpec).toBeUndefined();
    expect((key as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
  });

  it('only the signing functions may unwrap (Decrypt); only the functions that create or rotate secrets make data keys', () => {
    const byFunction = Object.fromEntries(Object.entries(functions()).map(([name, fn]) => [name, kmsActionsOfRole(roleOf(fn)).sort()]));
    const holding = Object.fromEntries(Object.entries(byFunction).filter(([, actions]) => actions.length > 0));
    expect(holding).toEqual({
      webhooks: ['kms:GenerateDataKey'],
      exports: ['kms:GenerateDataKey'],
      'webhook-worker': ['kms:Decrypt'],
      'export-notify': ['kms:Decrypt'],
    });
  });

  it('no other role of the stack holds any KMS action, and the holders are told the key', () => {
    const signing = new Set(['webhooks', 'exports', 'webhook-worker', 'export-notify'].map((n) => roleOf(functions()[n]!)));
    const roles = Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::IAM::Role')
      .map(([id]) => id);
    for (const role of roles.filter((r) => !signing.has(r))) expect(kmsActionsOfRole(role), role).toEqual([]);
    for (const [name, fn] of Object.entries(functions())) {
      const env = resources[logicalId(fn)]!.Properties!.Environment?.Variables ?? {};
      expect(env.SIGNING_SECRETS_KEY_ARN, name).toEqual(signing.has(roleOf(fn)) ? keyArn : undefined);
    }
  });
});

describe('CORS preflight routes', () => {
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

  it('only the consumer routes have an OPTIONS route, integrated with the function of their area', () => {
    const consumerPaths = [...new Set(routes.filter((r) => r.auth.includes('consumer')).map((r) => r.path))];
    expect(consumerPaths).toEqual([
      '/api/consumer/rewards',
      '/api/consumer/rewards/{id}/redemptions',
      '/api/consumer/redemptions',
      '/api/consumer/wallet/issue',
    ]);
    const apiRoutes = ofType('AWS::ApiGatewayV2::Route');
    const options = apiRoutes.filter(([, r]) => String(r.Properties!.RouteKey).startsWith('OPTIONS '));
    expect(options.map(([, r]) => r.Properties!.RouteKey)).toEqual(consumerPaths.map((p) => `OPTIONS ${p}`));
    // Each preflight goes to the function of its path's routes.
    const functionOf = (key: string, area: keyof typeof stack.areaFunctions.functions) => {
      const route = apiRoutes.find(([, r]) => r.Properties!.RouteKey === key)!;
      const integrationId = JSON.stringify(route[1].Properties!.Target).match(/"Ref":"(\w+)"/)?.[1];
      expect(JSON.stringify(resources[integrationId!]!.Properties!.IntegrationUri), key).toContain(logicalId(stack.areaFunctions.functions[area]));
      return route[1].Properties!.Target;
    };
    for (const [path, method, area] of [
      ['/api/consumer/rewards', 'GET', 'rewards'],
      ['/api/consumer/rewards/{id}/redemptions', 'POST', 'rewards'],
      ['/api/consumer/redemptions', 'GET', 'rewards'],
      ['/api/consumer/wallet/issue', 'POST', 'wallet-passes'],
    ] as const) {
      expect(functionOf(`OPTIONS ${path}`, area), path).toEqual(functionOf(`${method} ${path}`, area));
    }
  });

  it('the HTTP API has no API-wide CORS configuration', () => {
    const [api] = ofType('AWS::ApiGatewayV2::Api');
    expect(api![1].Properties!.CorsConfiguration).toBeUndefined();
  });
});
