import { linkSignerFromConfig } from '../../shared/platform/adapters/link-signer';
import { workflowTask } from '../../shared/platform/consumers/workflow-task';
import { applyChunk } from '../../shared/imports';
import { tableLedgerStore } from '../../shared/members';

/** The import workflow's `ApplyChunk` Task (infra/app/workflows/import.asl.json). */
export const handler = workflowTask('ApplyChunk', (input) => applyChunk(input, { objectStore: linkSignerFromConfig(), ledger: tableLedgerStore }));
