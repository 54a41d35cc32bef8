import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { config } from '../../../shared/platform/config';
import { AREAS, type Area, routeKey, routes } from '../../../shared/http/declarations';
import { isCorsRoute, preflightRouteKey } from '../../../shared/http/cors-routes';
import { LOG_RETENTION } from './platform-function';

export interface ApiProps {
  /** The HTTP API itself (`createHttpApi`, in the root stack). */
  readonly httpApi: apigw.IHttpApi;
  /** Area -> function; every area of the route table must be present, plus `system`. */
  readonly functions: Readonly<Record<Area, lambda.IFunction>>;
  /** The API's custom domain for the distribution (`apiOriginDomain`), mapped to the stage here. */
  readonly originDomain?: apigw.IDomainName;
}

/**
 * Logical ID of the HTTP API, pinned (the id its first deployment gave it): the API's id is part of
 * its public URL (`https://<id>.execute-api...`), which clients call, so it never moves or changes.
 */
export const HTTP_API_LOGICAL_ID = 'ApiHttpApi4C294DC0';

/** A custom domain of the HTTP API for the distribution to reach it by, with its regional certificate. */
export interface ApiOriginDomain {
  readonly domainName: string;
  readonly certificateArn: string;
}

/**
 * The HTTP API (payload 2.0), in the root stack; routes, stage and access log are `Api`'s. With an
 * origin domain (`apiOriginDomain`), API Gateway's default `execute-api` endpoint is disabled: the
 * API answers only on that domain, which only the distribution uses.
 */
export function createHttpApi(scope: Construct, origin?: ApiOriginDomain): apigw.HttpApi {
  const httpApi = new apigw.HttpApi(scope, 'HttpApi', {
    disableExecuteApiEndpoint: origin !== undefined,
    description: 'Loyalty platform API',
    // No CORS: the API is called server to server with secret keys, which must never sit in a
    // browser, so API Gateway answers no preflight and browsers refuse cross-origin calls. The
    // member-portal embed gets its own origin list when its consumer routes land.
    corsPreflight: undefined,
    // The stage is created by `Api` with access logging; the default stage cannot take those options.
    createDefaultStage: false,
  });
  (httpApi.node.defaultChild as apigw.CfnApi).overrideLogicalId(HTTP_API_LOGICAL_ID);
  return httpApi;
}

/** The API's custom domain for the distribution (root stack: its regional name is the distribution's origin); `Api` maps it to the stage. */
export function apiOriginDomain(scope: Construct, origin: ApiOriginDomain): apigw.DomainName {
  return new apigw.DomainName(scope, 'ApiOriginDomain', {
    domainName: origin.domainName,
    certificate: acm.Certificate.fromCertificateArn(scope, 'ApiOriginCertificate', origin.certificateArn),
  });
}

/** Area whose function answers every request no route matches (API Gateway's `$default` route). */
export const FALLBACK_AREA: Area = 'system';

/** JSON access log line per request. Strings everywhere, so an empty value never breaks the JSON. */
export const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  method: '$context.httpMethod',
  path: '$context.path',
  status: '$context.status',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  responseLength: '$context.responseLength',
  ip: '$context.identity.sourceIp',
  protocol: '$context.protocol',
  integrationError: '$context.integrationErrorMessage',
} as const;

const NO_AUTHORIZER_REASON =
  'Authentication and authorisation happen inside the area function, driven by the route table ' +
  '(infra/routes.ts: auth kinds apiKey, session, adminSession, consumer, applePass, public, plus the ' +
  'API-key scope). API keys are looked up by SHA-256 in DynamoDB and sessions are table items, which an ' +
  'API Gateway JWT/IAM authorizer cannot verify; the $default route only returns 404/405 JSON.';

/**
 * The HTTP API's routes (payload 2.0): one route per route-table entry, each integrated with its
 * area's function, and the `$default` route to the `system` function for unknown paths / wrong
 * methods; the `$default` stage with its access log.
 */
