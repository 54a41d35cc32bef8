import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { markFailed } from '../../shared/imports';

/** The import workflow's `MarkFailed` Task (infra/app/workflows/import.asl.json). */
export const handler = workflowTask('MarkFailed', markFailed);
