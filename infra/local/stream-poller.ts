import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { config } from '../../shared/platform/config';
import { runtimeConfig } from '../../shared/platform/config';
import {
  getStreamCheckpoint,
  isCheckpointRecord,
  isStaleIterator,
  latestStreamArn,
  listShards,
  putStreamCheckpoint,
  readRecords,
  shardIterator,
  type StreamRecordJson,
  type StreamShard,
} from './stream-reader';
import { lambdaContext, settleWithin } from './lambda-runtime';
import { idleBackoff, signalCount, sleepOn } from './queue-signal';
import { TABLE_WRITES } from './stream-wake';
import type { DriverLog } from './queue-driver';
import { logger } from '../../shared/platform/observability/logger';

/**
 * The local stand-in for Lambda's DynamoDB-stream event source mapping: follows the table's stream
 * and invokes the same handler Lambda runs, with records in the shape Lambda delivers.
 *
 * - Shards: every shard of the table's latest stream; a child shard is read only once its parent is
 *   closed and read to the end (or the parent has been trimmed away), as Lambda does; among the
 *   readable shards, oldest first (StartingSequenceNumber). One invocation at a time.
 * - Start: a shard this consumer has no checkpoint for starts at TRIM_HORIZON; a known shard after
 *   its checkpoint (persisted in the table, entity `localStreamCheckpoint`, per consumer and shard).
 * - Filter: the Lambda filter pattern (one, or several OR-ed) decides which records reach the
 *   handler; records it drops still advance the checkpoint, as in AWS.
 * - Failures: `batchItemFailures` (itemIdentifier = SequenceNumber) checkpoints up to the record
 *   before the lowest failed one and retries from there after a backoff (1st retry `initial`,
 *   doubling up to `max`), the later records included; a thrown error, a malformed response or an
 *   unknown identifier retries the whole batch. Retries are unlimited (Lambda's default -1).
 * - Reads: a shard is read again at once while it has more than a batch waiting; otherwise its next
 *   read comes no sooner than `readIntervalMs` after the last (default 250 ms: Lambda reads a shard
 *   about four times a second), so the writes of one request and of requests in parallel come in one
 *   read, not one read each.
 * - Checkpoints are written at most once per `checkpointIntervalMs` (default 1 s) while records
 *   flow, and once the poller goes idle after that time, at once when a shard closes or a batch is
 *   retried; `stop()` writes what is still in memory. A batch that only held records of checkpoint
 *   items (this or another poller's bookkeeping) does not count as progress, so checkpoint writes
 *   never feed on their own stream records. A runtime killed without a stop delivers at most that
 *   last second's records again: at least once, as Lambda's event source mapping.
 */

export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

/** The subset of Lambda's filter-pattern syntax we use: nested objects, and arrays of allowed literals. */
export type FilterLiteral = string | number | boolean | null;
export type FilterPattern = { readonly [key: string]: FilterPattern | readonly FilterLiteral[] };

/** Local-runtime environment variable: the idle poll interval of the stream poller (ms, default 100). */
export const STREAM_POLLER_POLL_ENV = 'LOCAL_STREAM_POLL_MS';

export interface StreamPollerOptions {
  handler: StreamHandler;
  /** Lambda filter pattern(s); records matching none are dropped. Absent: every record. */
  filter?: FilterPattern | readonly FilterPattern[];
  /** Records per invocation at most (the event source mapping's BatchSize, 1-1000 here). */
  batchSize: number;
  /** Sleep this long when no shard had records (default 100 ms). */
  pollMs?: number;
  /**
   * Each pass that finds no records doubles the sleep, up to this (default `pollMs`: no growth).
   * A write of this process wakes the poller at once and a shard's retry is never slept past, so
   * only writes of other processes wait.
   */
  idlePollMaxMs?: number;
  /** Checkpoint namespace: pollers with different names follow the stream independently (default `webhook-fanout`). */
  consumer?: string;
  functionName?: string;
  timeoutSeconds?: number;
  retryBackoffMs?: { initial: number; max: number };
  /**
   * How often the shard list is refreshed (default 30 s). It is also refreshed at once when a shard
   * closes or an iterator goes stale, and every second while the table has no stream or no readable
   * shard: the periodic refresh only guards against a change nothing else reveals.
   */
  shardRefreshMs?: number;
  /**
   * A checkpoint is written at most this often while records flow (default 1000 ms). Each write is
   * itself a stream record every consumer reads, and a write per invocation doubled a busy stream.
   */
  checkpointIntervalMs?: number;
  /**
   * The least time between two reads of the stream unless a read left records behind (default 250 ms).
   * A write of this process wakes an idle poller at once, but the read still waits out this time.
   */
  readIntervalMs?: number;
  /** How long `stop()` waits for an in-flight invocation before abandoning it (default 10 s). */
  stopGraceMs?: number;
  log?: DriverLog;
}

