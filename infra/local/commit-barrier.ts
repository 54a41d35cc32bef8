import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type CommitHooks, installCommitHooks, type SentTransactItem } from '../../shared/platform/data/commit-hooks';
import { tableName } from '../../shared/platform/data/client';
import { uncounted } from '../../shared/platform/data/store-calls';

/**
 * DynamoDB Local answers a TransactWriteItems before it has committed it: it queues the SQLite
 * COMMIT without waiting for it (`SQLiteDBAccess.commitTransaction`), so a JVM killed just after the
 * answer loses an acknowledged transaction (found by the store-fault tests). Its SQLite jobs run one
 * after another on a single thread, and every read waits for its own job, so a read sent after the
 * answer returns only once that COMMIT (and every one queued before it) has run: a GetItem of the
 * transaction's first item is the barrier. Until it answers the commit is in doubt, whatever the
 * barrier's error says (a refused connection after the answer proves nothing about the
 * transaction): outside a request the caller confirms it with the same request token; a request
 * reads once, after its last transaction, before it answers, and answers `OUTCOME_UNKNOWN` if that
 * read fails (`beforeAnswer`, shared/http/area.ts). DynamoDB itself is durable when it answers, so
 * only the local runtime installs this.
 */
export const localCommitBarrier: CommitHooks = {
  async confirm(client, items, abortSignal) {
    const key = items.length ? keyOfItem(items[0]!) : undefined;
    if (!key) return;
    try {
      await client.send(uncounted(new GetCommand({ TableName: tableName(), Key: key, ProjectionExpression: 'pk' })), { abortSignal });
    } catch (err) {
      // Transient, and on purpose without the barrier's error as its cause: that may be a refusal, which would read as "not applied".
      throw Object.assign(new Error(`DynamoDB Local answered the transaction but its commit is not confirmed: ${(err as Error).message}`), {
        name: 'CommitNotConfirmed',
        $retryable: {},
      });
    }
  },
};

type Item = Record<string, unknown>;

/** The key of the item a transaction step writes or checks. */
function keyOfItem(item: SentTransactItem): { pk: unknown; sk: unknown } | undefined {
  const step = item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck;
  if (!step) return undefined;
  const source = ('Key' in step ? step.Key : (step as { Item?: Item }).Item) as Item | undefined;
  return source ? { pk: source.pk, sk: source.sk } : undefined;
}

/**
 * Every client the handlers of this process make with an endpoint override (DynamoDB Local) gets
 * the barrier. Called by the local runtime, and by the test processes that run handlers against
 * DynamoDB Local, before any client exists.
 */
export function installLocalCommitBarrier(): void {
  installCommitHooks((opts) => (opts.endpoint !== undefined ? localCommitBarrier : undefined));
}
