import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { markCompleted } from '../../shared/exports';

/** The export workflow's `MarkCompleted` Task (infra/app/workflows/export.asl.json). */
export const handler = workflowTask('MarkCompleted', (input) => markCompleted(input));
