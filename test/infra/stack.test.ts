import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { isCorsRoute, preflightRouteKey } from '../../shared/http/cors-routes';
import { REQUIRED_FUNCTION_ENV } from '../../shared/platform/config';
import { TABLE_SCHEMA } from '../../shared/platform/data/table-schema';
import { config } from '../../shared/platform/config';
import { ACCESS_LOG_FORMAT } from '../../infra/app/constructs/api';
import { PROJECT_ROOT } from '../../infra/app/constructs/area-functions';
import { POWERTOOLS_LAYER_PARAMETER, POWERTOOLS_VERSION } from '../../infra/app/constructs/platform-function';
import { TABLE_LOGICAL_ID } from '../../infra/app/constructs/data';
import { TABLE_ACTIONS } from '../../infra/app/constructs/access';
import { AREAS, declarationOf, type Area, routeKey, routes } from '../../shared/http/declarations';
import { queueUrlEnvName } from '../../shared/platform/ports/queue';

/** Functions outside the route table: the rows of the consumer table (functions/<name>/handler.ts). */
const CONSUMER_FUNCTIONS = CONSUMERS.map((c) => c.name as string);
import { synthesizedApp } from '../support/synthesized-app';
import { buildApp, type LoyaltyPlatformStack } from '../../infra/app/stack';
import { CONSUMERS } from '../../shared/platform/consumers/table';
import { platformFunctions } from './templates';
import { CONSOLE_COPIER_ID_PREFIX } from '../../infra/app/constructs/console-hosting';

type Resource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

let stack: LoyaltyPlatformStack;
let template: Template;
let resources: Record<string, Resource>;

const ofType = (type: string): [string, Resource][] => Object.entries(resources).filter(([, r]) => r.Type === type);

const logicalId = (construct: { node: { defaultChild?: unknown } }): string =>
  Stack.of(stack).resolve((construct.node.defaultChild as CfnElement).logicalId) as string;

/** `{ Ref: X }` -> X */
const refOf = (value: unknown): string => {
  expect(value).toEqual({ Ref: expect.any(String) });
  return (value as { Ref: string }).Ref;
};

