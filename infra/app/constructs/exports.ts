import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { config } from '../../../shared/platform/config';
import type { Access } from '../../../shared/platform/contract/endpoint';
import { WORKFLOWS, workflowArnEnvName, type WorkflowName } from '../../../shared/platform/ports/workflows';
import { LOG_RETENTION } from './platform-function';
import { alarmDescription } from './runbook';
import { templateRef } from './template-ref';
import { workflowNumberSubstitutions } from '../workflows/numbers';

/** Where the ASL files live: one per workflow, the same file the local runtime runs. */
export const WORKFLOW_DIR = join(import.meta.dirname, '..', 'workflows');

/** A workflow's ASL text, exactly as in its file. */
export const workflowDefinitionText = (workflow: WorkflowName): string => readFileSync(join(WORKFLOW_DIR, WORKFLOWS[workflow].file), 'utf8');

/** The substitution variable of a Task state's function in the ASL (`${<State>FunctionArn}`). */
export const taskFunctionVariable = (state: string): string => `${state}FunctionArn`;

/** Logical ID of the export bucket, pinned (the id its first deployment gave it): a replaced bucket drops the exports in it. */
export const EXPORT_BUCKET_LOGICAL_ID = 'ExportsBucket54D5CE64';

/**
 * The export bucket (encrypted, private, TLS only, files expiring after
 * `config.exports.retentionDays`). It holds data, so it lives in the root stack; grants follow the
 * declared access (`grant`).
 */
