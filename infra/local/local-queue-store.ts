import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { notifyQueue } from './queue-signal';

/**
 * The local runtime's SQS stand-in: messages in an SQLite database (Node's built-in `node:sqlite`)
 * in the data directory, so they survive a restart or a crash of the runtime. Never used in AWS.
 *
 * A message is visible when `visibleAt <= now`. Receiving claims messages in one UPDATE (still
 * visible at the moment of the write) that hides them for the visibility timeout, counts the receive
 * and issues a new receipt handle; SQLite serialises writers, so two pollers, even in two processes,
 * never hold the same message at once. Deleting and changing visibility take the receipt handle of
 * the LATEST receive, as SQS does. Queue names are plain strings here (tests use throw-away queues);
 * the `Queue` port keeps production code on `QueueName`.
 *
 * Durability: WAL journal with `synchronous = NORMAL`, so a committed send survives the process
 * being killed (not a power cut, which a development machine can live with).
 *
 * Not emulated: message retention (messages never expire), message attributes, FIFO queues.
 */

/** Local-runtime environment variable: the queue database file (default `<DATA_DIR>/queues.sqlite`). */
export const LOCAL_QUEUE_DB_ENV = 'LOCAL_QUEUE_DB';

/** SQS limits this emulation enforces, so local code cannot rely on what AWS would refuse. */
export const SQS_LIMITS = {
  maxDelaySeconds: 900,
  maxVisibilitySeconds: 12 * 3600,
  maxBodyBytes: 256 * 1024,
  /** SendMessageBatch entries and ReceiveMessage MaxNumberOfMessages. */
  maxBatch: 10,
} as const;

