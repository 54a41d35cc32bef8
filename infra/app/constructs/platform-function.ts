import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import type { REQUIRED_FUNCTION_ENV } from '../../../shared/platform/config/index';
import type { Access } from '../../../shared/platform/contract/endpoint';
import { queueUrlEnvName, type QueueName } from '../../../shared/platform/ports/queue';
import { SECRET_ARN_ENV, type SecretName } from '../../../shared/platform/ports/secrets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { grantTable } from './access';
import { SES_IDENTITY_WILDCARD_FINDING, SES_IDENTITY_WILDCARD_REASON } from './mail';
import { config } from '../../../shared/platform/config';
import { BUNDLING, renderCommand, SHIPPED_FILES } from '../../build/bundling/options';
import { METRICS_NAMESPACE } from '../../../shared/platform/observability/metric-catalog';
import { tableIndexWildcardFinding } from './data';
import type { Mail } from './mail';

/**
 * The one way this stack builds a Lambda function: area functions (HTTP) and the webhook pipeline
 * (stream and queue consumers) share runtime, architecture, bundling, log group, role and the
 * table grant, so they cannot drift apart.
 */

/** Project root (where package.json and package-lock.json live). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Entry file of a function: `functions/<name>/handler.ts`. */
export const functionEntry = (name: string): string => join(PROJECT_ROOT, 'functions', name, 'handler.ts');

export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;
export const LAMBDA_ARCHITECTURE = lambda.Architecture.ARM_64;

const TABLE_INDEX_WILDCARD_REASON =
  'The table grant covers <table>/index/* so the function can Query the GSIs of the single table ' +
  '(access patterns by secondary key). The wildcard matches only indexes of this one table.';

function retentionDays(days: number): logs.RetentionDays {
  if (!Object.values(logs.RetentionDays).includes(days)) {
    throw new Error(`config.lambda.logRetentionDays=${days} is not a CloudWatch Logs retention value`);
  }
  return days as logs.RetentionDays;
}

/** Log retention of every log group of the stack (functions and API access log). */
export const LOG_RETENTION = retentionDays(config.lambda.logRetentionDays);

/**
 * The variables the runtime requires on every function (`REQUIRED_FUNCTION_ENV`). `satisfies` makes
 * a new required variable fail the type check here.
 */
export function requiredFunctionEnv(table: dynamodb.ITable, mail: Mail): Record<string, string> {
  return {
    STAGE: 'aws',
    TABLE_NAME: table.tableName,
    MAIL_FROM: mail.fromAddress,
  } satisfies Record<(typeof REQUIRED_FUNCTION_ENV)[number], string>;
}

export interface PlatformFunctionProps {
  /** Folder under `functions/` with the `handler.ts` entry; also `POWERTOOLS_SERVICE_NAME`. */
  readonly name: string;
  /** Description of the function. */
  readonly description: string;
  /** @default `Loyalty platform, function "<name>"` */
  readonly roleDescription?: string;
  readonly table: dynamodb.ITable;
  readonly mail: Mail;
  /** @default config.lambda.timeoutSeconds */
  readonly timeout?: Duration;
  /** Reserved concurrency: the function's cap and guarantee of the account's concurrency (none: unreserved). */
  readonly reservedConcurrency?: number;
  /** Added to the required environment (`REQUIRED_FUNCTION_ENV`, service name, source maps). */
  readonly environment?: Readonly<Record<string, string>>;
  /** What the function touches; it is granted exactly this. */
  readonly access: Access;
  /** The platform's queues, for the ones `access.sendsTo` names. */
  readonly queues?: Readonly<Partial<Record<QueueName, sqs.IQueue>>>;
  /** The wallet credentials secret, for functions whose access names `walletCredentials`. */
  readonly walletSecret?: secretsmanager.ISecret;
  /** The platform's run-time secrets (`shared/platform/ports/secrets.ts`), for the ones `access.secrets` names. */
  readonly secrets?: Readonly<Partial<Record<SecretName, secretsmanager.ISecret>>>;
  /**
   * How the function is invoked, which decides where a failed invocation goes: `synchronous` (API
   * Gateway or a workflow task: the caller gets the error), `eventSource` (an event source mapping: failed records stay
   * in their queue or stream and follow its redrive), `asynchronous` (EventBridge: Lambda retries,
   * then sends the event to `failureQueue`).
   */
  readonly invocation: Invocation;
  /**
   * cdk-nag findings on the role's policy that the caller's own grants cause (e.g. an event source's
   * ListStreams on "*"), acknowledged with the function's own.
   */
  readonly policyFindings?: readonly PolicyFinding[];
}

