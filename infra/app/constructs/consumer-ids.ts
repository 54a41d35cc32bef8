import type { ConsumerName } from '../../../shared/platform/consumers/table';

/**
 * The CDK construct id of each background consumer's function (the rows of
 * shared/platform/consumers/table.ts). Part of every logical ID of the function, its role, log group
 * and event source mapping: changing one replaces them (a new stream mapping re-reads the stream from
 * TRIM_HORIZON). Only the deployment needs it, so it is declared here rather than in the table the
 * local runtime reads too. No aws-cdk-lib import: tests read it without building a stack.
 */
export const CONSUMER_CONSTRUCT_IDS: Readonly<Record<ConsumerName, string>> = {
  'webhook-fanout': 'Fanout',
  'webhook-worker': 'Worker',
  'webhook-dlq': 'DeadLetter',
  'wallet-changes': 'WalletChanges',
  'wallet-push': 'WalletPush',
  'export-begin': 'ExportBegin',
  'export-section': 'ExportSection',
  'export-assemble': 'ExportAssemble',
  'export-rows': 'ExportRows',
  'export-complete': 'ExportComplete',
  'export-fail': 'ExportFail',
  'program-due': 'ProgramDue',
  'export-scheduler': 'ExportScheduler',
  'export-notify': 'ExportNotify',
  'import-begin': 'ImportBegin',
  'import-chunk': 'ImportChunk',
  'import-finish': 'ImportFinish',
  'import-fail': 'ImportFail',
};
