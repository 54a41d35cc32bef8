import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type CfnResource, Duration, Fn, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { config } from '../../../shared/platform/config';
import { templateRef } from './template-ref';
import { buildConsoleSync, CONSOLE_ASSETS_PATH, CONSOLE_PATH, consoleContentSecurityPolicy, type ConsoleBuild } from '../../build/console';

/** Where the page lives in the bucket; every console address that is not an asset is answered with it. */
export const CONSOLE_PAGE_KEY = `${CONSOLE_PATH.slice(1)}/index.html`;

/**
 * Runs at the edge before the API is asked: API Gateway must get its own host as `Host`, so the
 * viewer's goes along as `X-Forwarded-Host` (the origin links and the CSRF Origin check are made of).
 */
export const FORWARDED_HOST_FUNCTION = [
  'function handler(event) {',
  '  var request = event.request;',
  "  request.headers['x-forwarded-host'] = { value: request.headers.host.value };",
  '  return request;',
  '}',
].join('\n');

/**
 * Runs at the edge before the bucket is asked: the console routes in the browser, so any address
 * under /console that is not a hashed asset is the page.
 */
export const CONSOLE_PATHS_FUNCTION = [
  'function handler(event) {',
  '  var request = event.request;',
  `  if (request.uri.indexOf('${CONSOLE_ASSETS_PATH}') !== 0) request.uri = '/${CONSOLE_PAGE_KEY}';`,
  '  return request;',
  '}',
].join('\n');

export interface ConsoleHostingProps {
  readonly httpApi: apigw.HttpApi;
  /** Sent to the API with every request as `config.http.originVerifyHeader`: the API trusts X-Forwarded-Host only with it. */
  readonly originVerifySecret: secretsmanager.ISecret;
  /** The API's own domain (`apiOriginDomain`, regional name) when its default endpoint is disabled. */
  readonly originHost?: string;
  /** Where the export bucket's presigned links point (an origin, wildcards allowed): the console PUTs import files there. */
  readonly uploadOrigin: string;
}

/**
 * The logical id CDK gives its deployment-time copier (BucketDeployment's function, one per stack):
 * the one function of the platform that is not an area or a consumer.
 */
export const CONSOLE_COPIER_ID_PREFIX = 'CustomCDKBucketDeployment';

/** Pinned like the HTTP API's: the distribution's id is its address, the bucket's its name. */
export const CONSOLE_DISTRIBUTION_LOGICAL_ID = 'ConsoleDistribution';
export const CONSOLE_BUCKET_LOGICAL_ID = 'ConsoleFiles';

/**
 * The console and the one origin for people and programs, in the root stack next to the HTTP API
 * (a replaced distribution would change the address everyone uses). A CloudFront distribution answers the
 * console's static files from a private bucket (origin access control: only this distribution may
 * read it) and sends every other path (the API, the reference page) to the HTTP API, so the session
 * cookie, the CSP's 'self' and the CSRF Origin check all see one origin.
 */
