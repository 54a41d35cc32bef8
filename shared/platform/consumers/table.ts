import { config, EXPORT_NUMBERS, type NumberGroup, WEBHOOK_NUMBERS } from '../config';
import { MEMBER_CHANGE_STREAM_FILTER, OUTBOX_STREAM_FILTER } from '../events/stream-filter';
import type { Access } from '../contract/endpoint';
import type { QueueName } from '../ports/queue';

/**
 * THE table of background consumers: every function that is not behind the HTTP API. CDK
 * (`infra/app/constructs/webhooks.ts`: function, event source or schedule, grants) and the local runtime
 * (`infra/local/pipelines.ts`: queue driver, stream poller, scheduler) are both derived from these
 * rows, so a new consumer is a row here plus `functions/<name>/handler.ts` (plus its queue or
 * workflow, if new). Numbers come from `shared/platform/config`, never written here. What only the
 * deployment needs (each function's construct id) is in the CDK app
 * (`infra/app/constructs/consumer-ids.ts`), what only the local runtime needs (its queue driver's
 * poll loops and batching window) in `infra/local/pipelines.ts`.
 */

/** Lambda filter pattern (the subset the local stream poller understands: objects and literal lists). */
export type StreamFilter = { readonly [key: string]: StreamFilter | readonly (string | number | boolean | null)[] };

interface ConsumerCommon {
  /** Function name (`POWERTOOLS_SERVICE_NAME`, dashboards) and entry: `functions/<name>/handler.ts`. */
  readonly name: string;
  readonly description: string;
  readonly timeoutSeconds: number;
  /** Number groups the function reads through `numbersOf()`; CDK writes their variables. */
  readonly settings: readonly NumberGroup<string>[];
  /** What the function touches (table level, queues it sends to); CDK grants exactly this. */
  readonly access: Access;
}

export interface QueueConsumerRow extends ConsumerCommon {
  readonly kind: 'queue';
  /** The queue consumed; its URL variable is set too (for `changeVisibility`). */
  readonly source: QueueName;
  readonly batchSize: number;
}

export interface StreamConsumerRow extends ConsumerCommon {
  readonly kind: 'stream';
  /** The single table's stream. */
  readonly source: 'table';
  readonly filter?: StreamFilter;
  readonly batchSize: number;
}

export interface ScheduleConsumerRow extends ConsumerCommon {
  readonly kind: 'schedule';
  /** EventBridge schedule expression: `rate(...)` or `cron(...)` (UTC). */
  readonly source: string;
}

export interface WorkflowTaskRow extends ConsumerCommon {
  readonly kind: 'workflowTask';
  /** The workflow (state machine) and its task state that invokes this function. */
  readonly source: { readonly workflow: string; readonly state: string };
}

export type ConsumerRow = QueueConsumerRow | StreamConsumerRow | ScheduleConsumerRow | WorkflowTaskRow;
export type ConsumerKind = ConsumerRow['kind'];

const w = config.webhooks;

// --- Data exports ---
/** The longest export steps (a section, the archive, an operational file) get Lambda's maximum. */
export const EXPORT_STEP_TIMEOUT_SECONDS = config.exports.stepTimeoutSeconds;

function exportTask<N extends string>(name: N, state: string, what: string, timeoutSeconds: number, access: Access) {
  return [
    {
      name,
      description: `Loyalty platform: export workflow, ${state} (${what})`,
      kind: 'workflowTask',
      source: { workflow: 'export', state },
      timeoutSeconds,
      settings: [EXPORT_NUMBERS, WEBHOOK_NUMBERS] as readonly NumberGroup<string>[],
      access,
    },
  ] as const;
}

/** A Task state of the import workflow (infra/app/workflows/import.asl.json). */
function importTask<N extends string>(name: N, state: string, what: string, timeoutSeconds: number, access: Access) {
  return [
    {
      name,
      description: `Loyalty platform: import workflow, ${state} (${what})`,
      kind: 'workflowTask',
      source: { workflow: 'import', state },
      timeoutSeconds,
      settings: [] as readonly NumberGroup<string>[],
      access,
    },
  ] as const;
}

