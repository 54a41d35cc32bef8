import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { finish } from '../../shared/imports';

/** The import workflow's `Finish` Task (infra/app/workflows/import.asl.json). */
export const handler = workflowTask('Finish', finish);
