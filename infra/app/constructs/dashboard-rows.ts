import type { ConsumerName } from '../../../shared/platform/consumers/table';
import type { Area } from '../../../shared/http/declarations';
import type { Capability } from '../../../shared/platform/observability/metric-catalog';
import type { QueueName } from '../../../shared/platform/ports/queue';
import type { WorkflowName } from '../../../shared/platform/ports/workflows';

/**
 * The rows of the operators' dashboard, one per capability of the business metric catalog, top to
 * bottom, and where each running thing belongs. The records are exhaustive by type: a new area,
 * consumer, queue, workflow or capability does not compile until it has a row.
 */
export const CAPABILITY_ROWS: Readonly<Record<Capability, string>> = {
  api: 'API',
  'points-orders': 'Points and orders',
  webhooks: 'Webhooks',
  wallet: 'Wallet',
  exports: 'Exports',
  mcp: 'MCP',
  audit: 'Audit trail',
};

/** The last row: what every capability shares (the table, the failure queue of scheduled runs). */
export const SHARED_ROW_TITLE = 'Shared: table and scheduled runs';

export const AREA_CAPABILITY: Readonly<Record<Area, Capability>> = {
  system: 'api',
  auth: 'api',
  'api-keys': 'api',
  team: 'api',
  stores: 'api',
  objects: 'api',
  catalog: 'api',
  tags: 'api',
  captures: 'api',
  ambassador: 'api',
  tracking: 'api',
  program: 'points-orders',
  campaigns: 'points-orders',
  members: 'points-orders',
  orders: 'points-orders',
  coupons: 'points-orders',
  rewards: 'points-orders',
  webhooks: 'webhooks',
  portal: 'wallet',
  wallet: 'wallet',
  'wallet-passes': 'wallet',
  exports: 'exports',
  privacy: 'exports',
  imports: 'exports',
  mcp: 'mcp',
  audit: 'audit',
  overview: 'api',
};

export const CONSUMER_CAPABILITY: Readonly<Record<ConsumerName, Capability>> = {
  'webhook-fanout': 'webhooks',
  'webhook-worker': 'webhooks',
  'webhook-dlq': 'webhooks',
  'wallet-changes': 'wallet',
  'wallet-push': 'wallet',
  'export-begin': 'exports',
  'export-section': 'exports',
  'export-assemble': 'exports',
  'export-rows': 'exports',
  'export-complete': 'exports',
  'export-fail': 'exports',
  'export-scheduler': 'exports',
  'program-due': 'points-orders',
  'export-notify': 'exports',
  'import-begin': 'exports',
  'import-chunk': 'exports',
  'import-finish': 'exports',
  'import-fail': 'exports',
};

export const QUEUE_CAPABILITY: Readonly<Record<QueueName, Capability>> = {
  webhookDeliveries: 'webhooks',
  webhookDeadLetters: 'webhooks',
  walletPushes: 'wallet',
  walletPushDeadLetters: 'wallet',
};

export const WORKFLOW_CAPABILITY: Readonly<Record<WorkflowName, Capability>> = {
  export: 'exports',
  import: 'exports',
};

/** The row of a function by its name (an area or a consumer row); throws on an unknown name. */
export function functionCapability(name: string): Capability {
  const capability = (AREA_CAPABILITY as Record<string, Capability>)[name] ?? (CONSUMER_CAPABILITY as Record<string, Capability>)[name];
  if (!capability) throw new Error(`dashboard: function "${name}" has no capability row (infra/app/constructs/dashboard-rows.ts)`);
  return capability;
}
