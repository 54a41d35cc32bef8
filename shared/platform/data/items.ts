import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactGetCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type DeleteCommandInput,
  type PutCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { config } from '../config';
import { outcomeUnknown, tooLargeToStore } from '../errors';
import { documentClient, storeDeadline, tableName, writeClient } from './client';
import { isItemTooLarge, isTransientDependencyError, provesNotApplied } from './errors';
import type { PrimaryKey } from './keys';
import { abortedError, unsettled } from './unsettled';

/** One item at a time: typed wrappers over the document client's single-item calls, every one on the single table. */

export type Item = Record<string, any>;

export async function getItem<T extends object = Item>(key: PrimaryKey, consistent = true): Promise<T | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return out.Item as T | undefined;
}

/**
 * Items written together whose reads must agree, as of one moment (one TransactGetItems; read
 * apart, a later read may see a change an earlier one did not, and side by side either may be the
 * older). Undefined for a missing item. A transaction in flight on one of them cancels the read: the
 * items are then read one after another in the order given, each consistent read sent once the one
 * before it answered, so each sees at least what the earlier ones saw.
 */
export async function getItemsTogether<T extends object = Item>(keys: readonly PrimaryKey[]): Promise<(T | undefined)[]> {
  try {
    const out = await documentClient().send(new TransactGetCommand({ TransactItems: keys.map((Key) => ({ Get: { TableName: tableName(), Key } })) }));
    return keys.map((_, i) => out.Responses?.[i]?.Item as T | undefined);
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    const items: (T | undefined)[] = [];
    for (const key of keys) items.push(await getItem<T>(key));
    return items;
  }
}

/** The item a failed condition was checked against (`ReturnValuesOnConditionCheckFailure: ALL_OLD`). */
export function storedItemOf(err: unknown): Item | undefined {
  const raw = (err as { Item?: Record<string, any> }).Item;
  return raw ? unmarshall(raw) : undefined;
}

/** The item as the document client writes it and a read returns it (undefined attributes dropped, numbers normalised). */
const asStored = (item: Item): Item => unmarshall(marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }));

export interface ItemWriteOptions {
  /** Defaults to the process's write client (one SDK attempt per call). */
  client?: DynamoDBDocumentClient;
}

interface SingleWrite {
  /** One attempt; `confirming`: a re-send after an attempt whose outcome is unknown. Resolves with the item's attributes, if asked. */
  send(client: DynamoDBDocumentClient, confirming: boolean): Promise<Item | undefined>;
  /** Whether the write may be sent again when an attempt's outcome is unknown (it then has the same effect). */
  resendable: boolean;
  /** After a re-send's condition failed: whether the item the store holds (undefined: none) shows the write applied. */
  appliedIn(stored: Item | undefined): boolean;
}

/**
 * One single-item write, making sure a failure means "not applied" (DynamoDB has no request token
 * for these). An attempt failing in a way that does not prove it was not applied (a time-out, a
 * broken connection, a 5xx) may still have been applied, or be applied later. Such a write is sent
 * again only if a re-send is harmless and recognisable: the re-send asks for the stored item when
 * its condition fails (`ALL_OLD`), and a condition failing because the lost attempt was applied
 * shows that attempt's effect in it (`appliedIn`): the write succeeded, once. Anything else that
 * cannot be settled is `OUTCOME_UNKNOWN`, and an in-doubt write that is not resendable is at once.
 * Failures proving nothing was sent (refused connection, throttling) are retried, and finally
 * rethrown as they are (503 SERVICE_UNAVAILABLE); so is a condition failing on a first attempt.
 */
