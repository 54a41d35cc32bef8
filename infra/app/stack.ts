import { App, type AppProps, Aspects, Aws, CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as events from 'aws-cdk-lib/aws-events';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { alarmEmailOf, config } from '../../shared/platform/config';
import { CONSUMERS } from '../../shared/platform/consumers/table';
import type { QueueName } from '../../shared/platform/ports/queue';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { AlarmTopic, NotifyOnEveryAlarm } from './constructs/alarm-topic';
import type { Api } from './constructs/api';
import { type ApiOriginDomain, apiOriginDomain, createHttpApi } from './constructs/api';
import type { AreaFunctions } from './constructs/area-functions';
import type { Consumers } from './constructs/consumers';
import { Data } from './constructs/data';
import { ExportBucket, type Exports } from './constructs/exports';
import { Mail } from './constructs/mail';
import { SigningSecretsKey } from './constructs/signing-secrets-key';
import type { Observability } from './constructs/observability';
import { Wallet } from './constructs/wallet';
import { ConsoleHosting } from './constructs/console-hosting';
import { Webhooks } from './constructs/webhooks';
import { ApiStack } from './stacks/api-stack';
import { AreasStack } from './stacks/areas-stack';
import { ExportsStack } from './stacks/exports-stack';
import { ObservabilityStack } from './stacks/observability-stack';
import { PipelinesStack } from './stacks/pipelines-stack';
import type { PlatformResources } from './stacks/shared-props';

/** Sender address if neither a prop nor the `mailFrom` context value says otherwise. */
export const DEFAULT_MAIL_FROM = config.mail.defaultFrom;

/** Logical ID of the page cursors' key, pinned (the id its first deployment gave it). */
export const CURSOR_SECRET_LOGICAL_ID = 'CursorSecretABAE1358';
/** Logical ID of the secret our CloudFront distribution proves itself with to the API, pinned. */
export const ORIGIN_VERIFY_SECRET_LOGICAL_ID = 'OriginVerifySecret';

export interface LoyaltyPlatformStackProps extends StackProps {
  /** Plain address the platform sends e-mail from; must be (in) a verified SES identity. */
  readonly mailFrom?: string;
  /**
   * Public base address used in links sent by e-mail (`PUBLIC_BASE_URL`), e.g. a custom domain.
   * @default the API's execute-api endpoint
   */
  readonly publicBaseUrl?: string;
  /** Subscribed to the alarm topic by e-mail. @default none (subscribe chat or paging by hand) */
  readonly alarmEmail?: string;
  /**
   * A domain of the operator's for the HTTP API, that only the distribution uses to reach it:
   * with it API Gateway's default `execute-api` endpoint is disabled, so every request comes
   * through CloudFront. @default none: the distribution reaches the API on its default endpoint
   */
  readonly apiOriginDomain?: ApiOriginDomain;
}

/**
 * The whole platform. The root stack holds what keeps state, with pinned logical IDs (the table, the
 * queues, the secrets, the export bucket, the alarm topic and its key, the HTTP API whose id is its
 * URL); one nested stack per capability holds what can be replaced: API routes and area functions,
 * the webhook and wallet pipelines, the exports, the dashboard and alarms (docs/infra.md).
 */
export class LoyaltyPlatformStack extends Stack {
  readonly data: Data;
  readonly mail: Mail;
  /** Wallet cards: push queue + DLQ and the credentials secret. */
  readonly wallet: Wallet;
  /** The webhook delivery queue, its DLQ and the failure queue of scheduled runs. */
  readonly webhooks: Webhooks;
  readonly exportBucket: ExportBucket;
  readonly cursorSecret: secretsmanager.Secret;
  /** What the distribution adds to every request it sends the API (`config.http.originVerifyHeader`). */
  readonly originVerifySecret: secretsmanager.Secret;
  /** Seals webhook and export signing secrets; granted from the declared access. */
  readonly signingSecretsKey: SigningSecretsKey;
  readonly httpApi: apigw.HttpApi;
  /** Every declared queue (`shared/platform/ports/queue.ts`) by name. */
  readonly queues: Readonly<Record<QueueName, sqs.Queue>>;
  /** The one topic every alarm of the platform notifies (ALARM and OK). */
  readonly alarmTopic: AlarmTopic;
  readonly areasStack: AreasStack;
  readonly apiStack: ApiStack;
  readonly pipelines: PipelinesStack;
  readonly exportsStack: ExportsStack;
  readonly observabilityStack: ObservabilityStack;
  /** The console's files and the one origin (CloudFront) in front of them and the API. */
  readonly console: ConsoleHosting;

  constructor(scope: Construct, id: string, props: LoyaltyPlatformStackProps = {}) {
    super(scope, id, {
      description: 'Multi-tenant loyalty platform: HTTP API, one Lambda function per area, single DynamoDB table, SQS webhook delivery',
      ...props,
    });
    this.data = new Data(this, 'Data');
    this.mail = new Mail(this, 'Mail', { fromAddress: props.mailFrom ?? DEFAULT_MAIL_FROM });
    this.wallet = new Wallet(this, 'Wallet');
    this.webhooks = new Webhooks(this, 'Webhooks', { scheduleFailures: CONSUMERS.some((row) => row.kind === 'schedule') });
    this.queues = { webhookDeliveries: this.webhooks.deliveryQueue, webhookDeadLetters: this.webhooks.deadLetterQueue, ...this.wallet.queues };
    this.exportBucket = new ExportBucket(this, 'ExportBucket');
    this.cursorSecret = pageCursorSecret(this);
    this.originVerifySecret = originVerifySecret(this);
    this.signingSecretsKey = new SigningSecretsKey(this, 'SigningSecrets');
    this.httpApi = createHttpApi(this, props.apiOriginDomain);
    const originDomain = props.apiOriginDomain ? apiOriginDomain(this, props.apiOriginDomain) : undefined;
    this.console = new ConsoleHosting(this, 'Console', {
      httpApi: this.httpApi,
      originVerifySecret: this.originVerifySecret,
      // Any bucket of the region (a presigned link still needs its signature): naming the export
      // bucket itself would tie the distribution to the bucket whose CORS rule names the distribution.
      uploadOrigin: `https://*.s3.${Aws.REGION}.amazonaws.com`,
      ...(originDomain ? { originHost: originDomain.regionalDomainName } : {}),
    });
    this.exportBucket.allowUploadsFrom(`https://${this.console.distribution.distributionDomainName}`);
    // With its default endpoint disabled the API is reached through the distribution alone.
    const apiUrl = originDomain ? `https://${this.console.distribution.distributionDomainName}` : this.httpApi.apiEndpoint;

    const resources: PlatformResources = {
      table: this.data.table,
      mail: this.mail,
      queues: this.queues,
      walletSecret: this.wallet.secret,
      exportBucket: this.exportBucket,
      signingSecretsKey: this.signingSecretsKey,
      secrets: { pageCursors: this.cursorSecret, originVerify: this.originVerifySecret },
      // No cycle: the HTTP API resource does not depend on the functions (only routes/integrations do).
      publicBaseUrl: props.publicBaseUrl ?? apiUrl,
    };
    const scheduleFailureQueue = this.webhooks.scheduleFailureQueueIfAny;
    this.pipelines = new PipelinesStack(this, 'Pipelines', {
      resources,
      webhooks: this.webhooks,
      wallet: this.wallet,
      ...(scheduleFailureQueue ? { scheduleFailureQueue } : {}),
    });
    this.exportsStack = new ExportsStack(this, 'ExportsStack', { resources, ...(scheduleFailureQueue ? { scheduleFailureQueue } : {}) });
    this.areasStack = new AreasStack(this, 'AreasStack', {
      resources,
      exports: this.exports,
      imports: this.exportsStack.imports,
    });
    this.apiStack = new ApiStack(this, 'ApiStack', {
      httpApi: this.httpApi,
      functions: this.areasStack.areaFunctions.functions,
      ...(originDomain ? { originDomain } : {}),
    });
    this.observabilityStack = this.buildObservability();

    // Every alarm of the platform, wherever it is built, notifies the one topic on ALARM and on OK.
    this.alarmTopic = new AlarmTopic(this, 'Alarms', props.alarmEmail ? { email: props.alarmEmail } : {});
    Aspects.of(this).add(new NotifyOnEveryAlarm(this.alarmTopic.topic));

    new CfnOutput(this, 'ApiUrl', { value: apiUrl, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'ConsoleUrl', {
      value: `https://${this.console.distribution.distributionDomainName}/console`,
      description: 'The console; the API and the reference page answer on the same origin',
    });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topic.topicArn,
      description: 'Every alarm notifies this topic; subscribe chat or paging to it',
    });
  }

  /** Operators' dashboard and alarms: everything that runs. The pipelines' own alarms are reused. */
  private buildObservability(): ObservabilityStack {
    const scheduleFailureQueue = this.webhooks.scheduleFailureQueueIfAny;
    return new ObservabilityStack(this, 'ObservabilityStack', {
      observability: {
        api: this.api,
        table: this.data.table,
        // Every area and every row of the consumer table.
        functions: { ...this.areaFunctions.functions, ...this.consumerFunctions },
        queues: this.queues,
        ...(scheduleFailureQueue ? { scheduleFailureQueue } : {}),
        stateMachines: { export: this.exports.stateMachine, import: this.exportsStack.imports.stateMachine },
        schedules: this.schedules,
        existingAlarms: {
          queues: {
            webhookDeliveries: { oldestMessage: this.pipelines.webhookAlarms.deliveryAge },
            webhookDeadLetters: { notEmpty: this.pipelines.webhookAlarms.deadLetters },
            walletPushDeadLetters: { notEmpty: this.pipelines.walletAlarms.pushDeadLetters },
          },
          stateMachines: { export: this.exports.alarms.workflowFailures, import: this.exportsStack.imports.alarms.workflowFailures },
          streams: { 'webhook-fanout': this.pipelines.webhookAlarms.fanoutIteratorAge },
        },
      },
    });
  }

  get areaFunctions(): AreaFunctions {
    return this.areasStack.areaFunctions;
  }

  get api(): Api {
    return this.apiStack.api;
  }

  get exports(): Exports {
    return this.exportsStack.exports;
  }

  get observability(): Observability {
    return this.observabilityStack.observability;
  }

  /** The EventBridge rule of every schedule row, by consumer name. */
  get schedules(): Readonly<Record<string, events.Rule>> {
    return { ...this.pipelines.consumers.schedules, ...this.exportsStack.consumers.schedules };
  }

  /** The consumer table's functions (pipelines and exports), by row name. */
  get consumerFunctions(): Readonly<Record<string, Consumers['functions'][string]>> {
    return { ...this.pipelines.consumers.functions, ...this.exportsStack.consumers.functions };
  }
}

