import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { workflowArnEnvName, type WorkflowName, type Workflows } from '../ports/workflows';
import { traceClient } from '../observability/tracing';

/** Step Functions: one StartExecution per job, named after the job (a repeat is refused, not run twice). */
export class SfnWorkflows implements Workflows {
  private readonly client: SFNClient;

  constructor(
    region: string,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {
    this.client = traceClient(new SFNClient({ region }));
  }

  async start(workflow: WorkflowName, name: string, input: Record<string, unknown>): Promise<void> {
    const arn = this.env[workflowArnEnvName(workflow)];
    if (!arn) throw new Error(`${workflowArnEnvName(workflow)} is not set: this function declares no start of the ${workflow} workflow`);
    try {
      await this.client.send(new StartExecutionCommand({ stateMachineArn: arn, name, input: JSON.stringify(input) }));
    } catch (err) {
      if (err instanceof ExecutionAlreadyExists) return;
      throw err;
    }
  }
}
