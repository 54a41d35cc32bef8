import { config } from '../../../shared/platform/config';
import type { WorkflowName } from '../../../shared/platform/ports/workflows';

/** Webhook delivery backoff doubles per attempt (base * 2^(n-1)); the notices retry the same way. */
const WEBHOOK_BACKOFF_RATE = 2;

/** The retry numbers both job workflows share: their tasks and the step that marks a job failed. */
function jobRetryNumbers() {
  const { task, markFailed } = config.exportWorkflowRetry;
  return {
    TaskRetryIntervalSeconds: task.intervalSeconds,
    TaskRetryMaxAttempts: task.maxAttempts,
    TaskRetryBackoffRate: task.backoffRate,
    MarkFailedRetryIntervalSeconds: markFailed.intervalSeconds,
    MarkFailedRetryMaxAttempts: markFailed.maxAttempts,
    MarkFailedRetryBackoffRate: markFailed.backoffRate,
  };
}

function numbersOf(workflow: WorkflowName): Record<string, number> {
  switch (workflow) {
    case 'export': {
      const w = config.webhooks;
      return {
        ...jobRetryNumbers(),
        NoticeRetryIntervalSeconds: w.backoffBaseSeconds,
        // The first notice is an attempt too: maxAttempts in all, like a webhook delivery.
        NoticeRetryMaxAttempts: w.maxAttempts - 1,
        NoticeRetryBackoffRate: WEBHOOK_BACKOFF_RATE,
        NoticeRetryMaxDelaySeconds: w.backoffCapSeconds,
      };
    }
    case 'import':
      return {
        ...jobRetryNumbers(),
        ChunkConcurrency: config.imports.chunkConcurrency,
        // The state waits a minute longer than its function may run: the function's own time-out is the one that ends it.
        ChunkTimeoutSeconds: config.exports.stepTimeoutSeconds + 60,
      };
  }
}

/**
 * The numbers a workflow's ASL file leaves as `${Name}` (its Retry blocks), by name, from config.
 * CDK hands them to Step Functions as `DefinitionSubstitutions`; the local runtime substitutes the
 * same values before it parses the file (`substituteNumbers`).
 */
export function workflowNumberSubstitutions(workflow: WorkflowName): Record<string, string> {
  return Object.fromEntries(Object.entries(numbersOf(workflow)).map(([name, value]) => [name, String(value)]));
}

/** The ASL text with every number substitution filled in (Task function ARNs are left as they are). */
export function substituteNumbers(workflow: WorkflowName, text: string): string {
  const numbers = workflowNumberSubstitutions(workflow);
  return text.replace(/\$\{(\w+)\}/g, (whole, name: string) => numbers[name] ?? whole);
}
