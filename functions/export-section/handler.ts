import { secretStoreFromConfig } from '../../shared/adapters/secret-store';
import { useSecretStore } from '../../shared/ports/secrets';
import { objectStoreFromConfig } from '../../shared/adapters/object-store';
import { workflowTask } from '../../shared/consumers/workflow-task';
import { buildSection } from '../../shared/domain/exports/workflow';

// Pages through the table with cursors (its access declares the `pageCursors` secret).
useSecretStore(secretStoreFromConfig);

/** The export workflow's `BuildSection` Task (infra/workflows/export.asl.json). */
export const handler = workflowTask('BuildSection', (input) => buildSection(input, objectStoreFromConfig()));
