import { workflowTask } from '../../shared/consumers/workflow-task';
import { markFailed } from '../../shared/domain/exports/workflow';

/** The export workflow's `MarkFailed` Task (infra/workflows/export.asl.json). */
export const handler = workflowTask('MarkFailed', (input) => markFailed(input));
