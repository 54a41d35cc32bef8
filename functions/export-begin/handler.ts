import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { begin } from '../../shared/exports';

/** The export workflow's `Begin` Task (infra/app/workflows/export.asl.json). */
export const handler = workflowTask('Begin', (input) => begin(input));
