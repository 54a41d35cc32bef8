import { objectStoreFromConfig } from '../../shared/platform/adapters/object-store';
import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { buildSection } from '../../shared/exports/workflow';

/** The export workflow's `BuildSection` Task (infra/app/workflows/export.asl.json). */
export const handler = workflowTask('BuildSection', (input) => buildSection(input, objectStoreFromConfig()));
