import { objectStoreFromConfig } from '../../shared/platform/adapters/object-store';
import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { writeRows } from '../../shared/exports';

/** The export workflow's `WriteRows` Task (infra/app/workflows/export.asl.json). */
export const handler = workflowTask('WriteRows', (input) => writeRows(input, objectStoreFromConfig()));
