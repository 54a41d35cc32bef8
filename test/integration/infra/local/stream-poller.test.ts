import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DriverLog } from '../../../../infra/local/queue-driver';
import {
  matchesFilter,
  startStreamPoller,
  validateFilterPattern,
  type StreamHandler,
  type StreamPoller,
  type StreamPollerOptions,
} from '../../../../infra/local/stream-poller';
import { OUTBOX_STREAM_FILTER } from '../../../../shared/platform/events/stream-filter';
import { wakeStreamPollersOnWrites } from '../../../../infra/local/stream-wake';
import { streams } from '../../../../infra/local/stream-reader';
import { putItem } from '../../../../shared/platform/data/items';
import { countStoreCalls } from '../../../../shared/platform/data/store-calls';
import { platformTable } from '../../../support/table';

/**
 * The stream poller, in this process, against the running platform's DynamoDB Local. Each test
 * follows the stream as its own consumer (own checkpoints), writes items of its own fake workspace and
 * only looks at those (the stream also carries everything else the test run writes).
 */

const pollers: StreamPoller[] = [];
const logged: { level: string; message: string }[] = [];
const log: DriverLog = (level, message) => void logged.push({ level, message });

/**
 * A table of this file's own on the run's DynamoDB Local: a poller without a checkpoint starts at
 * the stream's beginning, and the platform's shared table holds the writes of every file before.
 */
const OWN_TABLE = `stream-poller-${randomUUID()}`;
const streamTable = async () => ({ ...(await platformTable()), tableName: OWN_TABLE });

beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: OWN_TABLE, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
  const { ensureTable } = await import('../../../../infra/local/table-admin');
  expect(await ensureTable()).toBe(true);
});

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((p) => p.stop(2000)));
});

function poll(handler: StreamHandler, consumer: string, options: Partial<StreamPollerOptions> = { shardRefreshMs: 500 }): StreamPoller {
  const p = startStreamPoller({
    handler,
    filter: OUTBOX_STREAM_FILTER,
    batchSize: 100,
    pollMs: 50,
    consumer,
    retryBackoffMs: { initial: 100, max: 400 },
    log,
    ...options,
  });
  pollers.push(p);
  return p;
}

async function until(what: string, cond: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * A poller woken by this process's writes (through the platform store client) and otherwise asleep
 * for a minute, caught up with the stream: what it reads from now on comes from `write`.
 */
async function wokenPollerCaughtUp() {
  wakeStreamPollersOnWrites();
  const ws = workspace();
  const seen: string[] = [];
  poll(async (event) => void seen.push(...event.Records.filter(ws.mine).map((r) => ws.nameOf(r)!)), `test-${randomUUID()}`, { pollMs: 60_000 });
  await ws.write('first');
  await until('the first item (read while catching up with the stream)', () => seen.includes('first'), 30_000);
  await sleep(300);
  return { seen, write: ws.write };
}

/** A fake workspace: its outbox-like items, and a handler view of only its records. */
function workspace() {
  const workspaceId = `ws_test${randomUUID().replaceAll('-', '')}`;
  const key = (n: string) => ({ pk: `WS#${workspaceId}#OUTBOX#${n}`, sk: 'OUTBOX' });
  const mine = (r: DynamoDBRecord) => (r.dynamodb?.NewImage ?? r.dynamodb?.OldImage)?.workspaceId?.S === workspaceId;
  const nameOf = (r: DynamoDBRecord) => (r.dynamodb?.NewImage ?? r.dynamodb?.OldImage)?.name?.S;
  const item = (name: string, entity = 'outbox') => ({ ...key(name), entity, workspaceId, name, events: [{ id: `evt_${name}` }] });
  return {
    workspaceId,
    key,
    mine,
    nameOf,
    /** Writes an item with a client of the test's own (no wake-up of this process's pollers). */
    async put(name: string, entity = 'outbox') {
      const { doc, tableName } = await streamTable();
      await doc.send(new PutCommand({ TableName: tableName, Item: item(name, entity) }));
    },
    /** Writes an item through the platform's store client, which wakes this process's pollers. */
    write: (name: string) => putItem({ Item: item(name) }),
  };
}

describe('Lambda filter patterns (the supported subset)', () => {
  it('matches nested objects and lists of allowed literals', () => {
    const record = { eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'outbox' }, tags: { SS: ['a', 'b'] } } } };
    expect(matchesFilter(OUTBOX_STREAM_FILTER, record)).toBe(true);
    expect(matchesFilter(OUTBOX_STREAM_FILTER, { ...record, eventName: 'MODIFY' })).toBe(false);
    expect(matchesFilter(OUTBOX_STREAM_FILTER, { eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'member' } } } })).toBe(false);
    expect(matchesFilter(OUTBOX_STREAM_FILTER, { eventName: 'REMOVE', dynamodb: { OldImage: { entity: { S: 'outbox' } } } })).toBe(false);
    expect(matchesFilter({ dynamodb: { NewImage: { tags: { SS: ['b', 'z'] } } } }, record)).toBe(true);
    expect(matchesFilter({ missing: ['x'] }, record)).toBe(false);
    expect(() => validateFilterPattern({ a: [{ prefix: 'x' }] })).toThrow(/only literal/);
    expect(() => validateFilterPattern(OUTBOX_STREAM_FILTER)).not.toThrow();
  });
});

