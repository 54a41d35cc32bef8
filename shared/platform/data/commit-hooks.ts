import type { DynamoDBDocumentClient, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/** One item of a TransactWriteItems, as sent. */
export type SentTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * What a store's environment may need after a transaction it answered. DynamoDB needs nothing: a
 * transaction is durable when it answers, and shipped code installs no hooks. A store that answers
 * before it commits (the local runtime's) installs a `confirm` that resolves once the commit is
 * durable and rejects while it is in doubt.
 */
export interface CommitHooks {
  confirm(client: DynamoDBDocumentClient, items: readonly SentTransactItem[], abortSignal?: AbortSignal): Promise<void>;
}

/** Chooses the hooks of each new client by its options (an endpoint override, say); undefined for none. */
export type CommitHooksInstaller = (opts: { endpoint?: string }) => CommitHooks | undefined;

let installer: CommitHooksInstaller | undefined;
const installed = new WeakMap<DynamoDBDocumentClient, CommitHooks>();

/** Installed once by the process that runs the handlers against another store, before any client exists. */
export function installCommitHooks(choose: CommitHooksInstaller | undefined): void {
  installer = choose;
}

/** Called by the client factory for each client it makes. */
export function attachCommitHooks(client: DynamoDBDocumentClient, opts: { endpoint?: string }): void {
  const hooks = installer?.(opts);
  if (hooks) installed.set(client, hooks);
}

export const commitHooksOf = (client: DynamoDBDocumentClient): CommitHooks | undefined => installed.get(client);
