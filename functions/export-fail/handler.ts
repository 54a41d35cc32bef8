import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { markFailed } from '../../shared/exports';

/** The export workflow's `MarkFailed` Task (infra/app/workflows/export.asl.json). */
export const handler = workflowTask('MarkFailed', (input) => markFailed(input));