export const CONSUMERS = [
  {
    name: 'webhook-fanout',
    description: 'Loyalty platform: webhook fan-out (table stream -> delivery queue)',
    kind: 'stream',
    source: 'table',
    filter: OUTBOX_STREAM_FILTER,
    batchSize: w.fanoutBatchSize,
    timeoutSeconds: config.lambda.timeoutSeconds,
    settings: [WEBHOOK_NUMBERS],
    // Reads the subscribed endpoints (page by page); writes nothing but queue messages.
    access: { table: 'read', sendsTo: ['webhookDeliveries'], secrets: ['pageCursors'] },
  },
  {
    name: 'webhook-worker',
    description: 'Loyalty platform: webhook delivery worker',
    kind: 'queue',
    source: 'webhookDeliveries',
    batchSize: w.workerBatchSize,
    timeoutSeconds: w.workerTimeoutSeconds,
    settings: [WEBHOOK_NUMBERS],
    access: { table: 'readWrite', signingSecrets: 'open' },
  },
  {
    name: 'webhook-dlq',
    description: 'Loyalty platform: webhook dead-letter consumer (marks deliveries dead)',
    kind: 'queue',
    source: 'webhookDeadLetters',
    batchSize: w.workerBatchSize,
    timeoutSeconds: config.lambda.timeoutSeconds,
    settings: [WEBHOOK_NUMBERS],
    access: { table: 'readWrite' },
  },
  // --- Wallet cards ---
  {
    name: 'wallet-changes',
    description: 'Loyalty platform: wallet changes (member points, tier or status changed -> wallet push queue)',
    kind: 'stream',
    source: 'table',
    filter: MEMBER_CHANGE_STREAM_FILTER,
    batchSize: config.wallet.push.streamBatchSize,
    timeoutSeconds: config.lambda.timeoutSeconds,
    settings: [],
    // Decides from the stream images alone; writes nothing but queue messages.
    access: { table: 'none', sendsTo: ['walletPushes'] },
  },
  {
    name: 'wallet-push',
    description: 'Loyalty platform: wallet push worker (APNs pushes, Google Wallet object updates)',
    kind: 'queue',
    source: 'walletPushes',
    batchSize: config.wallet.push.batchSize,
    timeoutSeconds: config.wallet.push.workerTimeoutSeconds,
    settings: [],
    access: { table: 'readWrite', walletCredentials: true },
  },
  // --- Data exports: the Task states of the export workflow (infra/app/workflows/export.asl.json) ---
  ...exportTask('export-begin', 'Begin', 'pending -> running', config.lambda.timeoutSeconds, { table: 'readWrite' }),
  ...exportTask('export-section', 'BuildSection', 'one archive section staged in the bucket', EXPORT_STEP_TIMEOUT_SECONDS, {
    table: 'read',
    exportsBucket: 'readWrite',
    secrets: ['pageCursors'],
  }),
  ...exportTask('export-assemble', 'Assemble', 'the archive streamed from its sections', EXPORT_STEP_TIMEOUT_SECONDS, {
    table: 'none',
    exportsBucket: 'readWrite',
  }),
  ...exportTask('export-rows', 'WriteRows', 'an operational CSV/JSONL file', EXPORT_STEP_TIMEOUT_SECONDS, {
    table: 'read',
    exportsBucket: 'readWrite',
  }),
  ...exportTask('export-complete', 'MarkCompleted', 'running -> completed', config.lambda.timeoutSeconds, { table: 'readWrite' }),
  ...exportTask('export-fail', 'MarkFailed', 'pending/running -> failed', config.lambda.timeoutSeconds, { table: 'readWrite' }),
  {
    name: 'program-due',
    description: 'Loyalty platform: program due work (activates pending points, sends expiry warnings, expires points) of every workspace',
    kind: 'schedule',
    source: `rate(${config.programDue.tickMinutes} minutes)`,
    timeoutSeconds: config.programDue.timeoutSeconds,
    settings: [] as readonly NumberGroup<string>[],
    // Walks the due tier reviews page by page.
    access: { table: 'readWrite', secrets: ['pageCursors'] },
  },
  {
    name: 'export-scheduler',
    description: 'Loyalty platform: export schedules tick (starts every due scheduled export once per period)',
    kind: 'schedule',
    source: `rate(${config.exports.scheduleTickMinutes} minutes)`,
    timeoutSeconds: config.exports.schedulerTimeoutSeconds,
    settings: [EXPORT_NUMBERS] as readonly NumberGroup<string>[],
    access: { table: 'readWrite', startsWorkflows: ['export'] },
  },
  ...exportTask('export-notify', 'Notify', 'signed completion notice', config.lambda.timeoutSeconds, {
    table: 'read',
    exportsBucket: 'read',
    signingSecrets: 'open',
  }),
  // --- Imports: the Task states of the import workflow ---
  // A filtered job's Begin lists the members list's pages (their cursors are signed) into its chunks.
  ...importTask('import-begin', 'Begin', 'the chunks of a previewed job', config.lambda.timeoutSeconds, { table: 'readWrite', secrets: ['pageCursors'] }),
  ...importTask('import-chunk', 'ApplyChunk', 'one chunk of rows applied, each once', EXPORT_STEP_TIMEOUT_SECONDS, {
    table: 'readWrite',
    exportsBucket: 'read',
  }),
  ...importTask('import-finish', 'Finish', 'applying -> completed', config.lambda.timeoutSeconds, { table: 'readWrite' }),
  ...importTask('import-fail', 'MarkFailed', 'applying -> failed', config.lambda.timeoutSeconds, { table: 'readWrite' }),
] as const satisfies readonly ConsumerRow[];

export type ConsumerName = (typeof CONSUMERS)[number]['name'];

/** The row of a consumer (throws on a name that is not in the table). */
export function consumer<N extends ConsumerName>(name: N): Extract<(typeof CONSUMERS)[number], { name: N }> {
  const row = CONSUMERS.find((c) => c.name === name);
  if (!row) throw new Error(`no consumer ${name}`);
  return row as Extract<(typeof CONSUMERS)[number], { name: N }>;
}