describe('local stream poller', () => {
  it('delivers a new outbox item as Lambda does, and nothing the filter drops', async () => {
    const ws = workspace();
    const seen: DynamoDBRecord[] = [];
    const events: DynamoDBStreamEvent[] = [];
    poll(async (event) => {
      events.push(event);
      seen.push(...event.Records.filter(ws.mine));
    }, `test-${randomUUID()}`);

    const { doc, tableName } = await streamTable();
    await ws.put('first');
    await ws.put('not-an-outbox', 'member');
    await doc.send(
      new UpdateCommand({ TableName: tableName, Key: ws.key('first'), UpdateExpression: 'SET touched = :t', ExpressionAttributeValues: { ':t': true } }),
    );
    await doc.send(new DeleteCommand({ TableName: tableName, Key: ws.key('first') }));
    await ws.put('sentinel');
    await until('the sentinel', () => seen.some((r) => ws.nameOf(r) === 'sentinel'));

    expect(seen.map((r) => [r.eventName, ws.nameOf(r)])).toEqual([
      ['INSERT', 'first'],
      ['INSERT', 'sentinel'],
    ]);
    const r = seen[0]!;
    expect(r).toMatchObject({
      eventID: expect.any(String),
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'eu-west-1',
      eventSourceARN: expect.stringMatching(new RegExp(`table/${tableName}/stream/`)),
      dynamodb: {
        Keys: { pk: { S: ws.key('first').pk }, sk: { S: 'OUTBOX' } },
        NewImage: {
          pk: { S: ws.key('first').pk },
          entity: { S: 'outbox' },
          workspaceId: { S: ws.workspaceId },
          events: { L: [{ M: { id: { S: 'evt_first' } } }] },
        },
        SequenceNumber: expect.stringMatching(/^\d+$/),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    });
    expect(r.dynamodb!.OldImage).toBeUndefined();
    expect(Math.abs(r.dynamodb!.ApproximateCreationDateTime! - Date.now() / 1000)).toBeLessThan(300);
    // The filter holds for every record of every invocation, not only ours.
    for (const e of events) for (const rec of e.Records) expect(matchesFilter(OUTBOX_STREAM_FILTER, rec)).toBe(true);
  });

  it('a write through the platform store client wakes an idle poller at once, not at its next poll', async () => {
    wakeStreamPollersOnWrites();
    const ws = workspace();
    const seen: string[] = [];
    const p = startStreamPoller({
      handler: async (event) => void seen.push(...event.Records.filter(ws.mine).map((r) => ws.nameOf(r)!)),
      filter: OUTBOX_STREAM_FILTER,
      batchSize: 1000,
      pollMs: 60_000,
      consumer: `test-${randomUUID()}`,
      log,
    });
    pollers.push(p);
    await ws.write('first');
    await until('the first item (read while catching up with the stream)', () => seen.includes('first'), 30_000);
    await sleep(500); // caught up: the poller now sleeps for a minute
    const writtenAt = Date.now();
    await ws.write('second');
    await until('the second item', () => seen.includes('second'), 10_000);
    expect(Date.now() - writtenAt).toBeLessThan(5000);
  });

  it('describes the table when it starts, then not on every pass while its shard stays readable', async () => {
    const ws = workspace();
    const seen: string[] = [];
    const { totals } = await countStoreCalls().during(async () => {
      poll(async (event) => void seen.push(...event.Records.filter(ws.mine).map((r) => ws.nameOf(r)!)), `test-${randomUUID()}`, {});
      await ws.put('first');
      await until('the first item', () => seen.includes('first'), 30_000);
      // Passes keep coming (50 ms apart when idle): none of them describes the table again.
      await sleep(2500);
      await ws.put('second');
      await until('the second item', () => seen.includes('second'), 10_000);
    });
    // DescribeTable is dear on DynamoDB Local (78 ms against 8 ms for a GetItem in a profiled run): the default refresh is rare.
    expect(totals.operations.DescribeTable).toBe(1);
  });

  it('writes its checkpoint at most once per interval while records flow, the last progress once it is idle, and nothing for its own writes', async () => {
    const INTERVAL_MS = 2000;
    const ws = workspace();
    const seen: string[] = [];
    poll(async (event) => void seen.push(...event.Records.filter(ws.mine).map((r) => ws.nameOf(r)!)), `test-${randomUUID()}`, {
      shardRefreshMs: 500,
      checkpointIntervalMs: INTERVAL_MS,
    });
    const putAndSee = async (name: string) => {
      await ws.put(name);
      await until(`item ${name}`, () => seen.includes(name));
    };
    const flowing = await countStoreCalls().during(async () => {
      const started = Date.now();
      for (let i = 0; i < 10; i++) await putAndSee(`n${i}`);
      return Date.now() - started;
    });
    // Ten invocations, one after another: a checkpoint write each would be ten.
    expect(flowing.totals.operations.PutItem ?? 0).toBeLessThanOrEqual(Math.ceil(flowing.result / INTERVAL_MS) + 1);
    // Quiet for longer than the interval: whatever was due is written. Then two more invocations: the
    // first is written at once (the last write is an interval ago), the second comes within the
    // interval after it, so it waits.
    await sleep(INTERVAL_MS + 500);
    await putAndSee('a');
    await putAndSee('b');
    // Idle: what was not written yet is written once, within about the interval.
    const idle = await countStoreCalls().during(() => sleep(INTERVAL_MS + 800));
    expect(idle.totals.operations.PutItem).toBe(1);
    // Its own checkpoint write comes back on the stream: that is no progress to write.
    const after = await countStoreCalls().during(() => sleep(1500));
    expect(after.totals.operations.PutItem ?? 0).toBe(0);
  });

  it('reads a shard it read to the end again at the next write of this process, not at once', async () => {
    const { seen, write } = await wokenPollerCaughtUp();
    const { totals } = await countStoreCalls([streams() as never]).during(async () => {
      for (let i = 0; i < 5; i++) {
        await write(`n${i}`);
        await until(`item ${i}`, () => seen.includes(`n${i}`), 10_000);
      }
    });
    // A read per write (and one for its own checkpoint write, at most once a second); reading again
    // at once after each batch made it two per write.
    expect(totals.operations.GetRecords).toBeGreaterThanOrEqual(5);
    expect(totals.operations.GetRecords).toBeLessThanOrEqual(5 + 2);
  });

  it('reads the writes of a burst in a few reads, at most one per read interval, and delivers every one', async () => {
    const { seen, write } = await wokenPollerCaughtUp();
    const names = Array.from({ length: 20 }, (_, i) => `b${i}`);
    const { result: ms, totals } = await countStoreCalls([streams() as never]).during(async () => {
      const started = Date.now();
      // Twenty writes 20 ms apart, each waking the poller: a read for each was twenty reads.
      for (const name of names) {
        await write(name);
        await sleep(20);
      }
      await until('every item of the burst', () => names.every((n) => seen.includes(n)), 10_000);
      return Date.now() - started;
    });
    expect(new Set(seen.filter((n) => n.startsWith('b'))).size).toBe(20);
    // One read per 250 ms of the burst at most, one more for its own checkpoint write.
    expect(totals.operations.GetRecords).toBeLessThanOrEqual(Math.ceil(ms / 250) + 2);
    expect(totals.operations.GetRecords).toBeLessThan(names.length / 2);
  });

  it('retries from a batchItemFailure (or a throw) until it succeeds, skipping nothing after it', async () => {
    const ws = workspace();
    const processed: string[] = [];
    let failuresOfB = 0;
    let throwsOnC = 0;
    poll(async (event): Promise<DynamoDBBatchResponse> => {
      // A throw retries the whole batch (records before c included), so throw before doing anything.
      if (event.Records.some((r) => ws.mine(r) && ws.nameOf(r) === 'c') && throwsOnC < 1) {
        throwsOnC++;
        throw new Error('c is not ready');
      }
      for (const r of event.Records) {
        if (!ws.mine(r)) continue;
        const name = ws.nameOf(r)!;
        if (name === 'b' && failuresOfB < 2) {
          failuresOfB++;
          // Report the failure and stop here: whatever follows must come again.
          return { batchItemFailures: [{ itemIdentifier: r.dynamodb!.SequenceNumber! }] };
        }
        processed.push(name);
      }
      return { batchItemFailures: [] };
    }, `test-${randomUUID()}`);

    for (const name of ['a', 'b', 'c', 'd']) await ws.put(name);
    await until('all four', () => processed.includes('d'));
    // The shard is read in order: once a later record is through, nothing before it comes again.
    await ws.put('e');
    await until('the later record', () => processed.includes('e'));
    expect(processed).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(failuresOfB).toBe(2);
    expect(throwsOnC).toBe(1);
    expect(logged.some((l) => l.level === 'error' && /handler failed/.test(l.message))).toBe(true);
  });

  it('resumes after its checkpoint when restarted: nothing again, nothing lost', async () => {
    const ws = workspace();
    const consumer = `test-${randomUUID()}`;
    const firstRun: string[] = [];
    const first = poll(async (event) => void firstRun.push(...event.Records.filter(ws.mine).map((r) => ws.nameOf(r)!)), consumer);
    await ws.put('before');
    await until('before', () => firstRun.includes('before'));
    await first.stop();

    await ws.put('while-stopped');
    const secondRun: string[] = [];
    poll(async (event) => void secondRun.push(...event.Records.filter(ws.mine).map((r) => ws.nameOf(r)!)), consumer);
    await until('while-stopped', () => secondRun.includes('while-stopped'));
    await ws.put('after');
    await until('after', () => secondRun.includes('after'));
    expect(firstRun).toEqual(['before']);
    expect(secondRun).toEqual(['while-stopped', 'after']);
  });
});
