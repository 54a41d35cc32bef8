import { objectStoreFromConfig } from '../../shared/adapters/object-store';
import { workflowTask } from '../../shared/consumers/workflow-task';
import { buildSection } from '../../shared/domain/exports/workflow';

/** The export workflow's `BuildSection` Task (infra/workflows/export.asl.json). */
export const handler = workflowTask('BuildSection', (input) => buildSection(input, objectStoreFromConfig()));