/** `{ 'Fn::GetAtt': [X, attr] }` -> X */
const getAttOf = (value: unknown, attr: string): string => {
  expect(value).toEqual({ 'Fn::GetAtt': [expect.any(String), attr] });
  return (value as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
};

/** Route Target `integrations/<Ref Integration>` -> function logical id of its IntegrationUri. */
const functionOfRoute = (route: Resource): string => {
  const target = route.Properties?.Target as { 'Fn::Join': [string, unknown[]] };
  expect(target['Fn::Join'][0]).toBe('');
  const [prefix, ref] = target['Fn::Join'][1];
  expect(prefix).toBe('integrations/');
  const integration = resources[refOf(ref)];
  expect(integration?.Type).toBe('AWS::ApiGatewayV2::Integration');
  expect(integration?.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  return getAttOf(integration?.Properties?.IntegrationUri, 'Arn');
};

const functionIdOf = (area: Area): string => logicalId(stack.areaFunctions.functions[area]);

beforeAll(() => {
  // The worker's one synthesis, without bundling: every function's bundle (format, size, what it
  // leaves out, parity with what CDK ships) is the subject of test/infra/bundle-budget.test.ts.
  const built = synthesizedApp();
  stack = built.stack;
  template = Template.fromJSON(built.templates.merged, { skipCyclicalDependenciesCheck: true });
  resources = template.toJSON().Resources as Record<string, Resource>;
});

describe('edge of the API', () => {
  it('throttles the stage by default and the credential endpoints by their declared profile', () => {
    const [, stage] = ofType('AWS::ApiGatewayV2::Stage')[0]!;
    expect(stage.Properties?.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: config.throttle.default.ratePerSecond,
      ThrottlingBurstLimit: config.throttle.default.burst,
    });
    const throttled = routes.filter((r) => r.throttle);
    expect(throttled.map((r) => r.operationId).sort()).toEqual([
      'acceptInvitation',
      'completeMfaBrowserSession',
      'completeMfaLogin',
      'forgotPassword',
      'login',
      'previewInvitation',
      'register',
      'resetPassword',
      'startBrowserSession',
    ]);
    const settings = stage.Properties?.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    expect(Object.keys(settings).sort()).toEqual(throttled.map(routeKey).sort());
    for (const r of throttled) {
      expect(settings[routeKey(r)]).toMatchObject({
        ThrottlingRateLimit: config.throttle[r.throttle!].ratePerSecond,
        ThrottlingBurstLimit: config.throttle[r.throttle!].burst,
      });
    }
    expect(config.throttle.credentialAttempts.ratePerSecond).toBeLessThan(config.throttle.default.ratePerSecond);
  });

  it('answers no CORS preflight (server-to-server API with secret keys)', () => {
    const [, api] = ofType('AWS::ApiGatewayV2::Api')[0]!;
    expect(api.Properties?.CorsConfiguration).toBeUndefined();
  });
});

describe('routes', () => {
  const routeResources = (): [string, Resource][] => ofType('AWS::ApiGatewayV2::Route');
  const routesByKey = (): Map<string, Resource[]> => {
    const map = new Map<string, Resource[]>();
    for (const [, r] of routeResources()) {
      const key = r.Properties?.RouteKey as string;
      map.set(key, [...(map.get(key) ?? []), r]);
    }
    return map;
  };

  it('the route table has entries and unique route keys', () => {
    expect(routes.length).toBeGreaterThan(0);
    expect(new Set(routes.map(routeKey)).size).toBe(routes.length);
  });

  it.each(routes.map((r) => [routeKey(r), r.area] as const))('%s exists once and is integrated with the %s function', (key, area) => {
    const found = routesByKey().get(key) ?? [];
    expect(found).toHaveLength(1);
    const fnId = functionOfRoute(found[0]!);
    expect(fnId).toBe(functionIdOf(area));
    // Cross-check from the template alone: the function carries its area as service name.
    expect(resources[fnId]?.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME).toBe(area);
  });

  it('$default goes to the system function', () => {
    const found = routesByKey().get('$default') ?? [];
    expect(found).toHaveLength(1);
    expect(functionOfRoute(found[0]!)).toBe(functionIdOf('system'));
  });

  it('there are no routes besides the route table, the CORS preflights of its consumer routes and $default', () => {
    const preflights = new Set(routes.filter(isCorsRoute).map((r) => preflightRouteKey(r.path)));
    const expected = [...routes.map(routeKey), ...preflights, '$default'].sort();
    expect(
      routeResources()
        .map(([, r]) => r.Properties?.RouteKey as string)
        .sort(),
    ).toEqual(expected);
  });

  it('no route has an API Gateway authorizer (auth happens in the functions)', () => {
    for (const [, r] of routeResources()) {
      expect(r.Properties?.AuthorizerId).toBeUndefined();
      expect(r.Properties?.AuthorizationType ?? 'NONE').toBe('NONE');
    }
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
  });

  it('all routes belong to the single HTTP API', () => {
    const apis = ofType('AWS::ApiGatewayV2::Api');
    expect(apis).toHaveLength(1);
    expect(apis[0]![1].Properties?.ProtocolType).toBe('HTTP');
    for (const [, r] of routeResources()) expect(refOf(r.Properties?.ApiId)).toBe(apis[0]![0]);
  });

  it('API Gateway may invoke each routed function, and the system function from $default', () => {
    const apiId = ofType('AWS::ApiGatewayV2::Api')[0]![0];
    const permissions = ofType('AWS::Lambda::Permission').map(([, p]) => p.Properties!);
    const routedAreas = new Set<Area>([...routes.map((r) => r.area), 'system']);
    for (const area of routedAreas) {
      const mine = permissions.filter((p) => getAttOf(p.FunctionName, 'Arn') === functionIdOf(area));
      expect(mine.length, area).toBeGreaterThan(0);
      const suffixes: unknown[] = [];
      for (const p of mine) {
        expect(p.Action).toBe('lambda:InvokeFunction');
        expect(p.Principal).toBe('apigateway.amazonaws.com');
        const parts = p.SourceArn['Fn::Join'][1] as unknown[];
        expect(parts).toContainEqual({ Ref: apiId });
        suffixes.push(parts.at(-1));
      }
      if (area === 'system') {
        // `$default` is invoked as <api>/<stage>/$default: only `*/*` matches it. The fallback keeps
        // per-route permissions, so its own routes (GET /api/v2/openapi.json) get one each.
        expect(suffixes).toContain('/*/*');
        const own = routes.filter((r) => r.area === 'system').map((r) => `/*/*${r.path}`);
        for (const s of suffixes) expect(['/*/*', ...own]).toContain(s);
      } else {
        for (const s of suffixes) expect(s, area).toBe('/*/*/*');
      }
    }
  });
});

describe('stage and access logs', () => {
  it('has the auto-deployed $default stage with detailed metrics', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { DetailedMetricsEnabled: true },
    });
  });

  it('writes a JSON access log to a log group with retention', () => {
    const [, stage] = ofType('AWS::ApiGatewayV2::Stage')[0]!;
    const settings = stage.Properties?.AccessLogSettings;
    const format = JSON.parse(settings.Format as string) as Record<string, string>;
    expect(format).toEqual(ACCESS_LOG_FORMAT);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      latencyMs: '$context.responseLatency',
      ip: '$context.identity.sourceIp',
    });
    const logGroup = resources[getAttOf(settings.DestinationArn, 'Arn')];
    expect(logGroup?.Type).toBe('AWS::Logs::LogGroup');
    expect(logGroup?.Properties?.RetentionInDays).toBe(config.lambda.logRetentionDays);
  });

  it('outputs the API URL', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(getAttOf(outputs.ApiUrl?.Value, 'ApiEndpoint')).toBe(ofType('AWS::ApiGatewayV2::Api')[0]![0]);
  });
});