/** A cdk-nag rule id with its `[finding]` part, and why the finding is acceptable. */
export interface PolicyFinding {
  readonly id: string;
  readonly reason: string;
}

export type Invocation =
  | { readonly kind: 'synchronous' }
  | { readonly kind: 'eventSource' }
  | { readonly kind: 'asynchronous'; readonly failureQueue: sqs.IQueue };

/** Why a function that is not invoked asynchronously has no dead-letter queue of its own. */
const NO_FUNCTION_DLQ_REASON: Record<Exclude<Invocation['kind'], 'asynchronous'>, string> = {
  synchronous:
    'Invoked synchronously (by API Gateway, or by a Step Functions task that waits for the result): the ' +
    'caller receives the error and handles it. A function dead-letter ' +
    'queue only receives events of asynchronous invocations, so it would never get a message.',
  eventSource:
    'Invoked by an event source mapping (SQS or the table stream): a failed record stays in its queue, whose ' +
    'redrive policy moves it to a dead-letter queue, or in its stream shard. A function dead-letter queue ' +
    'only receives events of asynchronous invocations.',
};

/**
 * Powertools Metrics and Tracer settings of every function: business metrics go to the catalog's
 * namespace; traces never carry response bodies (they hold personal data).
 */
export const POWERTOOLS_ENV = {
  POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
  POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
} as const;

/**
 * The Powertools Lambda layer of exactly the version the bundles are built against: it carries the
 * Tracer and the X-Ray SDK, which are left out of the bundles (infra/build/bundling/options.ts) and
 * imported on the first traced invocation. AWS publishes each version's layer ARN per region
 * under this public SSM parameter, resolved at deploy time, so synthesis stays offline.
 */
export const POWERTOOLS_VERSION = (
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules/@aws-lambda-powertools/tracer/package.json'), 'utf8')) as { version: string }
).version;
export const POWERTOOLS_LAYER_PARAMETER = `/aws/service/powertools/typescript/generic/all/${POWERTOOLS_VERSION}`;

/**
 * One layer reference (one template parameter) in the root stack, shared by every function: nested
 * stacks get the resolved ARN as a plain parameter (SSM parameter types are resolved by the root).
 */
function powertoolsLayer(scope: Construct): lambda.ILayerVersion {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  const id = 'PowertoolsLayer';
  return (
    (stack.node.tryFindChild(id) as lambda.ILayerVersion | undefined) ??
    lambda.LayerVersion.fromLayerVersionArn(stack, id, ssm.StringParameter.valueForStringParameter(stack, POWERTOOLS_LAYER_PARAMETER))
  );
}

/** X-Ray's PutTraceSegments / PutTelemetryRecords support no resource-level permissions. */
const XRAY_WILDCARD_FINDING = 'AwsSolutions-IAM5[Resource::*]';
const XRAY_WILDCARD_REASON =
  'Active tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level ' +
  'permissions, so their resource is "*"; they only write trace data.';

/**
 * A `NodejsFunction` with its own retained log group and its own role (no managed policies),
 * read/write access to the single table, nodejs24.x on arm64, bundled locally with esbuild as
 * minified ESM. Children `Logs`, `Role`, `Function` (their logical IDs depend on these names).
 */
