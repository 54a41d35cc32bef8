import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AsyncLocalStorage } from 'node:async_hooks';
import { config, runtimeConfig } from '../config';
import { withoutSdkLog } from '../observability/sdk-log';
import { traceClient } from '../observability/tracing';
import { attachCommitHooks } from './commit-hooks';

/**
 * The deadline of the work in progress (an API request): every store call made inside
 * `withStoreDeadline` is aborted when the signal fires, whichever repository made it.
 */
export interface StoreScope {
  /** Fires at the request's deadline. */
  signal: AbortSignal;
  /** Writes of this request (transactions and single items) in flight now, or whose outcome is in doubt. */
  unsettledWrites: number;
  /**
   * Work the store's commit hooks left for the end of the request (commit-hooks.ts): set by each
   * transaction, run once before the request answers. Never set against DynamoDB.
   */
  beforeAnswer?: () => Promise<void>;
  /** When the signal fires (epoch ms): retry loops start no attempt the deadline would cut off. */
  deadlineAt?: number;
}

const deadlines = new AsyncLocalStorage<StoreScope>();

export function withStoreDeadline<T>(scope: StoreScope, work: () => Promise<T>): Promise<T> {
  return deadlines.run(scope, work);
}

/** The deadline signal of the current request, if any. */
export const storeDeadline = (): AbortSignal | undefined => deadlines.getStore()?.signal;

/** The current request's scope, if any (the transaction wrapper reports unsettled commits to it). */
export const storeScope = (): StoreScope | undefined => deadlines.getStore();

type AnySignal = { aborted: boolean };
type HandleOptions = { abortSignal?: AnySignal; requestTimeout?: number; [k: string]: unknown };
type Handler = { handle: (request: { headers?: Record<string, string> }, options?: HandleOptions) => Promise<unknown> };

/**
 * Table administration (the local runtime creating or migrating its table; in AWS CloudFormation
 * does it) is slow by nature and never on a request's path: it gets `adminRequestTimeoutMs`.
 */
const ADMIN_OPERATIONS = /^DynamoDB_\d+\.(CreateTable|UpdateTable|DeleteTable|UpdateTimeToLive)$/;
/** Calls touching up to 100 items (transactions, batches) get `bulkRequestTimeoutMs` per attempt. */
const BULK_OPERATIONS = /^DynamoDB_\d+\.(TransactWriteItems|TransactGetItems|BatchWriteItem|BatchGetItem)$/;

/** The per-attempt time-out of a call, by its operation (`undefined`: the client's `requestTimeoutMs`). */
function attemptTimeoutOf(target: string): number | undefined {
  if (ADMIN_OPERATIONS.test(target)) return config.dynamodb.adminRequestTimeoutMs;
  if (BULK_OPERATIONS.test(target)) return config.dynamodb.bulkRequestTimeoutMs;
  return undefined;
}

/**
 * Lets the request's deadline abort the HTTP call of every attempt (on top of the caller's own
 * signal), and gives transactions, batches and table administration their longer time-outs.
 */
function honourDeadline(client: DynamoDBClient): void {
  const handler = client.config.requestHandler as unknown as Handler;
  const handle = handler.handle.bind(handler);
  handler.handle = (request, options = {}) => {
    const timeout = attemptTimeoutOf(request.headers?.['x-amz-target'] ?? '');
    const opts: HandleOptions = timeout !== undefined && options.requestTimeout === undefined ? { ...options, requestTimeout: timeout } : options;
    const deadline = deadlines.getStore()?.signal;
    if (!deadline) return handle(request, opts);
    const own = opts.abortSignal as AbortSignal | undefined;
    return handle(request, { ...opts, abortSignal: own ? AbortSignal.any([own, deadline]) : deadline });
  };
}

export interface StoreClientOptions {
  endpoint?: string;
  region?: string;
  /** SDK attempts per call (default `config.dynamodb.maxAttempts`). */
  maxAttempts?: number;
}

/**
 * A document client with the platform's time budget: `connectionTimeoutMs` to connect,
 * `requestTimeoutMs` per attempt (a frozen store is a TimeoutError, never a hang), bounded attempts.
 */
export function createDocumentClient(opts: StoreClientOptions = {}): DynamoDBDocumentClient {
  const { requestTimeoutMs, maxAttempts } = config.dynamodb;
  const local = opts.endpoint !== undefined;
  const base = traceClient(
    withoutSdkLog(
      new DynamoDBClient({
        region: opts.region ?? 'eu-west-1',
        maxAttempts: opts.maxAttempts ?? maxAttempts,
        requestHandler: {
          connectionTimeout: local ? config.dynamodb.local.connectionTimeoutMs : config.dynamodb.connectionTimeoutMs,
          // From sending the request to the answer's headers, per attempt; an error, not a warning.
          requestTimeout: requestTimeoutMs,
          throwOnRequestTimeout: true,
          // A Lambda container serves one request at a time; the local runtime serves them all.
          ...(local ? { httpAgent: { keepAlive: true, maxSockets: config.dynamodb.local.maxSockets } } : {}),
        },
        ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      }),
    ),
  );
  honourDeadline(base);
  const doc = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  attachCommitHooks(doc, opts);
  return doc;
}

let doc: DynamoDBDocumentClient | undefined;
let writes: DynamoDBDocumentClient | undefined;

const processOptions = (): StoreClientOptions => {
  const cfg = runtimeConfig();
  return { region: cfg.AWS_REGION, endpoint: cfg.DYNAMODB_ENDPOINT };
};

/** The one document client of the process, created on first use (cold start pays once). */
export function documentClient(): DynamoDBDocumentClient {
  doc ??= createDocumentClient(processOptions());
  return doc;
}

/**
 * The client the write wrappers of `items.ts` and `transactions.ts` send with (`transactWrite`, `putItem`, `updateItem`,
 * `deleteItem`): one attempt per call, because they retry themselves (a transaction with the same
 * `ClientRequestToken`, a single item only where a re-send can be recognised) and must see every
 * attempt's failure to know whether the write may have been applied.
 */
export function writeClient(): DynamoDBDocumentClient {
  writes ??= createDocumentClient({ ...processOptions(), maxAttempts: 1 });
  return writes;
}

export const tableName = (): string => runtimeConfig().TABLE_NAME;
