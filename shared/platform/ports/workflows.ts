/**
 * The platform's workflows (Step Functions state machines). Each is one ASL file
 * `infra/app/workflows/<name>.asl.json`: CDK deploys it, the local runtime runs the same file with
 * `aws-local-stepfunctions`, and both invoke the Task handlers of the consumer table's
 * `workflowTask` rows.
 */
export const WORKFLOWS = {
  export: { file: 'export.asl.json' },
  import: { file: 'import.asl.json' },
} as const;

export type WorkflowName = keyof typeof WORKFLOWS;

/** `WORKFLOW_ARN_<NAME>`: the variable CDK sets with the state machine's ARN on the functions that start it. */
export const workflowArnEnvName = (workflow: WorkflowName): string => `WORKFLOW_ARN_${workflow.toUpperCase()}`;

export interface Workflows {
  /**
   * Starts one execution. `name` is unique per workflow (the job id): starting the same name twice
   * starts it once (Step Functions refuses a second execution of that name with other input).
   */
  start(workflow: WorkflowName, name: string, input: Record<string, unknown>): Promise<void>;
}
