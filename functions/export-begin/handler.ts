import { workflowTask } from '../../shared/consumers/workflow-task';
import { begin } from '../../shared/domain/exports/workflow';

/** The export workflow's `Begin` Task (infra/workflows/export.asl.json). */
export const handler = workflowTask('Begin', (input) => begin(input));