export class PlatformFunction extends Construct {
  readonly function: nodejs.NodejsFunction;
  readonly logGroup: logs.LogGroup;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: PlatformFunctionProps) {
    super(scope, id);

    const entry = functionEntry(props.name);
    if (!existsSync(entry)) throw new Error(`Function "${props.name}" has no handler file at ${entry}`);

    // Kept when the stack is deleted (like the table): the events still expire after the
    // retention period, and the log group names are generated, so a redeploy never collides.
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: LOG_RETENTION,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Own role instead of the AWSLambdaBasicExecutionRole managed policy: may write to its own
    // log group only.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: props.roleDescription ?? `Loyalty platform, function "${props.name}"`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new nodejs.NodejsFunction(this, 'Function', {
      description: props.description,
      entry,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: config.lambda.memoryMiB,
      timeout: props.timeout ?? Duration.seconds(config.lambda.timeoutSeconds),
      ...(props.reservedConcurrency !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      layers: [powertoolsLayer(this)],
      ...(props.invocation.kind === 'asynchronous' ? { deadLetterQueue: props.invocation.failureQueue } : {}),
      environment: {
        ...requiredFunctionEnv(props.table, props.mail),
        POWERTOOLS_SERVICE_NAME: props.name,
        ...POWERTOOLS_ENV,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      // Every setting comes from BUNDLING (infra/build/bundling/options.ts), which the cold-start
      // benchmark and the bundle-budget test build with too.
      bundling: {
        forceDockerBundling: false,
        format: BUNDLING.format === 'esm' ? nodejs.OutputFormat.ESM : nodejs.OutputFormat.CJS,
        target: BUNDLING.target,
        platform: BUNDLING.platform,
        mainFields: [...BUNDLING.mainFields],
        banner: BUNDLING.banner,
        minify: BUNDLING.minify,
        sourceMap: BUNDLING.sourceMap,
        sourcesContent: BUNDLING.sourcesContent,
        externalModules: [...BUNDLING.external],
        esbuildArgs: Object.fromEntries(Object.entries(BUNDLING.alias).map(([from, to]) => [`--alias:${from}`, to])),
        ...shippedFilesHooks(props.name),
      },
    });

    this.grantAccess(props);
  }

  /** Exactly the declared access, each cdk-nag finding it raises acknowledged on the role's policy. */
  private grantAccess(props: PlatformFunctionProps): void {
    const findings: PolicyFinding[] = [{ id: XRAY_WILDCARD_FINDING, reason: XRAY_WILDCARD_REASON }, ...(props.policyFindings ?? [])];
    if (props.invocation.kind !== 'asynchronous') {
      Validations.of(this.function.node.defaultChild as lambda.CfnFunction).acknowledge({
        id: 'Serverless-LambdaDLQ',
        reason: NO_FUNCTION_DLQ_REASON[props.invocation.kind],
      });
    }
    if (grantTable(this.role, props.table, props.access.table)) {
      findings.push({ id: tableIndexWildcardFinding(this, props.table), reason: TABLE_INDEX_WILDCARD_REASON });
    }
    for (const name of props.access.sendsTo ?? []) {
      const queue = props.queues?.[name];
      if (!queue) throw new Error(`Function "${props.name}" sends to queue ${name}, which the stack did not give it`);
      queue.grantSendMessages(this.function);
      this.function.addEnvironment(queueUrlEnvName(name), queue.queueUrl);
    }
    if (props.access.walletCredentials) {
      if (!props.walletSecret) throw new Error(`Function "${props.name}" reads the wallet credentials, which the stack did not give it`);
      props.walletSecret.grantRead(this.function);
      this.function.addEnvironment('WALLET_SECRET_ARN', props.walletSecret.secretArn);
    }
    for (const name of props.access.secrets ?? []) {
      const secret = props.secrets?.[name];
      if (!secret) throw new Error(`Function "${props.name}" reads the ${name} secret, which the stack did not give it`);
      // Read at run time: only its ARN is in the configuration, never its value.
      this.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }));
      this.function.addEnvironment(SECRET_ARN_ENV[name], secret.secretArn);
    }
    if (props.access.mail) {
      props.mail.grantSend(this.function);
      findings.push({ id: SES_IDENTITY_WILDCARD_FINDING, reason: SES_IDENTITY_WILDCARD_REASON });
    }
    acknowledgeOnPolicy(this.role, findings);
  }
}

/** Copies or renders the function's `SHIPPED_FILES` next to its bundle once esbuild has written it (local bundling runs these in a shell). */
function shippedFilesHooks(name: string): Pick<nodejs.BundlingOptions, 'commandHooks'> {
  const files = SHIPPED_FILES[name];
  if (!files?.length) return {};
  const quote = (path: string) => `"${path.replace(/(["\\$`])/g, '\\$1')}"`;
  return {
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) =>
        files.flatMap((f) => [
          `mkdir -p ${quote(dirname(join(outputDir, f.to)))}`,
          'from' in f
            ? `cp ${quote(join(inputDir, f.from))} ${quote(join(outputDir, f.to))}`
            : renderCommand(f, inputDir, join(outputDir, f.to)).map(quote).join(' '),
        ]),
    },
  };
}

/**
 * Acknowledges findings on the role's policy resource only, never on the function, the stack or
 * the app. Only the first acknowledgement of an id counts, so the reasons of one id (X-Ray and
 * ListStreams both need "*") are given together.
 */
function acknowledgeOnPolicy(role: iam.Role, findings: readonly PolicyFinding[]): void {
  const policy = role.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;
  const reasons = new Map<string, string[]>();
  for (const f of findings) reasons.set(f.id, [...(reasons.get(f.id) ?? []), f.reason]);
  for (const [id, list] of reasons) Validations.of(policy).acknowledge({ id, reason: list.join(' Also: ') });
}