export class ExportBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'ExpireExports', expiration: Duration.days(config.exports.retentionDays), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      // Exports can be made again; the archives must not outlive the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const cfnBucket = this.bucket.node.defaultChild as s3.CfnBucket;
    cfnBucket.overrideLogicalId(EXPORT_BUCKET_LOGICAL_ID);
    Validations.of(cfnBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Every request for an export and every download link is recorded in the platform audit trail (with actor and request id); ' +
        'objects are only read through short-lived presigned links. Server access logs would duplicate that in a second bucket.',
    });
  }

  /**
   * The console uploads an import file from the browser straight to its presigned link: a
   * cross-origin PUT from the console's origin, which the bucket must allow (the preflight). PUT
   * only, from that origin only; a link still needs its signature.
   */
  allowUploadsFrom(origin: string): void {
    this.bucket.addCorsRule({ allowedOrigins: [origin], allowedMethods: [s3.HttpMethods.PUT], allowedHeaders: ['content-type'], maxAge: 3000 });
  }

  /**
   * Grants a function what its declaration says of the export bucket and sets its variable. Object
   * actions only, on the exports' own prefix: `read` gets objects (what presigned links are signed
   * for), `readWrite` also puts (multipart), deletes and aborts.
   */
  grant(fn: lambda.Function, access: Access): void {
    if (!access.exportsBucket) return;
    const actions =
      access.exportsBucket === 'readWrite' ? [...EXPORT_OBJECT_ACTIONS.read, ...EXPORT_OBJECT_ACTIONS.readWrite] : [...EXPORT_OBJECT_ACTIONS.read];
    fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [`${this.bucket.bucketArn}/${EXPORT_PREFIX}*`] }));
    const policy = fn.role!.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;
    Validations.of(policy).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${templateRef(fn, this.bucket.node.defaultChild as s3.CfnBucket, 'Arn')}/${EXPORT_PREFIX}*]`,
      reason: 'Objects under the exports prefix of the one export bucket: keys are per workspace and job, made at run time.',
    });
    fn.addEnvironment('EXPORTS_BUCKET', this.bucket.bucketName);
  }
}

export interface ExportsProps {
  /** The workflow (default `export`; `import` runs import jobs on the same construct). */
  readonly workflow?: WorkflowName;
  /** Functions of the workflow's Task states by state name (the consumer table's `workflowTask` rows). */
  readonly tasks: Readonly<Record<string, lambda.IFunction>>;
}

/**
 * The export workflow: a state machine whose definition is the ASL file
 * `infra/app/workflows/export.asl.json` as is, its Task functions and retry numbers substituted in. An
 * alarm reports failed, timed-out or aborted executions. Starting it follows the declared access (`grant`).
 */
export class Exports extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly alarms: { readonly workflowFailures: cloudwatch.Alarm };
  readonly workflow: WorkflowName;

  constructor(scope: Construct, id: string, props: ExportsProps) {
    super(scope, id);
    this.workflow = props.workflow ?? 'export';
    const substitutions: Record<string, string> = { ...workflowNumberSubstitutions(this.workflow) };
    for (const [state, fn] of Object.entries(props.tasks)) substitutions[taskFunctionVariable(state)] = fn.functionArn;
    const logGroup = new logs.LogGroup(this, 'WorkflowLogs', { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN });
    this.stateMachine = new sfn.StateMachine(this, 'Workflow', {
      comment: `Loyalty platform: ${this.workflow} workflow (infra/app/workflows/${WORKFLOWS[this.workflow].file})`,
      definitionBody: sfn.DefinitionBody.fromString(workflowDefinitionText(this.workflow)),
      definitionSubstitutions: substitutions,
      stateMachineType: sfn.StateMachineType.STANDARD,
      tracingEnabled: true,
      // Every state transition is logged, without the states' data (ids, keys and counts only anyway).
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    this.grantTasks(props.tasks);
    this.alarms = { workflowFailures: this.failureAlarm() };
  }

  private grantTasks(tasks: Readonly<Record<string, lambda.IFunction>>): void {
    for (const fn of Object.values(tasks)) fn.grantInvoke(this.stateMachine);
    const machinePolicy = this.stateMachine.role.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;
    for (const fn of Object.values(tasks)) {
      Validations.of(machinePolicy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${this.logicalIdOf(fn)}.Arn>:*]`,
        reason: 'lambda:InvokeFunction on <Task function ARN>:* lets the workflow invoke the versions of exactly its own Task functions (CDK grantInvoke).',
      });
    }
    Validations.of(machinePolicy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray tracing (xray:PutTraceSegments, PutTelemetryRecords, GetSampling*) and CloudWatch Logs delivery (logs:CreateLogDelivery and related) ' +
        'support no resource-level permissions, so their resource is "*"; they only write traces and set up the log delivery of this workflow.',
    });
  }

  private failureAlarm(): cloudwatch.Alarm {
    const failures = new cloudwatch.MathExpression({
      expression: 'failed + timedOut + aborted',
      label: `${this.workflow === 'export' ? 'Export' : 'Import'} workflow executions failed, timed out or aborted`,
      period: Duration.minutes(config.alarms.periodMinutes),
      usingMetrics: {
        failed: this.stateMachine.metricFailed({ statistic: 'Sum' }),
        timedOut: this.stateMachine.metricTimedOut({ statistic: 'Sum' }),
        aborted: this.stateMachine.metricAborted({ statistic: 'Sum' }),
      },
    });
    return new cloudwatch.Alarm(this, 'WorkflowFailures', {
      alarmDescription: alarmDescription(
        `An ${this.workflow} workflow execution failed, timed out or was aborted (the job carries its error; the execution history says which step).`,
        'workflowFailures',
      ),
      metric: failures,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  private logicalIdOf(c: Construct): string {
    return Stack.of(this).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
  }

  /** Lets a function start this workflow if its declaration names it, and sets its variable. */
  grant(fn: lambda.Function, access: Access): void {
    for (const workflow of access.startsWorkflows ?? []) {
      if (workflow !== this.workflow) continue;
      this.stateMachine.grantStartExecution(fn);
      fn.addEnvironment(workflowArnEnvName(workflow), this.stateMachine.stateMachineArn);
    }
  }
}

/** Every export object lives under this prefix (`shared/exports/types.ts`, jobPrefix). */
export const EXPORT_PREFIX = 'exports/';

/** The S3 actions of each declared bucket access. */
export const EXPORT_OBJECT_ACTIONS = {
  read: ['s3:GetObject'],
  readWrite: ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
} as const;