export interface LocalQueueMessage {
  queue: string;
  /** UUID (version 7: time-ordered, so a queue reads roughly oldest first). */
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

/**
 * Receipt handles are opaque to callers; inside they name the message and the receive. The database
 * stores the inner form (`<messageId>|<nonce>`), callers get it base64url-encoded.
 */
const encodeHandle = (inner: string): string => Buffer.from(inner).toString('base64url');

function innerHandle(receiptHandle: string): { messageId: string; inner: string } {
  const inner = Buffer.from(receiptHandle, 'base64url').toString('utf8');
  const [messageId, nonce] = inner.split('|');
  if (!messageId || !nonce || !/^[0-9a-f-]{36}$/.test(messageId)) throw new ReceiptHandleInvalid('malformed');
  return { messageId, inner };
}

interface Row {
  queue: string;
  message_id: string;
  body: string;
  sent_at: number;
  visible_at: number;
  receive_count: number;
  receipt_handle: string | null;
  first_received_at: number | null;
  dead_letter_source_queue: string | null;
  redriven_at: number | null;
}

function toMessage(r: Row): LocalQueueMessage {
  return {
    queue: r.queue,
    messageId: r.message_id,
    body: r.body,
    sentAt: r.sent_at,
    visibleAt: r.visible_at,
    receiveCount: r.receive_count,
    ...(r.receipt_handle === null ? {} : { receiptHandle: encodeHandle(r.receipt_handle) }),
    ...(r.first_received_at === null ? {} : { firstReceivedAt: r.first_received_at }),
    ...(r.dead_letter_source_queue === null ? {} : { deadLetterSourceQueue: r.dead_letter_source_queue }),
    ...(r.redriven_at === null ? {} : { redrivenAt: r.redriven_at }),
  };
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS messages (
  queue TEXT NOT NULL,
  message_id TEXT NOT NULL,
  body TEXT NOT NULL,
  sent_at INTEGER NOT NULL,
  visible_at INTEGER NOT NULL,
  receive_count INTEGER NOT NULL,
  receipt_handle TEXT,
  first_received_at INTEGER,
  dead_letter_source_queue TEXT,
  redriven_at INTEGER,
  PRIMARY KEY (queue, message_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS messages_visible ON messages (queue, visible_at, message_id);
`;

interface Store {
  db: DatabaseSync;
  insert: StatementSync;
  claim: StatementSync;
  byQueue: StatementSync;
  deleteByHandle: StatementSync;
  changeVisibility: StatementSync;
  purge: StatementSync;
  nextVisible: StatementSync;
}

let store: { path: string; s: Store } | undefined;

/** The database file: `LOCAL_QUEUE_DB`, else `<DATA_DIR or .data>/queues.sqlite`. */
export function localQueueDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env[LOCAL_QUEUE_DB_ENV] || resolve(env.DATA_DIR || '.data', 'queues.sqlite'));
}

/** Opens (once per process and path) the queue database, creating it on first use. */
function open(): Store {
  const path = localQueueDatabasePath();
  if (store?.path === path) return store.s;
  store?.s.db.close();
  mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  // Another process (a test, a second driver) may hold the write lock for a moment: wait, do not fail.
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec(SCHEMA);
  const s: Store = {
    db,
    insert: db.prepare(
      `INSERT INTO messages (queue, message_id, body, sent_at, visible_at, receive_count, dead_letter_source_queue, redriven_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
    ),
    // One statement: the sub-select and the update see the same snapshot under SQLite's write lock.
    claim: db.prepare(
      `UPDATE messages
          SET visible_at = :until, receive_count = receive_count + 1,
              receipt_handle = message_id || '|' || lower(hex(randomblob(16))),
              first_received_at = coalesce(first_received_at, :now)
        WHERE queue = :queue AND message_id IN (
              SELECT message_id FROM messages WHERE queue = :queue AND visible_at <= :now
               ORDER BY visible_at, message_id LIMIT :max)
       RETURNING *`,
    ),
    byQueue: db.prepare('SELECT * FROM messages WHERE queue = ? ORDER BY message_id'),
    deleteByHandle: db.prepare('DELETE FROM messages WHERE queue = ? AND message_id = ? AND receipt_handle = ?'),
    changeVisibility: db.prepare('UPDATE messages SET visible_at = ? WHERE queue = ? AND message_id = ? AND receipt_handle = ?'),
    purge: db.prepare('DELETE FROM messages WHERE queue = ?'),
    nextVisible: db.prepare('SELECT min(visible_at) AS at FROM messages WHERE queue = ?'),
  };
  store = { path, s };
  return s;
}

/** Closes the database (the runtime on stop; tests). The next call opens it again. */
export function closeLocalQueueStore(): void {
  store?.s.db.close();
  store = undefined;
}

/** Runs `work` in one write transaction (BEGIN IMMEDIATE: takes the write lock up front). */
function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = work();
    db.exec('COMMIT');
    return out;
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

/** SendMessage(Batch): each message gets a fresh id and becomes visible after its delay. Returns the ids. */
export async function sendLocalMessages(queue: string, messages: readonly { body: string; delaySeconds?: number }[], now = Date.now()): Promise<string[]> {
  for (const m of messages) {
    const delay = m.delaySeconds ?? 0;
    if (!Number.isInteger(delay) || delay < 0 || delay > SQS_LIMITS.maxDelaySeconds) {
      throw new RangeError(`DelaySeconds must be an integer 0-${SQS_LIMITS.maxDelaySeconds}, got ${delay}`);
    }
    if (typeof m.body !== 'string' || m.body.length === 0) throw new RangeError('A message body must be a non-empty string');
    if (Buffer.byteLength(m.body) > SQS_LIMITS.maxBodyBytes) throw new RangeError(`A message body is limited to ${SQS_LIMITS.maxBodyBytes} bytes`);
  }
  if (messages.length === 0) return [];
  const s = open();
  const ids = inTransaction(s.db, () =>
    messages.map((m) => {
      const messageId = uuidv7(now);
      s.insert.run(queue, messageId, m.body, now, now + (m.delaySeconds ?? 0) * 1000, null, null);
      return messageId;
    }),
  );
  // Delayed ones too: a driver in a long idle sleep wakes and sleeps again until the delay ends.
  notifyQueue(queue);
  return ids;
}

/** Every message of a queue, visible or not, oldest first (inspection; tests; never a receive). */
export async function peekLocalMessages(queue: string): Promise<LocalQueueMessage[]> {
  return (open().byQueue.all(queue) as unknown as Row[]).map(toMessage);
}

/** Deletes every message of a queue (PurgeQueue). */
export async function purgeLocalQueue(queue: string): Promise<void> {
  open().purge.run(queue);
}

/**
 * ReceiveMessage: claims up to `max` messages visible at `now`, roughly oldest first. Each claimed
 * message is hidden until now + visibility, has its receive count raised by one and gets a new
 * receipt handle (returned as updated).
 */
export async function claimLocalMessages(queue: string, opts: { max: number; visibilitySeconds: number; now?: number }): Promise<LocalQueueMessage[]> {
  if (opts.max <= 0) return [];
  const now = opts.now ?? Date.now();
  const rows = open().claim.all({ queue, now, until: now + Math.round(opts.visibilitySeconds * 1000), max: opts.max }) as unknown as Row[];
  return rows.map(toMessage).sort((a, b) => a.visibleAt - b.visibleAt || (a.messageId < b.messageId ? -1 : 1));
}

/** When the next message of the queue becomes visible (ms since the epoch; past if one is visible now), or undefined when it is empty. */
export function nextLocalVisibleAt(queue: string): number | undefined {
  const row = open().nextVisible.get(queue) as { at: number | null } | undefined;
  return row?.at ?? undefined;
}

/**
 * DeleteMessage. Like SQS, a handle of an earlier receive (the message was received again since)
 * deletes nothing and is not an error; returns whether the message was deleted.
 */
export async function deleteLocalMessage(queue: string, receiptHandle: string): Promise<boolean> {
  const { messageId, inner } = innerHandle(receiptHandle);
  return Number(open().deleteByHandle.run(queue, messageId, inner).changes) === 1;
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
  const { messageId, inner } = innerHandle(receiptHandle);
  if (Number(open().changeVisibility.run(now + seconds * 1000, queue, messageId, inner).changes) !== 1) {
    throw new ReceiptHandleInvalid('the message does not exist or was received again since');
  }
  if (seconds === 0) notifyQueue(queue);
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
  const { inner } = innerHandle(message.receiptHandle);
  const s = open();
  const moved = inTransaction(s.db, () => {
    if (Number(s.deleteByHandle.run(queue, message.messageId, inner).changes) !== 1) return false;
    try {
      s.insert.run(deadLetterQueue, message.messageId, message.body, message.sentAt, now, queue, now);
    } catch (err) {
      throw new Error(`message ${message.messageId} is already in ${deadLetterQueue}`, { cause: err });
    }
    return true;
  });
  if (moved) notifyQueue(deadLetterQueue);
  return moved;
}