/** A generated secret whose value is in no template or cloud assembly (the functions read it at run time). */
function generatedSecret(scope: Construct, id: string, logicalId: string, description: string, whyNotRotated: string): secretsmanager.Secret {
  const secret = new secretsmanager.Secret(scope, id, {
    description,
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
    removalPolicy: RemovalPolicy.DESTROY,
  });
  (secret.node.defaultChild as secretsmanager.CfnSecret).overrideLogicalId(logicalId);
  Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: whyNotRotated });
  return secret;
}

/**
 * Signs page cursors (shared/platform/data/cursor.ts). The functions that declare it read it from Secrets
 * Manager at run time (their configuration holds its ARN only). Not rotated on a schedule: a new
 * value is picked up within `config.secrets.refreshMs`, and cursors signed with the previous one are
 * still accepted for `previousAcceptedMs`.
 */
const pageCursorSecret = (scope: Construct): secretsmanager.Secret =>
  generatedSecret(
    scope,
    'CursorSecret',
    CURSOR_SECRET_LOGICAL_ID,
    'Loyalty platform: HMAC key of the list page cursors',
    'An HMAC key of short-lived page cursors, read by the functions at run time; a new value is put in by hand (docs/security.md)',
  );

/**
 * What the CloudFront distribution adds to every request it sends the API as
 * `config.http.originVerifyHeader`, and the area functions compare: only a request that carries it
 * may name the viewer's host in X-Forwarded-Host (the origin the CSRF check and links use). The
 * functions read it from Secrets Manager at run time; the distribution gets it as a dynamic
 * reference resolved at deploy time, because an origin's custom header takes only a literal value
 * (so it is in the distribution's configuration, but in no template). Rotation: docs/security.md.
 */
