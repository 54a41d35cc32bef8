import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { routeKey, routes } from '../../../shared/http/declarations';
import type { QueueName } from '../../../shared/platform/ports/queue';
import type { WorkflowName } from '../../../shared/platform/ports/workflows';
import { DashboardWidgets, type ObservedResources } from './dashboard-widgets';
import {
  AlarmKit,
  apiAlarms,
  type ExistingAlarms,
  functionAlarms,
  type QueueAlarms,
  type QueueKey,
  queueAlarms,
  SCHEDULE_FAILURE_QUEUE,
  scheduleAlarms,
  streamAlarms,
  tableAlarms,
  workflowAlarms,
} from './platform-alarms';

export {
  API_5XX_RATE_THRESHOLD,
  API_P99_LATENCY_THRESHOLD_MS,
  type ExistingAlarms,
  isDeadLetterQueue,
  type QueueKey,
  SCHEDULE_FAILURE_QUEUE,
  TABLE_OPERATIONS,
} from './platform-alarms';

/** Name of the operators' dashboard (one per account/region, like the stack). */
export const DASHBOARD_NAME = 'LoyaltyPlatform';

/** Busiest operations (by operationId) that get their own latency/5xx widget. */
const BUSIEST_OPERATIONS = ['createOrder', 'createMember', 'listMembers', 'createObjectRecord'];

/** Their API Gateway route keys, derived from the endpoint declarations. */
export const DASHBOARD_ROUTES: readonly string[] = BUSIEST_OPERATIONS.map((id) => {
  const route = routes.find((r) => r.operationId === id);
  if (!route) throw new Error(`dashboard: no endpoint with operationId ${id}`);
  return routeKey(route);
});

export interface ObservabilityProps extends ObservedResources {
  readonly existingAlarms?: ExistingAlarms;
}

/**
 * The operators' CloudWatch dashboard and the stack-wide alarms. The dashboard has the state of
 * every alarm on top, then one row per capability (`dashboard-rows.ts`): its functions (errors,
 * throttles, duration p99, concurrent executions), queues (depth, age of the oldest message),
 * stream consumers (IteratorAge), workflows, schedules and business metrics; the API row adds the
 * API Gateway metrics; the last row shows the table and the failure queue of scheduled runs.
 * Alarms: API 5xx rate and p99 latency, errors and throttles of every function, every queue's
 * oldest message and every dead-letter queue not empty, stream IteratorAge, workflow failures,
 * schedule failed invocations, table throttling and system errors, each naming its runbook section.
 * The actions (the alarm topic) are added to every alarm of the platform by the root stack. Built by
 * `platform-alarms.ts` (one builder per kind) and `dashboard-widgets.ts`.
 */
export class Observability extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: {
    /** 5xx / Count of the whole API over 5 minutes. */
    readonly api5xxRate: cloudwatch.Alarm;
    /** p99 latency of the whole API over 15 minutes. */
    readonly apiLatencyP99: cloudwatch.Alarm;
    /** Function name -> Errors over 5 minutes. */
    readonly functionErrors: Readonly<Record<string, cloudwatch.Alarm>>;
    /** Function name -> Throttles over 5 minutes. */
    readonly functionThrottles: Readonly<Record<string, cloudwatch.Alarm>>;
    readonly queues: Readonly<Partial<Record<QueueKey, QueueAlarms>>>;
    /** Stream consumer name -> IteratorAge. */
    readonly streams: Readonly<Record<string, cloudwatch.Alarm>>;
    /** Failed, timed-out or aborted executions. */
    readonly stateMachines: Readonly<Record<WorkflowName, cloudwatch.Alarm>>;
    /** Schedule row name -> FailedInvocations. */
    readonly schedules: Readonly<Record<string, cloudwatch.Alarm>>;
    readonly tableThrottling: cloudwatch.Alarm;
    readonly tableSystemErrors: cloudwatch.Alarm;
  };

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    for (const key of DASHBOARD_ROUTES) {
      if (!props.api.routes.has(key)) throw new Error(`Dashboard route "${key}" is not in the route table`);
    }
    this.alarms = buildAlarms(new AlarmKit(this), props);
    const widgets = new DashboardWidgets({ ...props, routes: DASHBOARD_ROUTES, alarms: this.alarms });
    // Every alarm of the platform (the pipelines' own too, in whichever stack).
    const allAlarms = rootStackOf(this)
      .node.findAll()
      .filter((c): c is cloudwatch.Alarm => c instanceof cloudwatch.Alarm);
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: DASHBOARD_NAME,
      defaultInterval: Duration.hours(3),
      widgets: widgets.rows(allAlarms),
    });
  }
}

/** Every alarm, by capability, in the order they always had (the pipelines' own alarms are reused). */
function buildAlarms(kit: AlarmKit, props: ObservabilityProps): Observability['alarms'] {
  const existing = props.existingAlarms ?? {};
  const queues: [QueueKey, sqs.IQueue][] = [
    ...(Object.entries(props.queues) as [QueueName, sqs.IQueue][]),
    ...(props.scheduleFailureQueue ? [[SCHEDULE_FAILURE_QUEUE, props.scheduleFailureQueue] as [QueueKey, sqs.IQueue]] : []),
  ];
  return {
    ...apiAlarms(kit, props.api),
    ...functionAlarms(kit, props.functions),
    queues: queueAlarms(kit, queues, existing.queues),
    streams: streamAlarms(kit, props.functions, existing.streams),
    stateMachines: workflowAlarms(kit, props.stateMachines, existing.stateMachines),
    schedules: scheduleAlarms(kit, props.schedules),
    ...tableAlarms(kit, props.table),
  };
}

/** The stack at the top (every alarm of the platform is below it, nested stacks included). */
function rootStackOf(scope: Construct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}