async function settledWrite(w: SingleWrite, opts: ItemWriteOptions): Promise<Item | undefined> {
  return unsettled(async () => {
    const client = opts.client ?? writeClient();
    const attempts = config.dynamodb.maxAttempts;
    const deadline = storeDeadline();
    let inDoubt = false;
    for (let attempt = 1; ; attempt++) {
      if (deadline?.aborted) {
        if (inDoubt) throw outcomeUnknown(deadline.reason);
        throw abortedError(deadline.reason);
      }
      try {
        return await w.send(client, inDoubt);
      } catch (err) {
        if (inDoubt && isConditionFailed(err)) {
          const stored = storedItemOf(err);
          if (w.appliedIn(stored)) return stored;
          throw outcomeUnknown(err);
        }
        if (isItemTooLarge(err)) throw tooLargeToStore();
        if (isConditionFailed(err) || !isTransientDependencyError(err)) throw inDoubt ? outcomeUnknown(err) : err;
        if (!provesNotApplied(err)) {
          inDoubt = true;
          if (!w.resendable) throw outcomeUnknown(err);
        }
        if (attempt >= attempts) throw inDoubt ? outcomeUnknown(err) : err;
        try {
          await sleep(Math.random() * 50 * 2 ** attempt, undefined, { signal: deadline });
        } catch {
          /* the abort is handled at the top of the loop */
        }
      }
    }
  });
}

const confirmingInput = (confirming: boolean) => (confirming ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {});

/**
 * A whole-item write. When an attempt's outcome is unknown it is sent again: an unconditional put
 * just writes the same item again; a conditional one that now fails finds its own item stored if the
 * lost attempt was applied (success), anything else is `OUTCOME_UNKNOWN` (see `settledWrite`).
 */
export async function putItem(input: Omit<PutCommandInput, 'TableName'>, opts: ItemWriteOptions = {}): Promise<void> {
  const mine = asStored(input.Item ?? {});
  const write: SingleWrite = {
    resendable: true,
    send: async (client, confirming) => {
      await client.send(new PutCommand({ ...input, TableName: tableName(), ...confirmingInput(confirming) }));
      return undefined;
    },
    appliedIn: (stored) => stored !== undefined && isDeepStrictEqual(stored, mine),
  };
  await settledWrite(write, opts);
}

export interface UpdateOptions<T> extends ItemWriteOptions {
  /**
   * For an update that may be sent again when an attempt's outcome is unknown: its expression gives
   * the same item however often it runs, or its condition fails once it was applied. If the
   * re-send's condition fails, says whether the stored item (undefined: none) shows the update
   * applied. Without it, an update whose outcome is unknown is `OUTCOME_UNKNOWN` at once.
   */
  appliedIn?: (stored: T | undefined) => boolean;
}

/**
 * Resolves with the item's attributes as `ReturnValues` asks (default ALL_NEW); after a re-send
 * recognised as applied, with the item as stored.
 */
export async function updateItem<T extends object = Item>(input: Omit<UpdateCommandInput, 'TableName'>, opts: UpdateOptions<T> = {}): Promise<T | undefined> {
  const { appliedIn } = opts;
  const write: SingleWrite = {
    resendable: appliedIn !== undefined,
    send: async (client, confirming) => {
      const out = await client.send(new UpdateCommand({ ReturnValues: 'ALL_NEW', ...input, TableName: tableName(), ...confirmingInput(confirming) }));
      return out.Attributes;
    },
    appliedIn: (stored) => appliedIn?.(stored as T | undefined) ?? false,
  };
  return (await settledWrite(write, opts)) as T | undefined;
}

/**
 * Deletes an item. When an attempt's outcome is unknown it is sent again; a conditional one that
 * then fails because the item is gone counts as applied (the item is gone, as asked).
 */
export async function deleteItem(input: Omit<DeleteCommandInput, 'TableName'>, opts: ItemWriteOptions = {}): Promise<void> {
  const write: SingleWrite = {
    resendable: true,
    send: async (client, confirming) => {
      await client.send(new DeleteCommand({ ...input, TableName: tableName(), ...confirmingInput(confirming) }));
      return undefined;
    },
    appliedIn: (stored) => stored === undefined,
  };
  await settledWrite(write, opts);
}

export const isConditionFailed = (err: unknown): boolean => err instanceof Error && err.name === 'ConditionalCheckFailedException';
