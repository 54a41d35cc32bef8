import { randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { keyOf, skPrefix } from '../../shared/data/keys';
import { isConditionFailed, putItem, transactWrite, updateItem } from '../../shared/data/table';

/**
 * The local runtime's SQS stand-in, persisted in the single table (entity `localQueueMessage`,
 * partition `LOCALQ#<queue>`), so messages survive a restart of the runtime. Never used in AWS.
 *
 * A message is visible when `visibleAt <= now`. Receiving it is a conditional update (still visible,
 * receive count unchanged since we read it) that hides it for the visibility timeout, counts the
 * receive and issues a new receipt handle; so two pollers, even in two processes, never hold the same
 * message at once. Deleting and changing visibility take the receipt handle of the LATEST receive,
 * as SQS does. Queue names are plain strings here (tests use throw-away queues); the `Queue` port
 * keeps production code on `QueueName`.
 *
 * Not emulated: message retention (messages never expire), message attributes, FIFO queues.
 */

/** SQS limits this emulation enforces, so local code cannot rely on what AWS would refuse. */
export const SQS_LIMITS = {
  maxDelaySeconds: 900,
  maxVisibilitySeconds: 12 * 3600,
  maxBodyBytes: 256 * 1024,
} as const;

export interface LocalQueueMessage {
  queue: string;
  /** UUID (version 7: time-ordered, so a queue partition reads roughly oldest first). */
  messageId: string;
  body: string;
  /** ms since the epoch. */
  sentAt: number;
  /** ms since the epoch; the message can be received when this is <= now. */
  visibleAt: number;
  receiveCount: number;
  /** Handle of the latest receive; absent until the first receive. */
  receiptHandle?: string;
  /** ms since the epoch of the first receive. */
  firstReceivedAt?: number;
  /** Set on messages the redrive moved here: the queue they came from, and when. */
  deadLetterSourceQueue?: string;
  redrivenAt?: number;
}

/** What SQS calls ReceiptHandleIsInvalid / "Message does not exist or is not available for visibility timeout change". */
export class ReceiptHandleInvalid extends Error {
  override readonly name = 'ReceiptHandleIsInvalid';
  constructor(reason: string) {
    super(`The receipt handle is invalid: ${reason}`);
  }
}

/** A UUID version 7 (RFC 9562): 48-bit ms timestamp, then random bits. Sorts by creation time. */
export function uuidv7(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Receipt handles are opaque to callers; inside they name the message and the receive. */
const encodeHandle = (messageId: string): string => Buffer.from(`${messageId}|${randomUUID()}`).toString('base64url');

function messageIdOf(receiptHandle: string): string {
  const [messageId, nonce] = Buffer.from(receiptHandle, 'base64url').toString('utf8').split('|');
  if (!messageId || !nonce || !/^[0-9a-f-]{36}$/.test(messageId)) throw new ReceiptHandleInvalid('malformed');
  return messageId;
}

const keyOfMessage = (queue: string, messageId: string) => keyOf('localQueueMessage', { queue, messageId });

function toMessage(item: Record<string, any>): LocalQueueMessage {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return rest as LocalQueueMessage;
}

/** SendMessage(Batch): each message gets a fresh id and becomes visible after its delay. Returns the ids. */
export async function sendLocalMessages(
  queue: string,
  messages: readonly { body: string; delaySeconds?: number }[],
  now = Date.now(),
): Promise<string[]> {
  for (const m of messages) {
    const delay = m.delaySeconds ?? 0;
    if (!Number.isInteger(delay) || delay < 0 || delay > SQS_LIMITS.maxDelaySeconds) {
      throw new RangeError(`DelaySeconds must be an integer 0-${SQS_LIMITS.maxDelaySeconds}, got ${delay}`);
    }
    if (typeof m.body !== 'string' || m.body.length === 0) throw new RangeError('A message body must be a non-empty string');
    if (Buffer.byteLength(m.body) > SQS_LIMITS.maxBodyBytes) throw new RangeError(`A message body is limited to ${SQS_LIMITS.maxBodyBytes} bytes`);
  }
  const ids: string[] = [];
  const puts = messages.map((m) => {
    const messageId = uuidv7(now);
    ids.push(messageId);
    const message: LocalQueueMessage = {
      queue,
      messageId,
      body: m.body,
      sentAt: now,
      visibleAt: now + (m.delaySeconds ?? 0) * 1000,
      receiveCount: 0,
    };
    return () =>
      putItem({
        Item: { ...keyOfMessage(queue, messageId), entity: 'localQueueMessage', ...message },
        ConditionExpression: 'attribute_not_exists(pk)',
      });
  });
  for (let i = 0; i < puts.length; i += 25) await Promise.all(puts.slice(i, i + 25).map((put) => put()));
  return ids;
}

/** Every message of a queue, visible or not, oldest first (inspection; tests; never a receive). */
export async function peekLocalMessages(queue: string): Promise<LocalQueueMessage[]> {
  const out: LocalQueueMessage[] = [];
  await queryQueue(queue, undefined, (items) => {
    out.push(...items);
    return true;
  });
  return out;
}

/** Deletes every message of a queue (PurgeQueue). */
export async function purgeLocalQueue(queue: string): Promise<void> {
  for (const m of await peekLocalMessages(queue)) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: keyOfMessage(queue, m.messageId) }));
  }
}