const originVerifySecret = (scope: Construct): secretsmanager.Secret =>
  generatedSecret(
    scope,
    'OriginVerify',
    ORIGIN_VERIFY_SECRET_LOGICAL_ID,
    'Loyalty platform: the header value CloudFront proves itself with to the API',
    'Read by the functions at run time and into the distribution at deploy time; rotated by setting a new value and deploying (docs/security.md)',
  );

export const STACK_ID = 'LoyaltyPlatform';

/** CDK's context key naming the stacks whose assets are bundled (`[]`: none, `['**']`: all). */
export const BUNDLING_STACKS_CONTEXT = 'aws:cdk:bundling-stacks';

export interface BuildAppOptions {
  /** Extra context (e.g. `{ mailFrom: 'no-reply@example.com' }`), as `-c key=value` would give. */
  readonly context?: Record<string, unknown>;
  /** Cloud assembly directory; default: the CLI's (`cdk.out`) or a temporary directory. */
  readonly outdir?: string;
  /**
   * Bundle every function even where the environment's context says not to (the infra tests skip
   * bundling by default through `CDK_CONTEXT_JSON`; the tests that read the bundles ask for them).
   */
  readonly bundle?: boolean;
}

/**
 * The CDK app with the platform stack and the cdk-nag AwsSolutions and Serverless checks. No side effects: nothing
 * is synthesized until the caller (bin/app.ts, the CLI, a test) calls `app.synth()`.
 */
