import { App, type AppProps, Aspects, CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { alarmEmailOf, config } from '../shared/config';
import { AlarmTopic, NotifyOnEveryAlarm } from './constructs/alarm-topic';
import { Api } from './constructs/api';
import { AreaFunctions } from './constructs/area-functions';
import { Data } from './constructs/data';
import { Mail } from './constructs/mail';
import { Observability } from './constructs/observability';
import { webhookEnvironment, Webhooks } from './constructs/webhooks';
import { Wallet } from './constructs/wallet';
// Data exports
import { Exports } from './constructs/exports';
import { SigningSecretsKey } from './constructs/signing-secrets-key';
import { DECLARATIONS } from '../shared/contracts/index';
import { CONSUMERS } from '../shared/consumers/table';
import type { QueueName } from '../shared/ports/queue';
import type * as sqs from 'aws-cdk-lib/aws-sqs';

/** Sender address if neither a prop nor the `mailFrom` context value says otherwise. */
export const DEFAULT_MAIL_FROM = config.mail.defaultFrom;

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
}

/** The whole platform: table, area functions, HTTP API, webhook delivery pipeline, dashboard and alarms. */
export class LoyaltyPlatformStack extends Stack {
  readonly data: Data;
  readonly mail: Mail;
  readonly webhooks: Webhooks;
  readonly areaFunctions: AreaFunctions;
  readonly api: Api;
  readonly observability: Observability;
  /** Wallet cards: push queue + DLQ (alarmed) and the credentials secret. */
  readonly wallet: Wallet;
  readonly exports: Exports;
  /** Seals webhook and export signing secrets; granted from the declared access. */
  readonly signingSecretsKey: SigningSecretsKey;
  /** Every declared queue (`shared/ports/queue.ts`) by name. */
  readonly queues: Readonly<Record<QueueName, sqs.Queue>>;
  /** The one topic every alarm of the stack notifies (ALARM and OK). */
  readonly alarmTopic: AlarmTopic;

  constructor(scope: Construct, id: string, props: LoyaltyPlatformStackProps = {}) {
    super(scope, id, {
      description: 'Multi-tenant loyalty platform: HTTP API, one Lambda function per area, single DynamoDB table, SQS webhook delivery',
      ...props,
    });

    this.data = new Data(this, 'Data');
    this.mail = new Mail(this, 'Mail', { fromAddress: props.mailFrom ?? DEFAULT_MAIL_FROM });
    this.wallet = new Wallet(this, 'Wallet');
    this.webhooks = new Webhooks(this, 'Webhooks', { table: this.data.table, mail: this.mail, queues: this.wallet.queues, walletSecret: this.wallet.secret });
    this.queues = { webhookDeliveries: this.webhooks.deliveryQueue, webhookDeadLetters: this.webhooks.deadLetterQueue, ...this.wallet.queues };
    this.areaFunctions = new AreaFunctions(this, 'Functions', {
      table: this.data.table,
      mail: this.mail,
      queues: this.queues,
      walletSecret: this.wallet.secret,
      // The webhook numbers the replay and test ping read.
      extras: { webhooks: { environment: webhookEnvironment() } },
    });
    this.api = new Api(this, 'Api', { functions: this.areaFunctions.functions });

    // No cycle: the Api resource does not depend on the functions (only routes/integrations do).
    const publicBaseUrl = props.publicBaseUrl ?? this.api.endpoint;
    for (const fn of [...Object.values(this.areaFunctions.functions), ...this.webhooks.functions]) {
      fn.addEnvironment('PUBLIC_BASE_URL', publicBaseUrl);
    }

    // Signs page cursors (shared/data/cursor.ts). A dynamic reference: CloudFormation resolves it at
    // deploy time, so the value is in no template or cloud assembly. Not rotated: a new value only
    // invalidates the cursors of listings under way (a 400 "Invalid cursor"; the client starts over).
    const cursorSecret = new secretsmanager.Secret(this, 'CursorSecret', {
      description: 'Loyalty platform: HMAC key of the list page cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(cursorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'An HMAC key of short-lived page cursors, read at deploy time into the functions; rotating it only restarts listings under way',
    });
    for (const fn of Object.values(this.areaFunctions.functions)) {
      fn.addEnvironment('CURSOR_SECRET', cursorSecret.secretValue.unsafeUnwrap());
    }

    // --- Data exports: the bucket and the export workflow; grants from the declared access ---
    this.exports = new Exports(this, 'Exports', { tasks: this.webhooks.workflowTasks.export ?? {} });
    for (const d of DECLARATIONS) this.exports.grant(this.areaFunctions.functions[d.area], d.access);
    for (const row of CONSUMERS) {
      const fn = this.webhooks.consumerFunctions[row.name];
      if (fn) this.exports.grant(fn, row.access);
    }

    this.signingSecretsKey = new SigningSecretsKey(this, 'SigningSecrets');
    for (const d of DECLARATIONS) this.signingSecretsKey.grant(this.areaFunctions.functions[d.area], d.access);
    for (const row of CONSUMERS) {
      const fn = this.webhooks.consumerFunctions[row.name];
      if (fn) this.signingSecretsKey.grant(fn, row.access);
    }

    // Operators' dashboard and alarms: everything that runs. The pipelines' own alarms are reused.
    this.observability = new Observability(this, 'Observability', {
      api: this.api,
      table: this.data.table,
      // Every area and every row of the consumer table.
      functions: { ...this.areaFunctions.functions, ...this.webhooks.consumerFunctions },
      queues: this.queues,
      ...(this.webhooks.scheduleFailureQueueIfAny ? { scheduleFailureQueue: this.webhooks.scheduleFailureQueueIfAny } : {}),
      stateMachines: { export: this.exports.stateMachine },
      schedules: this.webhooks.schedules,
      existingAlarms: {
        queues: {
          webhookDeliveries: { oldestMessage: this.webhooks.alarms.deliveryAge },
          webhookDeadLetters: { notEmpty: this.webhooks.alarms.deadLetters },
          walletPushDeadLetters: { notEmpty: this.wallet.alarms.pushDeadLetters },
        },
        stateMachines: { export: this.exports.alarms.workflowFailures },
        streams: { 'webhook-fanout': this.webhooks.alarms.fanoutIteratorAge },
      },
    });

    // Every alarm of the stack, wherever it is built, notifies the one topic on ALARM and on OK.
    this.alarmTopic = new AlarmTopic(this, 'Alarms', props.alarmEmail ? { email: props.alarmEmail } : {});
    Aspects.of(this).add(new NotifyOnEveryAlarm(this.alarmTopic.topic));

    new CfnOutput(this, 'ApiUrl', { value: this.api.endpoint, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topic.topicArn, description: 'Every alarm notifies this topic; subscribe chat or paging to it' });
  }
}

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
  // Environment-agnostic on purpose: the template is the same whoever synthesizes it (tests, CI,
  // a developer); `cdk deploy` targets the account/region of the current AWS credentials.
  const stack = new LoyaltyPlatformStack(app, STACK_ID, {
    ...(mailFrom ? { mailFrom } : {}),
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
  });
  return { app, stack };
}