export interface StreamPoller {
  /**
   * Stops polling, waits for the in-flight invocation (if any) up to `graceMs` and writes the
   * checkpoints kept in memory. An invocation still running after the grace period is abandoned: its
   * outcome is ignored and nothing more is checkpointed, so its records are delivered again on the
   * next start (at-least-once). Idempotent.
   */
  stop(graceMs?: number): Promise<void>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Throws on syntax outside the supported subset (operators such as prefix/exists/numeric), rather than mis-filtering. */
export function validateFilterPattern(pattern: unknown, path = '$'): void {
  if (!isObject(pattern)) throw new Error(`filter pattern ${path}: expected an object`);
  for (const [key, value] of Object.entries(pattern)) {
    if (Array.isArray(value)) {
      if (value.length === 0) throw new Error(`filter pattern ${path}.${key}: empty list`);
      for (const v of value) {
        if (v !== null && !['string', 'number', 'boolean'].includes(typeof v)) {
          throw new Error(`filter pattern ${path}.${key}: only literal values are supported locally, got ${JSON.stringify(v)}`);
        }
      }
    } else validateFilterPattern(value, `${path}.${key}`);
  }
}

/**
 * Lambda/EventBridge matching for the supported subset: every key of the pattern must match; an
 * array lists the allowed values (an array in the event matches if any element is allowed); a key
 * missing from the event never matches.
 */
export function matchesFilter(pattern: FilterPattern, event: unknown): boolean {
  if (!isObject(event)) return false;
  return Object.entries(pattern).every(([key, p]) => {
    const value = event[key];
    if (Array.isArray(p)) {
      if (value === undefined) return false;
      const values = Array.isArray(value) ? value : [value];
      return values.some((v) => (p as readonly FilterLiteral[]).some((allowed) => allowed === v));
    }
    return matchesFilter(p as FilterPattern, value);
  });
}

const defaultLog: DriverLog = (level, message, details) => logger[level](message, details);

interface ShardState {
  shard: StreamShard;
  /** Last sequence number processed or dropped (in memory) and the one stored in the table. */
  checkpoint?: string;
  persisted?: string;
  /** When the checkpoint was last written (0: not in this run). */
  persistedAt: number;
  /** Progress over records other than checkpoint items that is not written yet. */
  unwritten: boolean;
  closed: boolean;
  iterator?: string;
  failures: number;
  retryAt: number;
}

const bySequence = (a: ShardState, b: ShardState): number => {
  const x = BigInt(a.shard.startingSequenceNumber ?? '0');
  const y = BigInt(b.shard.startingSequenceNumber ?? '0');
  return x < y ? -1 : x > y ? 1 : a.shard.shardId.localeCompare(b.shard.shardId);
};

/** What a pass found: records maybe left behind, records read to the end, or nothing. */
type PassResult = 'more' | 'drained' | 'none';

/** The refresh period while the table has no stream or no readable shard yet. */
const EMPTY_REFRESH_MS = 1000;

interface PollerSettings {
  filters: readonly FilterPattern[];
  consumer: string;
  functionName: string;
  backoff: { initial: number; max: number };
  refreshMs: number;
  checkpointIntervalMs: number;
  readIntervalMs: number;
  log: DriverLog;
  region: string;
}

function settingsOf(opts: StreamPollerOptions): PollerSettings {
  const filters: readonly FilterPattern[] = opts.filter === undefined ? [] : Array.isArray(opts.filter) ? opts.filter : [opts.filter as FilterPattern];
  for (const f of filters) validateFilterPattern(f);
  if (!(opts.batchSize >= 1 && opts.batchSize <= 1000)) throw new Error('batchSize must be 1-1000');
  const consumer = opts.consumer ?? 'webhook-fanout';
  return {
    filters,
    consumer,
    functionName: opts.functionName ?? `local-${consumer}`,
    backoff: opts.retryBackoffMs ?? { initial: 200, max: 5000 },
    refreshMs: opts.shardRefreshMs ?? 30_000,
    checkpointIntervalMs: opts.checkpointIntervalMs ?? 1000,
    readIntervalMs: opts.readIntervalMs ?? 250,
    log: opts.log ?? defaultLog,
    region: runtimeConfig().AWS_REGION,
  };
}

/** One consumer following the stream: its shards, their checkpoints and retries. */
class StreamFollower {
  readonly abort = new AbortController();
  abandoned = false;
  private streamArn: string | undefined;
  private shards = new Map<string, ShardState>();
  private nextRefreshAt = 0;
  private refreshNeeded = true;
  private readonly idle: ReturnType<typeof idleBackoff>;