export class ConsoleHosting extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: ConsoleHostingProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Files', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Only build output: every deployment writes it again.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    (this.bucket.node.defaultChild as s3.CfnBucket).overrideLogicalId(CONSOLE_BUCKET_LOGICAL_ID);
    const files: cloudfront.BehaviorOptions = {
      origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      compress: true,
      responseHeadersPolicy: this.consoleHeaders(props.uploadOrigin),
      functionAssociations: [
        {
          eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
          function: new cloudfront.Function(this, 'ConsolePaths', {
            code: cloudfront.FunctionCode.fromInline(CONSOLE_PATHS_FUNCTION),
            runtime: cloudfront.FunctionRuntime.JS_2_0,
            comment: 'Console addresses that are not assets get the page',
          }),
        },
      ],
    };
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Loyalty platform: console, reference page and API on one origin',
      defaultBehavior: {
        // The API's own domain, else its default host (https://<id>.execute-api.<region>.amazonaws.com) without the scheme.
        // CloudFront replaces a header of that name the viewer sent: only the distribution can send the secret.
        origin: new origins.HttpOrigin(props.originHost ?? Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint)), {
          customHeaders: { [config.http.originVerifyHeader]: props.originVerifySecret.secretValue.unsafeUnwrap() },
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'ForwardedHost', {
              code: cloudfront.FunctionCode.fromInline(FORWARDED_HOST_FUNCTION),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
              comment: "The viewer's host for the API, as X-Forwarded-Host",
            }),
          },
        ],
      },
      additionalBehaviors: { [CONSOLE_PATH]: files, [`${CONSOLE_PATH}/*`]: files },
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    });
    (this.distribution.node.defaultChild as cloudfront.CfnDistribution).overrideLogicalId(CONSOLE_DISTRIBUTION_LOGICAL_ID);
    this.deploy(buildConsoleSync());
    this.acknowledgeFindings();
  }

  /** What the security checks find here, each with why it stands. */
  private acknowledgeFindings(): void {
    Validations.of(this.bucket.node.defaultChild as CfnResource).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Holds only the console build, public by nature and written by each deployment; only the distribution may read it (OAC).',
    });
    Validations.of(this.distribution.node.defaultChild as CfnResource).acknowledge(
      {
        id: 'AwsSolutions-CFR3',
        reason: 'API requests are logged by the HTTP API access log and the audit trail; the console files are the same for everyone.',
      },
      {
        id: 'AwsSolutions-CFR1',
        reason: "A merchant's members and staff may be anywhere; the platform does not decide which countries they may be in.",
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'Abuse is bounded behind it: API Gateway throttles per route, sign-ins are throttled per e-mail, writes need credentials. ' +
          'A web ACL is a per-deployment choice (cost, rules) that an operator attaches to the distribution.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default cloudfront.net certificate has a fixed security policy; an operator who sets a custom domain and certificate sets TLS 1.2 with it.',
      },
    );
    // CDK's own function that copies the build into the bucket (one per stack, runs at deployment only).
    const copier = Stack.of(this).node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!copier) return;
    const why = "CDK's deployment-time function that copies the console build into its bucket: its runtime, role and policy are CDK's own.";
    const byType: Record<string, string[]> = {
      'AWS::Lambda::Function': ['AwsSolutions-L1', 'Serverless-LambdaDLQ', 'Serverless-LambdaLatestVersion', 'Serverless-LambdaTracing'],
      'AWS::IAM::Role': ['AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]'],
      'AWS::IAM::Policy': [
        'AwsSolutions-IAM5[Action::s3:Abort*]',
        'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
        'AwsSolutions-IAM5[Action::s3:GetBucket*]',
        'AwsSolutions-IAM5[Action::s3:GetObject*]',
        'AwsSolutions-IAM5[Action::s3:List*]',
        'AwsSolutions-IAM5[Resource::*]',
        `AwsSolutions-IAM5[Resource::${templateRef(this, this.bucket.node.defaultChild as CfnResource, 'Arn')}/*]`,
        'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
      ],
    };
    for (const c of copier.node.findAll()) {
      const ids = byType[(c as CfnResource).cfnResourceType];
      if (ids) Validations.of(c as CfnResource).acknowledge(...ids.map((id) => ({ id, reason: why })));
    }
  }

  /** The page's CSP (the one the local runtime sends) and the usual hardening headers, on every console file. */
  private consoleHeaders(uploadOrigin: string): cloudfront.ResponseHeadersPolicy {
    return new cloudfront.ResponseHeadersPolicy(this, 'ConsoleHeaders', {
      comment: 'Console: strict CSP, no framing, no sniffing, HSTS',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: consoleContentSecurityPolicy(uploadOrigin), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.SAME_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
  }

  /** Hashed assets cached for a year; the page always checked again (its name never changes). */
  private deploy(build: ConsoleBuild): void {
    const staged = mkdtempSync(join(tmpdir(), 'loyalty-console-'));
    const write = (dir: string, key: string, body: Buffer) => {
      mkdirSync(dirname(join(staged, dir, key)), { recursive: true });
      writeFileSync(join(staged, dir, key), body);
    };
    for (const [path, f] of build.files) write(f.immutable ? 'assets' : 'page', f.immutable ? path.slice(1) : CONSOLE_PAGE_KEY, f.body);
    const assets = new s3deploy.BucketDeployment(this, 'Assets', {
      destinationBucket: this.bucket,
      sources: [s3deploy.Source.asset(join(staged, 'assets'))],
      cacheControl: [s3deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
      // Older hashed files stay: a page still open in a browser may ask for them.
      prune: false,
    });
    const page = new s3deploy.BucketDeployment(this, 'Page', {
      destinationBucket: this.bucket,
      sources: [s3deploy.Source.asset(join(staged, 'page'))],
      cacheControl: [s3deploy.CacheControl.fromString('no-cache')],
      prune: false,
      distribution: this.distribution,
      distributionPaths: [CONSOLE_PATH, `${CONSOLE_PATH}/*`],
    });
    // The new page names the new assets: they are in place before it.
    page.node.addDependency(assets);
  }
}
