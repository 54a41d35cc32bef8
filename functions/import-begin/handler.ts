import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { begin } from '../../shared/imports';

/** The import workflow's `Begin` Task (infra/app/workflows/import.asl.json). */
export const handler = workflowTask('Begin', begin);