/** Reads the queue's partition page by page (optionally only messages visible at `now`) until `more` says stop. */
async function queryQueue(queue: string, visibleAt: number | undefined, more: (items: LocalQueueMessage[]) => boolean): Promise<void> {
  const { pk } = keyOfMessage(queue, '00000000-0000-0000-0000-000000000000');
  let startKey: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ...(visibleAt === undefined ? {} : { FilterExpression: 'visibleAt <= :now' }),
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix('localQueueMessage'), ...(visibleAt === undefined ? {} : { ':now': visibleAt }) },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    startKey = out.LastEvaluatedKey;
    if (!more((out.Items ?? []).map(toMessage))) return;
  } while (startKey);
}

/**
 * ReceiveMessage: claims up to `max` messages visible at `now`, roughly oldest first. Each claimed
 * message is hidden until now + visibility, has its receive count raised by one and gets a new
 * receipt handle (returned as updated). A message another poller claimed meanwhile is skipped.
 */
export async function claimLocalMessages(
  queue: string,
  opts: { max: number; visibilitySeconds: number; now?: number },
): Promise<LocalQueueMessage[]> {
  const now = opts.now ?? Date.now();
  const visibilityMs = Math.round(opts.visibilitySeconds * 1000);
  if (opts.max <= 0) return [];
  const candidates: LocalQueueMessage[] = [];
  await queryQueue(queue, now, (items) => {
    candidates.push(...items);
    return candidates.length < opts.max * 3;
  });
  const claimed: LocalQueueMessage[] = [];
  for (let i = 0; i < candidates.length && claimed.length < opts.max; ) {
    const chunk = candidates.slice(i, i + (opts.max - claimed.length));
    i += chunk.length;
    const results = await Promise.all(chunk.map((m) => claimOne(queue, m, now, visibilityMs)));
    for (const r of results) if (r) claimed.push(r);
  }
  return claimed;
}

async function claimOne(queue: string, seen: LocalQueueMessage, now: number, visibilityMs: number): Promise<LocalQueueMessage | undefined> {
  const handle = encodeHandle(seen.messageId);
  try {
    const item = await updateItem(
      {
        Key: keyOfMessage(queue, seen.messageId),
        UpdateExpression:
          'SET visibleAt = :until, receiveCount = receiveCount + :one, receiptHandle = :handle, firstReceivedAt = if_not_exists(firstReceivedAt, :now)',
        ConditionExpression: 'attribute_exists(pk) AND visibleAt <= :now AND receiveCount = :seen',
        ExpressionAttributeValues: {
          ':until': now + visibilityMs,
          ':one': 1,
          ':handle': handle,
          ':now': now,
          ':seen': seen.receiveCount,
        },
      },
      // A lost answer: the claim is sent again; once applied, its condition fails and the handle is ours.
      { appliedIn: (stored) => stored?.receiptHandle === handle },
    );
    return item ? toMessage(item) : undefined;
  } catch (err) {
    if (isConditionFailed(err)) return undefined; // someone else received or deleted it meanwhile
    throw err;
  }
}