describe('functions', () => {
  const fns = (): [string, Resource][] => platformFunctions(resources);

  it.each(AREAS.map((a) => [a]))('area %s has a handler file and a function', (area) => {
    expect(existsSync(join(PROJECT_ROOT, 'functions', area, 'handler.ts'))).toBe(true);
    expect(resources[functionIdOf(area)]?.Type).toBe('AWS::Lambda::Function');
  });

  it('has exactly one function per area plus one per row of the consumer table, and no other custom-resource function than the console copier', () => {
    expect(fns()).toHaveLength(AREAS.length + CONSUMER_FUNCTIONS.length);
    const services = fns().map(([, f]) => f.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME);
    expect([...services].sort()).toEqual([...AREAS, ...CONSUMER_FUNCTIONS].sort());
    // The one exception: CDK's BucketDeployment, which copies the console build into its bucket at deployment.
    const copiers = ofType('AWS::Lambda::Function').filter(([id]) => id.startsWith(CONSOLE_COPIER_ID_PREFIX));
    expect(copiers).toHaveLength(1);
    expect(ofType('AWS::CloudFormation::CustomResource')).toHaveLength(0);
    const custom = Object.values(resources).filter((r) => r.Type.startsWith('Custom::'));
    expect(custom.map((r) => r.Type)).toEqual(['Custom::CDKBucketDeployment', 'Custom::CDKBucketDeployment']);
    for (const r of custom) expect(JSON.stringify(r.Properties?.ServiceToken)).toContain(copiers[0]![0]);
    // Its layers (the AWS CLI it copies with; CDK makes one per deployment) are the console's alone.
    const layers = ofType('AWS::Lambda::LayerVersion').map(([id]) => id);
    expect(layers.length).toBeGreaterThan(0);
    for (const id of layers) expect(id).toMatch(/^Console(Assets|Page)AwsCliLayer/);
    expect(layers.some((id) => JSON.stringify(copiers[0]![1].Properties?.Layers).includes(id))).toBe(true);
  });

  it('every Lambda function runs nodejs24.x on arm64 with the configured size', () => {
    for (const [id, f] of fns()) {
      expect(f.Properties, id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: config.lambda.memoryMiB,
      });
      // Background consumers have their row's timeout (the webhook worker config.webhooks.workerTimeoutSeconds,
      // webhooks.test.ts; the long export steps Lambda's maximum); every other function the configured one.
      const row = CONSUMERS.find((c) => c.name === f.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME);
      expect(f.Properties?.Timeout, id).toBe(row ? row.timeoutSeconds : config.lambda.timeoutSeconds);
    }
  });

  it('every function gets PUBLIC_BASE_URL and none runs in a VPC', () => {
    const apiId = ofType('AWS::ApiGatewayV2::Api')[0]![0];
    for (const [id, f] of fns()) {
      expect(getAttOf(f.Properties?.Environment?.Variables?.PUBLIC_BASE_URL, 'ApiEndpoint'), id).toBe(apiId);
      expect(f.Properties?.VpcConfig, id).toBeUndefined();
    }
  });

  it.each(AREAS.map((a) => [a]))('%s has the runtime environment', (area) => {
    const vars = resources[functionIdOf(area)]?.Properties?.Environment?.Variables as Record<string, unknown>;
    for (const name of REQUIRED_FUNCTION_ENV) expect(vars, name).toHaveProperty(name);
    expect(vars).toMatchObject({
      STAGE: 'aws',
      TABLE_NAME: { Ref: TABLE_LOGICAL_ID },
      MAIL_FROM: expect.stringMatching(/^[^@\s]+@[^@\s]+$/),
      POWERTOOLS_SERVICE_NAME: area,
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect(getAttOf(vars.PUBLIC_BASE_URL, 'ApiEndpoint')).toBe(ofType('AWS::ApiGatewayV2::Api')[0]![0]);
  });

  it.each(AREAS.map((a) => [a]))('%s logs to its own retained log group with retention', (area) => {
    const fn = resources[functionIdOf(area)]!;
    const logGroupId = refOf(fn.Properties?.LoggingConfig?.LogGroup);
    const logGroup = resources[logGroupId]!;
    expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
    expect(logGroup.Properties?.RetentionInDays).toBe(config.lambda.logRetentionDays);
    expect(logGroup.DeletionPolicy).toBe('Retain');
    const others = AREAS.filter((a) => a !== area).map((a) => resources[functionIdOf(a)]?.Properties?.LoggingConfig?.LogGroup?.Ref);
    expect(others).not.toContain(logGroupId);
  });

  it('every function is traced and carries the Powertools layer of the version it was bundled against', () => {
    // The tracer is left out of the bundles and loaded from the layer: without it tracing stays off.
    const [parameterId] = Object.entries(template.toJSON().Parameters as Record<string, { Type: string; Default: string }>).find(
      ([, p]) => p.Default === POWERTOOLS_LAYER_PARAMETER,
    )!;
    expect(POWERTOOLS_LAYER_PARAMETER).toBe(`/aws/service/powertools/typescript/generic/all/${POWERTOOLS_VERSION}`);
    expect(POWERTOOLS_VERSION).toMatch(/^2\.\d+\.\d+$/);
    const functions = platformFunctions(resources);
    expect(functions.length).toBe(AREAS.length + CONSUMER_FUNCTIONS.length);
    for (const [id, fn] of functions) {
      expect(fn.Properties?.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect(fn.Properties?.Layers, id).toEqual([{ Ref: parameterId }]);
    }
  });

  it('every log group has a retention', () => {
    for (const [id, lg] of ofType('AWS::Logs::LogGroup')) {
      expect(lg.Properties?.RetentionInDays, id).toBe(config.lambda.logRetentionDays);
    }
  });
});

describe('least privilege', () => {
  type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
  const statementsOf = (area: Area): Statement[] => {
    const roleId = getAttOf(resources[functionIdOf(area)]?.Properties?.Role, 'Arn');
    return ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties?.Roles as unknown[]).some((r) => refOf(r) === roleId))
      .flatMap(([, p]) => p.Properties?.PolicyDocument.Statement as Statement[]);
  };
  const actionsOf = (area: Area): string[] => statementsOf(area).flatMap((s) => [s.Action].flat());

  it('no role uses managed policies (but the console copier of CDK, acknowledged there)', () => {
    for (const [id, role] of ofType('AWS::IAM::Role')) {
      if (id.startsWith(CONSOLE_COPIER_ID_PREFIX)) continue;
      expect(role.Properties?.ManagedPolicyArns, id).toBeUndefined();
    }
  });

  it.each(AREAS.map((a) => [a]))('%s gets exactly the table actions its declaration names, and writes its own logs', (area) => {
    const actions = actionsOf(area);
    expect(new Set(actions.filter((a) => a.startsWith('dynamodb:')))).toEqual(new Set(TABLE_ACTIONS[declarationOf(area).access.table]));
    expect(actions).toEqual(expect.arrayContaining(['logs:CreateLogStream', 'logs:PutLogEvents']));
    const logs = statementsOf(area).find((s) => [s.Action].flat().includes('logs:PutLogEvents'))!;
    const ownLogGroup = refOf(resources[functionIdOf(area)]?.Properties?.LoggingConfig?.LogGroup);
    expect(getAttOf(logs.Resource, 'Arn')).toBe(ownLogGroup);
    for (const s of statementsOf(area)) expect(s.Action).not.toBe('*');
  });

  it.each(AREAS.map((a) => [a]))('%s may send only to the queues its declaration names', (area) => {
    const sends = statementsOf(area).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    const declared = declarationOf(area).access.sendsTo ?? [];
    expect(sends).toHaveLength(declared.length);
    const env = resources[functionIdOf(area)]?.Properties?.Environment?.Variables ?? {};
    expect(
      Object.keys(env)
        .filter((k) => k.startsWith('QUEUE_URL_'))
        .sort(),
    ).toEqual(declared.map(queueUrlEnvName).sort());
  });

  it('no function gets Scan, DescribeTable or a dynamodb:* wildcard', () => {
    const all = ofType('AWS::IAM::Policy').flatMap(([, p]) => (p.Properties?.PolicyDocument.Statement as Statement[]).flatMap((s) => [s.Action].flat()));
    expect(all.length).toBeGreaterThan(0);
    for (const action of ['dynamodb:Scan', 'dynamodb:DescribeTable', 'dynamodb:*']) expect(all).not.toContain(action);
  });

  it('the system function (404/405 and the OpenAPI document) has no table access at all', () => {
    expect(declarationOf('system').access.table).toBe('none');
    expect(actionsOf('system').filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
  });

  it('only the areas that declare mail (auth, team) may send e-mail, only from MAIL_FROM', () => {
    const senders = AREAS.filter((area) => declarationOf(area).access.mail);
    expect(senders.sort()).toEqual(['auth', 'team']);
    for (const area of AREAS) {
      const sends = statementsOf(area).filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
      if (senders.includes(area)) {
        expect(sends).toHaveLength(1);
        expect(sends[0]!.Action).toBe('ses:SendEmail');
        expect(sends[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': stack.mail.fromAddress } });
      } else {
        expect(sends, area).toHaveLength(0);
      }
    }
  });
});

describe('table', () => {
  it('is the only table, with the pinned logical id', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    expect(resources[TABLE_LOGICAL_ID]?.Type).toBe('AWS::DynamoDB::Table');
    expect(logicalId(stack.data.table)).toBe(TABLE_LOGICAL_ID);
  });

  it('keys, GSIs, TTL, stream, PITR, encryption, deletion protection', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE_SCHEMA.gsis.map((g) => ({
        IndexName: g.indexName,
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
    });
    expect(TABLE_SCHEMA.gsis.map((g) => g.indexName)).toEqual(['gsi1', 'gsi2', 'gsi3']);
  });

  it('all key attributes are strings', () => {
    const defs = resources[TABLE_LOGICAL_ID]?.Properties?.AttributeDefinitions as { AttributeName: string; AttributeType: string }[];
    const names = [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey, ...TABLE_SCHEMA.gsis.flatMap((g) => [g.partitionKey, g.sortKey])];
    expect(defs.map((d) => d.AttributeName).sort()).toEqual([...names].sort());
    for (const d of defs) expect(d.AttributeType).toBe('S');
  });

  it('is retained on delete and on replacement', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('synthesis', () => {
  it('emits no CDK warnings or errors', () => {
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
    expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
  });

  it('stays far below the CloudFormation resource limit', () => {
    // One route per endpoint plus a few resources per area; alert long before 500. The limit holds per
    // template: the root's and each nested stack's.
    const { templates } = synthesizedApp();
    for (const t of [templates.root, ...Object.values(templates.nested)]) expect(Object.keys(t.Resources).length).toBeLessThan(400);
  });
});

describe('concurrency and request budgets of the area functions', () => {
  /** The account's default Lambda concurrency limit, and what AWS keeps unreserved in any account. */
  const ACCOUNT_DEFAULT_LIMIT = 1000;
  const UNRESERVED_MINIMUM = 100;

  it('every area function reserves the declared share, and all reservations leave the unreserved minimum of a default account', () => {
    for (const area of AREAS) {
      expect(resources[functionIdOf(area)]?.Properties?.ReservedConcurrentExecutions, area).toBe(config.lambda.areaReservedConcurrency);
    }
    const reserved = ofType('AWS::Lambda::Function').reduce((sum, [, f]) => sum + Number(f.Properties?.ReservedConcurrentExecutions ?? 0), 0);
    expect(reserved).toBe(AREAS.length * config.lambda.areaReservedConcurrency);
    expect(reserved + UNRESERVED_MINIMUM).toBeLessThanOrEqual(ACCOUNT_DEFAULT_LIMIT);
  });

  it.each(AREAS.map((a) => [a]))('%s reads the request budgets from its environment, the static numbers', (area) => {
    const vars = resources[functionIdOf(area)]?.Properties?.Environment?.Variables as Record<string, unknown>;
    expect(vars).toMatchObject({
      WORKSPACE_READ_PER_SECOND: String(config.workspaceRate.read),
      WORKSPACE_WRITE_PER_SECOND: String(config.workspaceRate.write),
      SANDBOX_READ_PER_SECOND: String(config.workspaceRate.sandboxRead),
      SANDBOX_WRITE_PER_SECOND: String(config.workspaceRate.sandboxWrite),
      WORKSPACE_RATE_TIMEOUT_MS: String(config.workspaceRate.timeoutMs),
    });
    expect(vars).not.toHaveProperty('WORKSPACE_RATE_LIMITS');
  });

  it('workspaces with budgets of their own come from the workspaceRateLimits context, checked at synthesis', () => {
    const own = { ws_a: { read: 500, write: 200 } };
    const { stack: withOwn } = buildApp({ context: { 'aws:cdk:bundling-stacks': [], workspaceRateLimits: JSON.stringify(own) } });
    const fn = withOwn.areaFunctions.functions.orders.node.defaultChild as CfnElement;
    const vars = (Stack.of(fn).resolve((fn as unknown as { environment: unknown }).environment) as { variables: Record<string, string> }).variables;
    expect(JSON.parse(vars.WORKSPACE_RATE_LIMITS!)).toEqual(own);
    expect(() => buildApp({ context: { 'aws:cdk:bundling-stacks': [], workspaceRateLimits: '{"ws_a":{"read":0}}' } })).toThrow(/WORKSPACE_RATE_LIMITS must be/);
  });
});
