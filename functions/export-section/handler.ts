import { secretStoreFromConfig } from '../../shared/platform/adapters/secret-store';
import { useSecretStore } from '../../shared/platform/ports/secrets';
import { objectStoreFromConfig } from '../../shared/platform/adapters/object-store';
import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { buildSection } from '../../shared/exports';

// Pages through the table with cursors (its access declares the `pageCursors` secret).
useSecretStore(secretStoreFromConfig);

/** The export workflow's `BuildSection` Task (infra/app/workflows/export.asl.json). */
export const handler = workflowTask('BuildSection', (input) => buildSection(input, objectStoreFromConfig()));
