import { egressFromConfig } from '../../shared/adapters/egress';
import { linkSignerFromConfig } from '../../shared/adapters/link-signer';
import { secretSealerFromConfig } from '../../shared/adapters/secret-sealer';
import { workflowTask } from '../../shared/consumers/workflow-task';
import { notify } from '../../shared/domain/exports/notice';

/** The export workflow's `Notify` Task (infra/workflows/export.asl.json): the signed completion notice. */
export const handler = workflowTask('Notify', (input) =>
  notify(input, { egress: egressFromConfig(), objectStore: linkSignerFromConfig(), sealer: secretSealerFromConfig() }),
);
