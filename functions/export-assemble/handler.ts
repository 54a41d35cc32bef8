import { objectStoreFromConfig } from '../../shared/platform/adapters/object-store';
import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { assemble } from '../../shared/exports';

/** The export workflow's `Assemble` Task (infra/app/workflows/export.asl.json). */
export const handler = workflowTask('Assemble', (input) => assemble(input, objectStoreFromConfig()));