  constructor(
    private readonly opts: StreamPollerOptions,
    private readonly s: PollerSettings,
  ) {
    const pollMs = opts.pollMs ?? 100;
    this.idle = idleBackoff(pollMs, opts.idlePollMaxMs ?? pollMs);
  }

  private matches(r: DynamoDBRecord): boolean {
    return this.s.filters.length === 0 || this.s.filters.some((f) => matchesFilter(f, r));
  }

  private async refresh(): Promise<void> {
    const arn = await latestStreamArn();
    if (arn !== this.streamArn) {
      this.streamArn = arn;
      this.shards = new Map();
    }
    this.refreshNeeded = false;
    this.nextRefreshAt = Date.now() + Math.min(EMPTY_REFRESH_MS, this.s.refreshMs);
    if (!arn) return;
    const next = new Map<string, ShardState>();
    for (const shard of await listShards(arn)) {
      const known = this.shards.get(shard.shardId);
      if (known) {
        known.shard = shard;
        next.set(shard.shardId, known);
        continue;
      }
      const cp = await getStreamCheckpoint(this.s.consumer, shard.shardId);
      next.set(shard.shardId, {
        shard,
        ...(cp?.sequenceNumber ? { checkpoint: cp.sequenceNumber, persisted: cp.sequenceNumber } : {}),
        closed: cp?.closed === true,
        persistedAt: 0,
        unwritten: false,
        failures: 0,
        retryAt: 0,
      });
    }
    this.shards = next;
    // Describing the table and its stream is one of DynamoDB Local's dearest calls: once there is
    // something to read, only the events above (or the long period) refresh the list.
    if (this.readable().length > 0) this.nextRefreshAt = Date.now() + this.s.refreshMs;
  }

  /** Open shards whose parent is done (closed and read, or gone), oldest first. */
  private readable(): ShardState[] {
    return [...this.shards.values()]
      .filter((s) => {
        if (s.closed) return false;
        const parent = s.shard.parentShardId ? this.shards.get(s.shard.parentShardId) : undefined;
        return !parent || parent.closed;
      })
      .sort(bySequence);
  }

  async persist(s: ShardState): Promise<void> {
    if (this.abandoned) return;
    if (s.checkpoint === s.persisted) {
      s.unwritten = false;
      return;
    }
    const sequenceNumber = s.checkpoint;
    await putStreamCheckpoint(this.s.consumer, s.shard.shardId, { ...(sequenceNumber ? { sequenceNumber } : {}), ...(s.closed ? { closed: true } : {}) });
    s.persisted = sequenceNumber;
    s.persistedAt = Date.now();
    s.unwritten = false;
  }

  /** When the checkpoint of a shard with unwritten progress is due to be written (undefined: nothing unwritten). */
  private checkpointDue(s: ShardState): number | undefined {
    return s.unwritten ? s.persistedAt + this.s.checkpointIntervalMs : undefined;
  }

  /** Writes the checkpoints that are due, and returns in how many ms the next one is (at most `ms`). */
  private async persistDue(ms: number): Promise<number> {
    let next = Date.now() + ms;
    for (const s of this.shards.values()) {
      const due = this.checkpointDue(s);
      if (due === undefined) continue;
      if (due <= Date.now()) await this.persist(s);
      else next = Math.min(next, due);
    }
    return Math.max(1, next - Date.now());
  }

  private async close(s: ShardState): Promise<void> {
    s.closed = true;
    s.iterator = undefined;
    if (!this.abandoned)
      await putStreamCheckpoint(this.s.consumer, s.shard.shardId, { ...(s.checkpoint ? { sequenceNumber: s.checkpoint } : {}), closed: true });
    s.persisted = s.checkpoint;
    s.unwritten = false;
    this.refreshNeeded = true; // its children become readable
  }

