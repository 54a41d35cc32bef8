import { workflowTask } from '../../shared/consumers/workflow-task';
import { markCompleted } from '../../shared/domain/exports/workflow';

/** The export workflow's `MarkCompleted` Task (infra/workflows/export.asl.json). */
export const handler = workflowTask('MarkCompleted', (input) => markCompleted(input));
