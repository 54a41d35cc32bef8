import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { config } from '../../shared/config';
import { runtimeConfig } from '../../shared/config';
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
import { idleBackoff, sleepOn } from './queue-signal';
import { TABLE_WRITES } from './stream-wake';
import type { DriverLog } from './queue-driver';
import { logger } from '../../shared/observability/logger';

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
 * - Checkpoints are written after every invocation; a batch that only held records of checkpoint
 *   items (this or another poller's bookkeeping) advances in memory only, so checkpoint writes never
 *   feed on their own stream records. `stop()` writes what is still in memory.
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
  /** How often the shard list is refreshed (default 1 s; at once when a shard closes). */
  shardRefreshMs?: number;
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


export function startStreamPoller(opts: StreamPollerOptions): StreamPoller {
  const filters: readonly FilterPattern[] = opts.filter === undefined ? [] : Array.isArray(opts.filter) ? opts.filter : [opts.filter as FilterPattern];
  for (const f of filters) validateFilterPattern(f);
  if (!(opts.batchSize >= 1 && opts.batchSize <= 1000)) throw new Error('batchSize must be 1-1000');
  const pollMs = opts.pollMs ?? 100;
  const consumer = opts.consumer ?? 'webhook-fanout';
  const functionName = opts.functionName ?? `local-${consumer}`;
  const backoff = opts.retryBackoffMs ?? { initial: 200, max: 5000 };
  const refreshMs = opts.shardRefreshMs ?? 1000;
  const log = opts.log ?? defaultLog;
  const region = runtimeConfig().AWS_REGION;
  const abort = new AbortController();
  let abandoned = false;

  let streamArn: string | undefined;
  let shards = new Map<string, ShardState>();
  let lastRefresh = 0;
  let refreshNeeded = true;

  const matches = (r: DynamoDBRecord) => filters.length === 0 || filters.some((f) => matchesFilter(f, r));

  async function refresh(): Promise<void> {
    const arn = await latestStreamArn();
    if (arn !== streamArn) {
      streamArn = arn;
      shards = new Map();
    }
    lastRefresh = Date.now();
    refreshNeeded = false;
    if (!arn) return;
    const next = new Map<string, ShardState>();
    for (const shard of await listShards(arn)) {
      const known = shards.get(shard.shardId);
      if (known) {
        known.shard = shard;
        next.set(shard.shardId, known);
        continue;
      }
      const cp = await getStreamCheckpoint(consumer, shard.shardId);
      next.set(shard.shardId, {
        shard,
        ...(cp?.sequenceNumber ? { checkpoint: cp.sequenceNumber, persisted: cp.sequenceNumber } : {}),
        closed: cp?.closed === true,
        failures: 0,
        retryAt: 0,
      });
    }
    shards = next;
  }

  /** Open shards whose parent is done (closed and read, or gone), oldest first. */
  function readable(): ShardState[] {
    return [...shards.values()]
      .filter((s) => {
        if (s.closed) return false;
        const parent = s.shard.parentShardId ? shards.get(s.shard.parentShardId) : undefined;
        return !parent || parent.closed;
      })
      .sort(bySequence);
  }

  async function persist(s: ShardState): Promise<void> {
    if (abandoned || s.checkpoint === s.persisted) return;
    const sequenceNumber = s.checkpoint;
    await putStreamCheckpoint(consumer, s.shard.shardId, { ...(sequenceNumber ? { sequenceNumber } : {}), ...(s.closed ? { closed: true } : {}) });
    s.persisted = sequenceNumber;
  }

  async function close(s: ShardState): Promise<void> {
    s.closed = true;
    s.iterator = undefined;
    if (!abandoned) await putStreamCheckpoint(consumer, s.shard.shardId, { ...(s.checkpoint ? { sequenceNumber: s.checkpoint } : {}), closed: true });
    s.persisted = s.checkpoint;
    refreshNeeded = true; // its children become readable
  }

  function toLambdaRecord(r: StreamRecordJson): DynamoDBRecord {
    return {
      eventID: r.eventID,
      eventName: r.eventName,
      eventVersion: r.eventVersion,
      eventSource: 'aws:dynamodb',
      awsRegion: region,
      dynamodb: r.dynamodb as DynamoDBRecord['dynamodb'],
      eventSourceARN: streamArn,
      ...(r.userIdentity ? { userIdentity: r.userIdentity } : {}),
    };
  }

  /** Invokes the handler; returns the lowest sequence number to retry from, or undefined when all succeeded. */
  async function deliver(batch: DynamoDBRecord[]): Promise<string | undefined> {
    const seqs = batch.map((r) => r.dynamodb!.SequenceNumber!);
    let result: DynamoDBBatchResponse | void;
    try {
      result = await (async () => opts.handler({ Records: batch }, lambdaContext(functionName, opts.timeoutSeconds ?? config.lambda.timeoutSeconds)))();
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

  /** Reads one batch of a shard and handles it; returns whether there were records. */
  async function pollShard(s: ShardState): Promise<boolean> {
    if (!streamArn) return false;
    if (!s.iterator) {
      try {
        s.iterator = await shardIterator(streamArn, s.shard.shardId, s.checkpoint);
      } catch (err) {
        if (!(err instanceof Error && err.name === 'TrimmedDataAccessException' && s.checkpoint)) throw err;
        log('warn', 'local stream poller: checkpoint trimmed from the stream, continuing at the oldest record', { consumer, shardId: s.shard.shardId });
        s.iterator = await shardIterator(streamArn, s.shard.shardId);
      }
      if (!s.iterator) return false;
    }
    let out: Awaited<ReturnType<typeof readRecords>>;
    try {
      out = await readRecords(s.iterator, opts.batchSize);
    } catch (err) {
      if (!isStaleIterator(err)) throw err;
      s.iterator = undefined;
      refreshNeeded = true;
      return false;
    }
    const { records, nextIterator } = out;
    if (records.length === 0) {
      s.iterator = nextIterator;
      if (!nextIterator) await close(s);
      return false;
    }

    const lambdaRecords = records.map(toLambdaRecord);
    const batch = lambdaRecords.filter(matches);
    const retryFrom = batch.length > 0 ? await deliver(batch) : undefined;
    if (abandoned) return true;
    if (retryFrom !== undefined) {
      const idx = records.findIndex((r) => r.dynamodb.SequenceNumber === retryFrom);
      if (idx > 0) {
        s.checkpoint = records[idx - 1]!.dynamodb.SequenceNumber;
        await persist(s);
      }
      s.iterator = undefined; // re-read from the checkpoint
      s.failures++;
      s.retryAt = Date.now() + Math.min(backoff.max, backoff.initial * 2 ** (s.failures - 1));
      return false;
    }
    s.failures = 0;
    s.checkpoint = records[records.length - 1]!.dynamodb.SequenceNumber;
    // Only bookkeeping records (checkpoint writes) in a batch without an invocation: keep it in
    // memory, or each checkpoint write would cause the next.
    if (batch.length > 0 || records.some((r) => !isCheckpointRecord(r))) await persist(s);
    s.iterator = nextIterator;
    if (!nextIterator) await close(s);
    return true;
  }

  async function pass(): Promise<boolean> {
    if (refreshNeeded || Date.now() - lastRefresh >= refreshMs) await refresh();
    let busy = false;
    for (const s of readable()) {
      if (abort.signal.aborted) break;
      if (s.retryAt > Date.now()) continue;
      try {
        if (await pollShard(s)) busy = true;
      } catch (err) {
        s.iterator = undefined;
        log('error', 'local stream poller: reading a shard failed', { consumer, shardId: s.shard.shardId, error: err });
      }
    }
    return busy;
  }

  const idle = idleBackoff(pollMs, opts.idlePollMaxMs ?? pollMs);
  /** `ms`, or less when a shard waiting to retry is due sooner. */
  const untilRetry = (ms: number): number => {
    let due = Date.now() + ms;
    for (const s of shards.values()) if (s.retryAt > Date.now()) due = Math.min(due, s.retryAt);
    return Math.max(1, due - Date.now());
  };

  const loop = (async () => {
    while (!abort.signal.aborted) {
      let busy = false;
      try {
        busy = await pass();
      } catch (err) {
        log('error', 'local stream poller: poll failed', { consumer, error: err });
      }
      if (busy) {
        idle.busy();
        continue;
      }
      // Idle: until a write of this process (see stream-wake.ts), a shard's retry or the next poll.
      await sleepOn(TABLE_WRITES, untilRetry(idle.idle()), abort.signal);
    }
    for (const s of shards.values()) {
      try {
        await persist(s);
      } catch (err) {
        log('error', 'local stream poller: writing a checkpoint failed', { consumer, shardId: s.shard.shardId, error: err });
      }
    }
  })();

  let stopped: Promise<void> | undefined;
  return {
    stop(graceMs = opts.stopGraceMs ?? 10_000) {
      stopped ??= (async () => {
        abort.abort();
        if (await settleWithin(loop, graceMs)) {
          abandoned = true;
          log('warn', 'local stream poller: stopped with an invocation still running; its records come again on the next start', { consumer });
        }
      })();
      return stopped;
    },
  };
}
