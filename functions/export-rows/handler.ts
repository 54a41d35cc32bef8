import { objectStoreFromConfig } from '../../shared/adapters/object-store';
import { workflowTask } from '../../shared/consumers/workflow-task';
import { writeRows } from '../../shared/domain/exports/workflow';

/** The export workflow's `WriteRows` Task (infra/workflows/export.asl.json). */
export const handler = workflowTask('WriteRows', (input) => writeRows(input, objectStoreFromConfig()));
