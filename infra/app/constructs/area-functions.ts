import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { config, environmentOf, WORKSPACE_RATE_LIMITS_ENV, WORKSPACE_RATE_NUMBERS, workspaceRateOverrides } from '../../../shared/platform/config/index';
import { AREAS, declarationOf, type Area } from '../../../shared/http/declarations';
import { areaAccess } from '../../../shared/platform/contract/endpoint';
import type { SecretName } from '../../../shared/platform/ports/secrets';
import type { QueueName } from '../../../shared/platform/ports/queue';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Mail } from './mail';
import { PlatformFunction } from './platform-function';

// Kept for existing importers; the definitions live in platform-function.ts.
export { LAMBDA_ARCHITECTURE, LAMBDA_RUNTIME, LOG_RETENTION, PROJECT_ROOT } from './platform-function';

/**
 * What one area needs beyond its declared access and the common environment (e.g. the webhook
 * numbers for the `webhooks` area). Grants come only from the declaration.
 */
export interface AreaExtras {
  /** Added to the function's environment. */
  readonly environment?: Readonly<Record<string, string>>;
}

export interface AreaFunctionsProps {
  readonly table: dynamodb.ITable;
  readonly mail: Mail;
  /** The platform's queues; an area gets those its declaration sends to. */
  readonly queues: Readonly<Record<QueueName, sqs.IQueue>>;
  /** The wallet credentials secret (areas whose access names `walletCredentials`). */
  readonly walletSecret?: secretsmanager.ISecret;
  /** The run-time secrets; an area gets those its access (with the HTTP layer's) names. */
  readonly secrets?: Readonly<Partial<Record<SecretName, secretsmanager.ISecret>>>;
  /** Per-area extra environment and grants. */
  readonly extras?: Readonly<Partial<Record<Area, AreaExtras>>>;
}

/**
 * One Lambda function per declared area (`functions/<area>/handler.ts`), each with its own role, log
 * group and exactly the access its declaration names.
 */
export class AreaFunctions extends Construct {
  /** Area -> its function. */
  readonly functions: Readonly<Record<Area, nodejs.NodejsFunction>>;
  /** Area -> the log group its function writes to. */
  readonly logGroups: Readonly<Record<Area, logs.LogGroup>>;

  constructor(scope: Construct, id: string, props: AreaFunctionsProps) {
    super(scope, id);

    const functions = {} as Record<Area, nodejs.NodejsFunction>;
    const logGroups = {} as Record<Area, logs.LogGroup>;

    const budgets = requestBudgetEnvironment(this.node.tryGetContext('workspaceRateLimits'));
    for (const area of AREAS) {
      const extras = props.extras?.[area];
      // Construct id = area: the children (Logs, Role, Function) keep their logical IDs.
      const pf = new PlatformFunction(this, area, {
        name: area,
        description: `Loyalty platform: ${area}`,
        roleDescription: `Loyalty platform, area function "${area}"`,
        table: props.table,
        mail: props.mail,
        access: areaAccess(declarationOf(area)),
        queues: props.queues,
        ...(props.walletSecret ? { walletSecret: props.walletSecret } : {}),
        ...(props.secrets ? { secrets: props.secrets } : {}),
        invocation: { kind: 'synchronous' },
        // One area flooded cannot take the account's concurrency from the others (config.lambda).
        reservedConcurrency: config.lambda.areaReservedConcurrency,
        environment: { ...budgets, ...extras?.environment },
      });

      functions[area] = pf.function;
      logGroups[area] = pf.logGroup;
    }

    this.functions = functions;
    this.logGroups = logGroups;
  }
}

/**
 * The request budgets' numbers on every area function, and the workspaces' own budgets from the
 * `workspaceRateLimits` context value (`-c workspaceRateLimits='{"ws_...":{"read":500}}'`), checked
 * at synthesis as the functions would check it.
 */
function requestBudgetEnvironment(contextValue: unknown): Record<string, string> {
  const env = environmentOf(WORKSPACE_RATE_NUMBERS);
  if (contextValue === undefined || contextValue === '') return env;
  const raw = typeof contextValue === 'string' ? contextValue : JSON.stringify(contextValue);
  workspaceRateOverrides({ [WORKSPACE_RATE_LIMITS_ENV]: raw });
  return { ...env, [WORKSPACE_RATE_LIMITS_ENV]: raw };
}
