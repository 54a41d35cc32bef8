import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { REQUIRED_FUNCTION_ENV } from '../../shared/config';
import { config } from '../config';
import { AREAS, type Area } from '../routes';
import { TABLE_INDEX_WILDCARD_FINDING } from './data';
import { type Mail, SES_IDENTITY_WILDCARD_FINDING, SES_IDENTITY_WILDCARD_REASON } from './mail';

const TABLE_INDEX_WILDCARD_REASON =
  'grantReadWriteData covers <table>/index/* so the function can Query the GSIs gsi1 and gsi2 of the ' +
  'single table (access patterns by secondary key). The wildcard matches only indexes of this one table.';

/** Project root (where package.json and package-lock.json live). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Entry file of an area's Lambda function. */
export const handlerEntry = (area: Area): string => join(PROJECT_ROOT, 'functions', area, 'handler.ts');

export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;
export const LAMBDA_ARCHITECTURE = lambda.Architecture.ARM_64;

/**
 * ESM bundles have no `require`; CommonJS dependencies bundled into them (parts of the AWS SDK,
 * middy plugins) call it. Define it once at the top of every bundle.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __loyaltyCreateRequire } from 'node:module'; const require = __loyaltyCreateRequire(import.meta.url);";

/** Areas that send e-mail (password reset). Only they get `ses:SendEmail`. */
const MAILING_AREAS: ReadonlySet<Area> = new Set<Area>(['auth']);

export interface AreaFunctionsProps {
  readonly table: dynamodb.ITable;
  readonly mail: Mail;
}

function retentionDays(days: number): logs.RetentionDays {
  if (!Object.values(logs.RetentionDays).includes(days)) {
    throw new Error(`config.lambda.logRetentionDays=${days} is not a CloudWatch Logs retention value`);
  }
  return days as logs.RetentionDays;
}

/** Log retention of every log group of the stack (functions and API access log). */
export const LOG_RETENTION = retentionDays(config.lambda.logRetentionDays);

/**
 * One Lambda function per area of the route table (`functions/<area>/handler.ts`), each with its own
 * role, log group and the least privileges its area needs.
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

    // Satisfies the runtime's list: a new required variable fails the type check here.
    const requiredEnv = {
      STAGE: 'aws',
      TABLE_NAME: props.table.tableName,
      MAILER: 'ses',
      MAIL_FROM: props.mail.fromAddress,
    } satisfies Record<(typeof REQUIRED_FUNCTION_ENV)[number], string>;

    for (const area of AREAS) {
      const entry = handlerEntry(area);
      if (!existsSync(entry)) throw new Error(`Area "${area}" has no handler file at ${entry}`);

      const scope = new Construct(this, area);

      // Kept when the stack is deleted (like the table): the events still expire after the
      // retention period, and the log group names are generated, so a redeploy never collides.
      const logGroup = new logs.LogGroup(scope, 'Logs', {
        retention: LOG_RETENTION,
        removalPolicy: RemovalPolicy.RETAIN,
      });

      // Own role instead of the AWSLambdaBasicExecutionRole managed policy: may write to its own
      // log group only.
      const role = new iam.Role(scope, 'Role', {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        description: `Loyalty platform, area function "${area}"`,
      });
      logGroup.grantWrite(role);

      const fn = new nodejs.NodejsFunction(scope, 'Function', {
        description: `Loyalty platform: ${area}`,
        entry,
        handler: 'handler',
        projectRoot: PROJECT_ROOT,
        depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
        runtime: LAMBDA_RUNTIME,
        architecture: LAMBDA_ARCHITECTURE,
        memorySize: config.lambda.memoryMiB,
        timeout: Duration.seconds(config.lambda.timeoutSeconds),
        role,
        logGroup,
        environment: {
          ...requiredEnv,
          POWERTOOLS_SERVICE_NAME: area,
          NODE_OPTIONS: '--enable-source-maps',
        },
        bundling: {
          forceDockerBundling: false,
          format: nodejs.OutputFormat.ESM,
          target: 'node24',
          platform: 'node',
          mainFields: ['module', 'main'],
          banner: ESM_REQUIRE_BANNER,
          minify: true,
          sourceMap: true,
          sourcesContent: false,
          // Bundle the AWS SDK too: production runs the exact SDK version the tests ran against,
          // instead of whatever version the managed runtime ships that week.
          externalModules: [],
        },
      });

      props.table.grantReadWriteData(fn);
      if (MAILING_AREAS.has(area)) props.mail.grantSend(fn);

      // Acknowledge exactly the findings of this role's policy, on that policy resource only.
      const policy = role.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;
      Validations.of(policy).acknowledge({ id: TABLE_INDEX_WILDCARD_FINDING, reason: TABLE_INDEX_WILDCARD_REASON });
      if (MAILING_AREAS.has(area)) {
        Validations.of(policy).acknowledge({ id: SES_IDENTITY_WILDCARD_FINDING, reason: SES_IDENTITY_WILDCARD_REASON });
      }

      functions[area] = fn;
      logGroups[area] = logGroup;
    }

    this.functions = functions;
    this.logGroups = logGroups;
  }
}
