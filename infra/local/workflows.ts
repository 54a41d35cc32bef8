import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { logger } from '../../shared/platform/observability/logger';
import { WORKFLOWS, type WorkflowName, type Workflows } from '../../shared/platform/ports/workflows';
import { substituteNumbers } from '../app/workflows/numbers';
import { lambdaContext } from './lambda-runtime';

/**
 * Step Functions, emulated: the same ASL file CDK deploys (`infra/app/workflows/<name>.asl.json`), run
 * in process by `aws-local-stepfunctions`, each Task state calling the handler of its
 * `workflowTask` row (as `lambda:invoke` does: the state's `Payload` in, the handler's result out).
 *
 * Not emulated: executions surviving a restart of the runtime (one cut off stays `running` until
 * its job's deadline fails it), and the 256 KiB payload limit (the workflow passes only keys and
 * counts anyway). `LOCAL_WORKFLOW_RETRY_MS` replaces every Retry interval (tests see a whole retry
 * cycle in seconds).
 */

export const WORKFLOW_DIR = fileURLToPath(new URL('../app/workflows/', import.meta.url));

/** The ASL definition of a workflow, as CDK reads it, with the same retry numbers substituted. */
export function workflowDefinition(workflow: WorkflowName): StateMachineDefinition {
  const text = readFileSync(join(WORKFLOW_DIR, WORKFLOWS[workflow].file), 'utf8');
  return JSON.parse(substituteNumbers(workflow, text)) as StateMachineDefinition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TaskHandler = (event: any, context: any) => Promise<unknown>;

/** Names of every state with a Retry, nested Map and Parallel states included. */
function retryingStates(states: Record<string, unknown>): string[] {
  return Object.entries(states).flatMap(([name, raw]) => {
    const s = raw as {
      Retry?: unknown;
      ItemProcessor?: { States: Record<string, unknown> };
      Iterator?: { States: Record<string, unknown> };
      Branches?: { States: Record<string, unknown> }[];
    };
    const nested = [s.ItemProcessor, s.Iterator, ...(s.Branches ?? [])].flatMap((d) => (d ? retryingStates(d.States) : []));
    return [...(s.Retry ? [name] : []), ...nested];
  });
}

export interface RunWorkflowOptions {
  /** Every Retry waits this long instead of its own interval. */
  retryIntervalMs?: number;
  /** Execution name (`$$.Execution.Name`). */
  name?: string;
}

/** One execution: resolves with its output, rejects with the execution's error (a Fail state, an uncaught error). */
export function runWorkflow(
  definition: StateMachineDefinition,
  tasks: Record<string, TaskHandler>,
  input: Record<string, unknown>,
  opts: RunWorkflowOptions = {},
) {
  const machine = new StateMachine(definition, { validationOptions: { checkArn: false } });
  const taskResourceLocalHandlers = Object.fromEntries(
    Object.entries(tasks).map(([state, handler]) => [
      state,
      async (invoke: unknown) => {
        const { FunctionName, Payload } = invoke as { FunctionName: string; Payload: unknown };
        return { Payload: (await handler(Payload, lambdaContext(String(FunctionName)))) ?? null } as never;
      },
    ]),
  );
  const retryIntervalOverrides =
    opts.retryIntervalMs !== undefined ? Object.fromEntries(retryingStates(definition.States).map((s) => [s, opts.retryIntervalMs!])) : undefined;
  return machine.run(input as never, {
    overrides: { taskResourceLocalHandlers, ...(retryIntervalOverrides ? { retryIntervalOverrides } : {}) },
    context: { Execution: { Name: opts.name ?? 'local', Input: input as never, StartTime: new Date().toISOString() } },
  });
}

/** The local runtime's `Workflows` port: executions run in this process, in the background. */
export class LocalWorkflows implements Workflows {
  private readonly started = new Set<string>();
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly tasks: Record<string, Record<string, TaskHandler>>,
    private readonly opts: { retryIntervalMs?: number } = {},
  ) {}

  async start(workflow: WorkflowName, name: string, input: Record<string, unknown>): Promise<void> {
    // Like Step Functions: an execution name is used once per workflow.
    const id = `${workflow}/${name}`;
    if (this.started.has(id)) return;
    this.started.add(id);
    const execution = runWorkflow(workflowDefinition(workflow), this.tasks[workflow] ?? {}, input, { ...this.opts, name });
    const settled = execution.result
      .catch((error: unknown) => logger.warn('local workflow execution failed', { workflow, name, error: error as Error }))
      .finally(() => this.running.delete(settled));
    this.running.add(settled);
  }

  /** Waits for executions under way (at most `graceMs`). */
  async stop(graceMs: number): Promise<void> {
    await Promise.race([Promise.all(this.running), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }
}