export class Api extends Construct {
  readonly httpApi: apigw.IHttpApi;
  readonly stage: apigw.HttpStage;
  readonly accessLogs: logs.LogGroup;
  /** Route key (`GET /api/v2/...`, `$default`) -> route. */
  readonly routes: ReadonlyMap<string, apigw.HttpRoute>;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.httpApi = props.httpApi;

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: LOG_RETENTION,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      // Per-route 4xx/5xx/latency metrics for the operators' dashboard.
      detailedMetricsEnabled: true,
      throttle: { rateLimit: config.throttle.default.ratePerSecond, burstLimit: config.throttle.default.burst },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
      },
    });

    if (props.originDomain) new apigw.ApiMapping(this, 'OriginMapping', { api: this.httpApi, domainName: props.originDomain, stage: this.stage });

    const integrationOf = areaIntegrations(props.functions);

    const byKey = new Map<string, apigw.HttpRoute>();
    const addRoute = (key: string, routeKeyValue: apigw.HttpRouteKey, area: Area): void => {
      if (byKey.has(key)) throw new Error(`Duplicate route in the route table: ${key}`);
      // The construct id follows the route key: a changed operationId or summary never replaces
      // a route (a replacement with an unchanged key would collide with the old route).
      const route = new apigw.HttpRoute(this, key.replaceAll('/', '.'), {
        httpApi: this.httpApi,
        routeKey: routeKeyValue,
        integration: integrationOf(area),
      });
      // On the CfnRoute itself, not the HttpRoute: the API-wide invoke permission is created inside the
      // first route's scope and must not inherit this acknowledgement.
      Validations.of(route.node.defaultChild as apigw.CfnRoute).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: NO_AUTHORIZER_REASON,
      });
      byKey.set(key, route);
    };

    // Routes with a stricter throttle profile get their own route settings; the stage must then be
    // deployed after those routes exist.
    // CloudFormation's own casing: RouteSettings is a free-form map that CDK passes through as is.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number; DetailedMetricsEnabled: boolean }> = {};
    for (const r of routes) {
      addRoute(routeKey(r), apigw.HttpRouteKey.with(r.path, apigw.HttpMethod[r.method]), r.area);
      if (!r.throttle) continue;
      const profile = config.throttle[r.throttle];
      routeSettings[routeKey(r)] = {
        ThrottlingRateLimit: profile.ratePerSecond,
        ThrottlingBurstLimit: profile.burst,
        DetailedMetricsEnabled: true,
      };
      this.stage.node.addDependency(byKey.get(routeKey(r))!);
    }
    // CORS preflights of the consumer routes go to their function; no API-wide CORS configuration,
    // which would answer for every route.
    for (const r of routes.filter(isCorsRoute)) {
      if (!byKey.has(preflightRouteKey(r.path))) addRoute(preflightRouteKey(r.path), apigw.HttpRouteKey.with(r.path, apigw.HttpMethod.OPTIONS), r.area);
    }
    if (Object.keys(routeSettings).length) (this.stage.node.defaultChild as apigw.CfnStage).addPropertyOverride('RouteSettings', routeSettings);
    addRoute('$default', apigw.HttpRouteKey.DEFAULT, FALLBACK_AREA);
    this.routes = byKey;
  }

  /** Base URL of the API (no trailing slash), e.g. `https://abc123.execute-api.eu-west-1.amazonaws.com`. */
  get endpoint(): string {
    return this.httpApi.apiEndpoint;
  }
}

// One integration per area. The routed areas get one invoke permission for the whole API
// (`<api>/*/*/*`) instead of one per route: keeps the function policy small and the stack far
// from CloudFormation's resource limit as the route table grows. `$default` needs its own source
// ARN (`<api>/*/*`), so the fallback keeps the per-route permission.
function areaIntegrations(functions: Readonly<Record<Area, lambda.IFunction>>): (area: Area) => HttpLambdaIntegration {
  const integrations = new Map<Area, HttpLambdaIntegration>();
  for (const area of AREAS) {
    integrations.set(
      area,
      new HttpLambdaIntegration(`${area}-integration`, functions[area], {
        payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
        scopePermissionToRoute: area === FALLBACK_AREA,
      }),
    );
  }
  return (area: Area): HttpLambdaIntegration => {
    const integration = integrations.get(area);
    if (!integration) throw new Error(`No function for area "${area}"`);
    return integration;
  };
}
