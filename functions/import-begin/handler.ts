import { secretStoreFromConfig } from '../../shared/platform/adapters/secret-store';
import { useSecretStore } from '../../shared/platform/ports/secrets';
import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { begin } from '../../shared/imports';

// A filtered job pages through the members list with cursors (its access declares the `pageCursors` secret).
useSecretStore(secretStoreFromConfig);

/** The import workflow's `Begin` Task (infra/app/workflows/import.asl.json). */
export const handler = workflowTask('Begin', begin);
