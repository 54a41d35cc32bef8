import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../config';
import { AppError, conflict, outcomeUnknown, tooLargeToStore, validationFailed } from '../errors';
import { storeDeadline, storeScope, tableName, writeClient } from './client';
import { commitHooksOf, type SentTransactItem } from './commit-hooks';
import { TransactionClash } from './concurrency';
import { backoffMs } from './contention';
import { isItemTooLarge, isTransientDependencyError, provesNotApplied } from './errors';
import type { Item } from './items';
import { abortedError, unsettled } from './unsettled';

/** All-or-nothing writes: one TransactWriteItems per change, sent with a request token so an unknown outcome is learnt, not guessed. */

/** Items one TransactWriteItems may hold. */
export const MAX_TRANSACTION_ITEMS = 100;

/** A transaction step without TableName: every step targets the single table. */
export type TransactOp = { [K in keyof SentTransactItem]?: Omit<NonNullable<SentTransactItem[K]>, 'TableName'> };

export interface TransactStep {
  op: TransactOp;
  /**
   * The error to raise when this step's condition fails (default: 409 CONFLICT). `current` is the
   * item as the failed condition saw it, when the step asked for it
   * (`ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`; undefined when the item does not exist).
   */
  onConditionFailed?: (current?: Item) => Error;
  /** Called once the transaction holding this step has committed. */
  onCommitted?: () => void;
}

const withTable = (op: TransactOp): SentTransactItem => {
  const [kind, body] = Object.entries(op)[0] as [string, Record<string, unknown>];
  return { [kind]: { ...body, TableName: tableName() } } as SentTransactItem;
};

export interface TransactOptions {
  /** Defaults to the process's transaction client (one SDK attempt per call). */
  client?: DynamoDBDocumentClient;
  /** Aborts the SDK call and the backoff between clash retries (the call then rejects). */
  abortSignal?: AbortSignal;
  /** Attempts of one commit whose outcome is in doubt (default `config.dynamodb.transactionConfirmAttempts`). */
  confirmAttempts?: number;
}

/** The request was aborted (deadline or caller) before this attempt was sent. */
const abortedBeforeSending = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/**
 * Commits one TransactWriteItems, making sure a failure means "not applied". Every attempt carries
 * the same `ClientRequestToken`: DynamoDB treats identical calls with one token as one call for 10
 * minutes (a repeat of a committed call succeeds without applying anything again). So when an
 * attempt fails in a way that does not prove it was not applied (a time-out, a broken connection, a
 * 5xx, an abort in flight), the commit is repeated with the token to learn the outcome. Resolves
 * when committed (exactly once); rejects with the store's own error when nothing was applied, and
 * with `OUTCOME_UNKNOWN` when the store could not say within the attempts or the deadline.
 * Cancellations (failed conditions, clashes) are final answers of the store and rethrown as is.
 */
function commitOnce(client: DynamoDBDocumentClient, items: SentTransactItem[], opts: TransactOptions): Promise<void> {
  // While this runs, the request's last-resort answer (see shared/http/area.ts) is OUTCOME_UNKNOWN.
  return unsettled(() => confirmedCommit(client, items, opts));
}

async function confirmedCommit(client: DynamoDBDocumentClient, items: SentTransactItem[], opts: TransactOptions): Promise<void> {
  const token = randomUUID();
  const attempts = opts.confirmAttempts ?? config.dynamodb.transactionConfirmAttempts;
  const signals = [opts.abortSignal, storeDeadline()].filter((s): s is AbortSignal => s !== undefined);
  let inDoubt = false;
  for (let attempt = 1; ; attempt++) {
    if (signals.some(abortedBeforeSending)) {
      const reason = signals.find((s) => s.aborted)!.reason;
      if (inDoubt) throw outcomeUnknown(reason);
      throw abortedError(reason);
    }
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: token }), { abortSignal: opts.abortSignal });
      // A store that answers before it commits has hooks (never DynamoDB): inside a request they
      // run once, before it answers; outside one, now.
      const hooks = commitHooksOf(client);
      if (!hooks) return;
      const scope = storeScope();
      if (scope) scope.beforeAnswer = () => hooks.confirm(client, items);
      else await hooks.confirm(client, items, opts.abortSignal);
      return;
    } catch (err) {
      // A cancellation is the store's definite answer for this token (nothing applied).
      if (err instanceof TransactionCanceledException) throw err;
      if (err instanceof Error && err.name === 'IdempotentParameterMismatchException') throw outcomeUnknown(err);
      if (!isTransientDependencyError(err)) {
        if (inDoubt) throw outcomeUnknown(err);
        throw err;
      }
      if (!provesNotApplied(err)) inDoubt = true;
      if (attempt >= attempts) {
        if (inDoubt) throw outcomeUnknown(err);
        throw err;
      }
      try {
        await sleep(Math.random() * 50 * 2 ** attempt, undefined, { signal: signals.length ? AbortSignal.any(signals) : undefined });
      } catch {
        /* the abort is handled at the top of the loop */
      }
    }
  }
}

/**
 * All-or-nothing write. A failed condition maps to the step's own domain error; a clash with a
 * concurrent transaction is retried a few times with jitter, as AWS recommends. A store that times
 * out is asked again with the same request token (see `commitOnce`), so the caller learns whether
 * the write was applied: success, a store error meaning "not applied", or `OUTCOME_UNKNOWN`.
 */
export async function transactWrite(steps: TransactStep[], attempts = 4, opts: TransactOptions = {}): Promise<void> {
  const client = opts.client ?? writeClient();
  for (let attempt = 1; ; attempt++) {
    try {
      await commitOnce(
        client,
        steps.map((s) => withTable(s.op)),
        opts,
      );
      for (const s of steps) s.onCommitted?.();
      return;
    } catch (err) {
      if (isItemTooLarge(err)) throw tooLargeToStore();
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
      if (failed.length) throw conditionError(steps, reasons, failed);
      const clashed = reasons.some((r) => r.Code === 'TransactionConflict');
      if (!clashed) throw err;
      if (attempt >= attempts) throw new TransactionClash();
      await sleep(backoffMs(attempt, config.dynamodb.contention), undefined, { signal: opts.abortSignal });
    }
  }
}

type CancellationReason = NonNullable<TransactionCanceledException['CancellationReasons']>[number];

/**
 * The error of a transaction whose conditions failed: the first failed step's. Validation failures
 * found by several conditions (e.g. two references that name nothing) are reported together, one
 * detail each, as the validator reports its own.
 */
function conditionError(steps: TransactStep[], reasons: CancellationReason[], failed: number[]): Error {
  const errors = failed.map((i) => {
    const item = reasons[i]?.Item;
    return (
      steps[i]?.onConditionFailed?.(item ? unmarshall(item as Parameters<typeof unmarshall>[0]) : undefined) ??
      conflict('The change conflicts with current state')
    );
  });
  const first = errors[0]!;
  if (!(first instanceof AppError) || first.code !== 'VALIDATION_FAILED') return first;
  const details = errors.flatMap((e) => (e instanceof AppError && e.code === 'VALIDATION_FAILED' ? (e.details ?? []) : []));
  return validationFailed(details);
}