/**
 * DeleteMessage. Like SQS, a handle of an earlier receive (the message was received again since)
 * deletes nothing and is not an error; returns whether the message was deleted.
 */
export async function deleteLocalMessage(queue: string, receiptHandle: string): Promise<boolean> {
  const messageId = messageIdOf(receiptHandle);
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keyOfMessage(queue, messageId),
        ConditionExpression: 'receiptHandle = :handle',
        ExpressionAttributeValues: { ':handle': receiptHandle },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/**
 * ChangeMessageVisibility: the message becomes visible `seconds` from now (0 = at once). The handle
 * must be the one of the latest receive of a message that still exists, otherwise
 * `ReceiptHandleInvalid`, as SQS refuses it.
 */
export async function changeLocalMessageVisibility(queue: string, receiptHandle: string, seconds: number, now = Date.now()): Promise<void> {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > SQS_LIMITS.maxVisibilitySeconds) {
    throw new RangeError(`VisibilityTimeout must be an integer 0-${SQS_LIMITS.maxVisibilitySeconds}, got ${seconds}`);
  }
  const messageId = messageIdOf(receiptHandle);
  const until = now + seconds * 1000;
  try {
    await updateItem(
      {
        Key: keyOfMessage(queue, messageId),
        UpdateExpression: 'SET visibleAt = :until',
        ConditionExpression: 'receiptHandle = :handle',
        ExpressionAttributeValues: { ':until': until, ':handle': receiptHandle },
        ReturnValues: 'NONE',
      },
      { appliedIn: (stored) => stored?.receiptHandle === receiptHandle && stored.visibleAt === until },
    );
  } catch (err) {
    if (isConditionFailed(err)) throw new ReceiptHandleInvalid('the message does not exist or was received again since');
    throw err;
  }
}

/**
 * Redrive: moves a received message (identified by its latest receipt handle) to the dead-letter
 * queue in one transaction. It keeps its messageId, body and sentAt (as SQS does), starts over with
 * receiveCount 0, is visible at once and remembers its source queue. Returns false when the handle is
 * stale (the message was deleted or received again meanwhile): nothing moved.
 */
export async function moveLocalMessageToDeadLetter(
  queue: string,
  message: Pick<LocalQueueMessage, 'messageId' | 'body' | 'sentAt' | 'receiptHandle'>,
  deadLetterQueue: string,
  now = Date.now(),
): Promise<boolean> {
  if (!message.receiptHandle) throw new ReceiptHandleInvalid('a message is moved by the handle of its latest receive');
  const moved: LocalQueueMessage = {
    queue: deadLetterQueue,
    messageId: message.messageId,
    body: message.body,
    sentAt: message.sentAt,
    visibleAt: now,
    receiveCount: 0,
    deadLetterSourceQueue: queue,
    redrivenAt: now,
  };
  class Stale extends Error {}
  try {
    await transactWrite([
      {
        op: {
          Delete: {
            Key: keyOfMessage(queue, message.messageId),
            ConditionExpression: 'receiptHandle = :handle',
            ExpressionAttributeValues: { ':handle': message.receiptHandle },
          },
        },
        onConditionFailed: () => new Stale(),
      },
      {
        op: {
          Put: {
            Item: { ...keyOfMessage(deadLetterQueue, message.messageId), entity: 'localQueueMessage', ...moved },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => new Error(`message ${message.messageId} is already in ${deadLetterQueue}`),
      },
    ]);
    return true;
  } catch (err) {
    if (err instanceof Stale) return false;
    throw err;
  }
}