  private toLambdaRecord(r: StreamRecordJson): DynamoDBRecord {
    return {
      eventID: r.eventID,
      eventName: r.eventName,
      eventVersion: r.eventVersion,
      eventSource: 'aws:dynamodb',
      awsRegion: this.s.region,
      dynamodb: r.dynamodb as DynamoDBRecord['dynamodb'],
      eventSourceARN: this.streamArn,
      ...(r.userIdentity ? { userIdentity: r.userIdentity } : {}),
    };
  }

  /** Invokes the handler; returns the lowest sequence number to retry from, or undefined when all succeeded. */
  private async deliver(batch: DynamoDBRecord[]): Promise<string | undefined> {
    const { consumer, log } = this.s;
    const seqs = batch.map((r) => r.dynamodb!.SequenceNumber!);
    let result: DynamoDBBatchResponse | void;
    try {
      result = await (async () =>
        this.opts.handler({ Records: batch }, lambdaContext(this.s.functionName, this.opts.timeoutSeconds ?? config.lambda.timeoutSeconds)))();
    } catch (err) {
      log('error', 'local stream poller: handler failed, the batch will be retried', { consumer, records: batch.length, error: err });
      return seqs[0];
    }
    const items = (result as DynamoDBBatchResponse | undefined)?.batchItemFailures;
    if (items === undefined || items === null || (Array.isArray(items) && items.length === 0)) return undefined;
    const known = new Set(seqs);
    if (!Array.isArray(items) || items.some((f) => !f || typeof f.itemIdentifier !== 'string' || !known.has(f.itemIdentifier))) {
      log('warn', 'local stream poller: invalid batchItemFailures, the whole batch will be retried', { consumer, items });
      return seqs[0];
    }
    let lowest = items[0]!.itemIdentifier;
    for (const f of items) if (BigInt(f.itemIdentifier) < BigInt(lowest)) lowest = f.itemIdentifier;
    return lowest;
  }

  /** The shard's iterator, from its checkpoint (or the oldest record when the checkpoint was trimmed). */
  private async iteratorOf(streamArn: string, s: ShardState): Promise<string | undefined> {
    try {
      return await shardIterator(streamArn, s.shard.shardId, s.checkpoint);
    } catch (err) {
      if (!(err instanceof Error && err.name === 'TrimmedDataAccessException' && s.checkpoint)) throw err;
      this.s.log('warn', 'local stream poller: checkpoint trimmed from the stream, continuing at the oldest record', {
        consumer: this.s.consumer,
        shardId: s.shard.shardId,
      });
      return shardIterator(streamArn, s.shard.shardId);
    }
  }

  /** The next records of a shard, or undefined when its iterator went stale (re-read after a refresh). */
  private async read(s: ShardState, iterator: string): Promise<Awaited<ReturnType<typeof readRecords>> | undefined> {
    try {
      return await readRecords(iterator, this.opts.batchSize);
    } catch (err) {
      if (!isStaleIterator(err)) throw err;
      s.iterator = undefined;
      this.refreshNeeded = true;
      return undefined;
    }
  }

  /**
   * Reads one batch of a shard and handles it: `more` when the read may have left records behind (a
   * full batch, a closed shard), `drained` when it had records and read to the shard's end.
   */
  private async pollShard(s: ShardState): Promise<PassResult> {
    if (!this.streamArn) return 'none';
    s.iterator ??= await this.iteratorOf(this.streamArn, s);
    if (!s.iterator) return 'none';
    const out = await this.read(s, s.iterator);
    if (!out) return 'none';
    const { records, nextIterator } = out;
    if (records.length === 0) {
      s.iterator = nextIterator;
      if (!nextIterator) await this.close(s);
      return 'none';
    }
    const batch = records.map((r) => this.toLambdaRecord(r)).filter((r) => this.matches(r));
    const retryFrom = batch.length > 0 ? await this.deliver(batch) : undefined;
    if (this.abandoned) return 'more';
    if (retryFrom !== undefined) {
      await this.retryFrom(s, records, retryFrom);
      return 'none';
    }
    s.failures = 0;
    s.checkpoint = records[records.length - 1]!.dynamodb.SequenceNumber;
    // Only bookkeeping records (checkpoint writes) in a batch without an invocation: keep it in
    // memory, or each checkpoint write would cause the next.
    if (batch.length > 0 || records.some((r) => !isCheckpointRecord(r))) {
      s.unwritten = true;
      if (this.checkpointDue(s)! <= Date.now()) await this.persist(s);
    }
    s.iterator = nextIterator;
    if (!nextIterator) {
      await this.close(s);
      return 'more';
    }
    return records.length >= this.opts.batchSize ? 'more' : 'drained';
  }

