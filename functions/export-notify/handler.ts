import { egressFromConfig } from '../../shared/platform/adapters/egress';
import { linkSignerFromConfig } from '../../shared/platform/adapters/link-signer';
import { secretSealerFromConfig } from '../../shared/platform/adapters/secret-sealer';
import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { notify } from '../../shared/exports';

/** The export workflow's `Notify` Task (infra/app/workflows/export.asl.json): the signed completion notice. */
export const handler = workflowTask('Notify', (input) =>
  notify(input, { egress: egressFromConfig(), objectStore: linkSignerFromConfig(), sealer: secretSealerFromConfig() }),
);
