import { objectStoreFromConfig } from '../../shared/adapters/object-store';
import { workflowTask } from '../../shared/consumers/workflow-task';
import { assemble } from '../../shared/domain/exports/workflow';

/** The export workflow's `Assemble` Task (infra/workflows/export.asl.json). */
export const handler = workflowTask('Assemble', (input) => assemble(input, objectStoreFromConfig()));