export function buildApp(options: BuildAppOptions = {}): { app: App; stack: LoyaltyPlatformStack } {
  const appProps: AppProps = {
    ...(options.context ? { context: options.context } : {}),
    ...(options.outdir ? { outdir: options.outdir } : {}),
    ...(options.bundle ? { postCliContext: { [BUNDLING_STACKS_CONTEXT]: ['**'] } } : {}),
  };
  const app = new App(appProps);

  // cdk-nag 3 is a policy-validation plugin: unacknowledged errors fail `cdk synth` / `app.synth()`.
  // Acknowledgements are also written to the template metadata (`cdk_nag.rules_to_suppress`).
  Validations.of(app).addPlugins(
    new AwsSolutionsChecks(app, { writeSuppressionsToCloudFormation: true }),
    new ServerlessChecks(app, { writeSuppressionsToCloudFormation: true }),
  );

  const mailFrom = app.node.tryGetContext('mailFrom') as string | undefined;
  const publicBaseUrl = app.node.tryGetContext('publicBaseUrl') as string | undefined;
  // `-c alarmEmail=...`, else ALARM_EMAIL; checked to be an address.
  const alarmEmail = alarmEmailOf(app.node.tryGetContext('alarmEmail'));
  const apiOriginDomain = apiOriginDomainOf(app.node.tryGetContext('apiOriginDomain'), app.node.tryGetContext('apiOriginCertificateArn'));
  // Environment-agnostic on purpose: the template is the same whoever synthesizes it (tests, CI,
  // a developer); `cdk deploy` targets the account/region of the current AWS credentials.
  const stack = new LoyaltyPlatformStack(app, STACK_ID, {
    ...(mailFrom ? { mailFrom } : {}),
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    ...(apiOriginDomain ? { apiOriginDomain } : {}),
  });
  return { app, stack };
}

/** `-c apiOriginDomain=... -c apiOriginCertificateArn=...`: both or neither. */
function apiOriginDomainOf(domainName: unknown, certificateArn: unknown): ApiOriginDomain | undefined {
  if (domainName === undefined && certificateArn === undefined) return undefined;
  if (typeof domainName !== 'string' || typeof certificateArn !== 'string' || !domainName || !certificateArn) {
    throw new Error('Give both -c apiOriginDomain=<domain> and -c apiOriginCertificateArn=<regional ACM certificate ARN>, or neither');
  }
  return { domainName, certificateArn };
}