  /** Checkpoints up to the record before `sequenceNumber` and schedules the re-read after a backoff. */
  private async retryFrom(s: ShardState, records: StreamRecordJson[], sequenceNumber: string): Promise<void> {
    const idx = records.findIndex((r) => r.dynamodb.SequenceNumber === sequenceNumber);
    if (idx > 0) {
      s.checkpoint = records[idx - 1]!.dynamodb.SequenceNumber;
      await this.persist(s);
    }
    s.iterator = undefined; // re-read from the checkpoint
    s.failures++;
    s.retryAt = Date.now() + Math.min(this.s.backoff.max, this.s.backoff.initial * 2 ** (s.failures - 1));
  }

  private async pass(): Promise<PassResult> {
    if (this.refreshNeeded || Date.now() >= this.nextRefreshAt) await this.refresh();
    let result: PassResult = 'none';
    for (const s of this.readable()) {
      if (this.abort.signal.aborted) break;
      if (s.retryAt > Date.now()) continue;
      try {
        const read = await this.pollShard(s);
        if (read === 'more' || (read === 'drained' && result === 'none')) result = read;
      } catch (err) {
        s.iterator = undefined;
        this.s.log('error', 'local stream poller: reading a shard failed', { consumer: this.s.consumer, shardId: s.shard.shardId, error: err });
      }
    }
    return result;
  }

  /** `ms`, or less when a shard waiting to retry is due sooner. */
  private untilRetry(ms: number): number {
    let due = Date.now() + ms;
    for (const s of this.shards.values()) if (s.retryAt > Date.now()) due = Math.min(due, s.retryAt);
    return Math.max(1, due - Date.now());
  }

  /** Polls until aborted, then writes the checkpoints still in memory. */
  async run(): Promise<void> {
    let result: PassResult = 'more';
    let passStartedAt = 0;
    while (!this.abort.signal.aborted) {
      // Every read is a request to the store: the writes that came meanwhile wait for the next one.
      const early = passStartedAt + this.s.readIntervalMs - Date.now();
      if (result !== 'more' && early > 0) await sleep(early, undefined, { signal: this.abort.signal }).catch(() => undefined);
      if (this.abort.signal.aborted) break;
      passStartedAt = Date.now();
      result = 'none';
      const writesBefore = signalCount(TABLE_WRITES);
      try {
        result = await this.pass();
      } catch (err) {
        this.s.log('error', 'local stream poller: poll failed', { consumer: this.s.consumer, error: err });
      }
      // A shard read to its end is read again without sleeping only when this process wrote
      // meanwhile; otherwise at its next write, or after the shortest sleep (writes of other processes).
      if (result !== 'none') this.idle.busy();
      if (result === 'more' || (result === 'drained' && signalCount(TABLE_WRITES) !== writesBefore)) continue;
      // Idle: until a write of this process (see stream-wake.ts), a shard's retry or the next poll.
      let sleepMs = this.untilRetry(this.idle.idle());
      try {
        sleepMs = await this.persistDue(sleepMs);
      } catch (err) {
        this.s.log('error', 'local stream poller: writing a checkpoint failed', { consumer: this.s.consumer, error: err });
      }
      await sleepOn(TABLE_WRITES, sleepMs, this.abort.signal);
    }
    for (const s of this.shards.values()) {
      try {
        await this.persist(s);
      } catch (err) {
        this.s.log('error', 'local stream poller: writing a checkpoint failed', { consumer: this.s.consumer, shardId: s.shard.shardId, error: err });
      }
    }
  }
}

export function startStreamPoller(opts: StreamPollerOptions): StreamPoller {
  const settings = settingsOf(opts);
  const follower = new StreamFollower(opts, settings);
  const loop = follower.run();
  let stopped: Promise<void> | undefined;
  return {
    stop(graceMs = opts.stopGraceMs ?? 10_000) {
      stopped ??= (async () => {
        follower.abort.abort();
        if (await settleWithin(loop, graceMs)) {
          follower.abandoned = true;
          settings.log('warn', 'local stream poller: stopped with an invocation still running; its records come again on the next start', {
            consumer: settings.consumer,
          });
        }
      })();
      return stopped;
    },
  };
}
