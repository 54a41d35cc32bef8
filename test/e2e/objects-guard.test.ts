import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPlatform, storesOfOwn, type RunningPlatform } from '../support/platform';
import { atWindowStart, BURST_GUARD, BURST_LIMIT, burstInOneWindow, parallelRecordWrites, recordWriteSetup } from '../support/record-writes';

/**
 * These tests start platforms of their own, with the guard's numbers set through the environment, on
 * a DynamoDB Local of this file: exact counts of bursts, not the other files' load, are the subject.
 */
const setUp = (p: RunningPlatform) => recordWriteSetup(p.baseUrl);

/**
 * A small guard, one with a 1 ms time budget (its store cannot answer in time), and the burst
 * test's guard: started side by side, so no test waits for a start of its own.
 */
let small: RunningPlatform;
let hurried: RunningPlatform;
let burst: RunningPlatform;
let own: Awaited<ReturnType<typeof storesOfOwn>>;

beforeAll(async () => {
  own = await storesOfOwn(inject('stores'));
  [small, hurried, burst] = await Promise.all([
    startPlatform({ stores: own.stores, env: { OBJECTS_RATE_BURST: '5', OBJECTS_RATE_PER_SECOND: '1', OBJECTS_RATE_GUARD_TIMEOUT_MS: '10000' } }),
    startPlatform({ stores: own.stores, env: { OBJECTS_RATE_GUARD_TIMEOUT_MS: '1' } }),
    // A time budget that suits DynamoDB Local on a busy machine: the burst is about contention, not speed.
    startPlatform({ stores: own.stores, env: { ...BURST_GUARD, OBJECTS_RATE_GUARD_TIMEOUT_MS: '10000' } }),
  ]);
});

afterAll(async () => {
  await Promise.all([small?.stop(), hurried?.stop(), burst?.stop()]);
  await own?.stop();
});

describe('write-rate guard on record writes', () => {
  it('over the limit: 429 RATE_LIMITED with Retry-After; reads pass; another key has its own budget', async () => {
    const p = small;
    const { api, key } = await setUp(p);
    const k1 = await key();
    // Inside one 10-second window: the 10-second cap holds across the seconds the burst takes.
    await atWindowStart(10);
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => api('POST', '/api/v2/objects/note/records', k1, { data: { title: `n${i}` } })));
    const statuses = results.map((r) => r.status).sort();
    // Fixed windows: a burst inside one second passes at most 5; one straddling a second boundary
    // at most 5 + 5, which the 10-second window (1/s x 10 s) caps at 10 as well.
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(10);
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    for (const r of limited) {
      expect(r.body.error.code).toBe('RATE_LIMITED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const list = await api('GET', '/api/v2/objects/note/records', k1);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(statuses.filter((s) => s === 201).length);
    const k2 = await key();
    expect((await api('POST', '/api/v2/objects/note/records', k2, { data: { title: 'other key' } })).status).toBe(201);
  });

  it('fails closed: when the guard cannot decide in time, the write is refused with 503 and nothing is written', async () => {
    // A 1 ms time budget: the guard's store cannot answer in time.
    const p = hurried;
    const { api, key } = await setUp(p);
    const k = await key();
    const res = await api('POST', '/api/v2/objects/note/records', k, { data: { title: 'must not be written' } });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBe('1');
    const list = await api('GET', '/api/v2/objects/note/records', k);
    expect(list.body).toEqual({ data: [], total: 0 });
  });

  it('never refuses legal writes: 60 parallel within the limits all 201; of 260 exactly the limit, the rest 429 with Retry-After, none 503', async () => {
    const p = burst;
    const { api, key } = await setUp(p);
    const within = await key();
    // Each burst inside one 10-second window (the guard's longest).
    await atWindowStart(10);
    expect(await parallelRecordWrites(api, within, 60)).toEqual({
      writes: 60,
      accepted: 60,
      refused: 0,
      unavailable: 0,
      guardUnavailable: 0,
      other: 0,
      refusedWithoutRetryAfter: 0,
    });
    const over = await burstInOneWindow(api, key, 260, 10);
    expect(over.outcome).toEqual({
      writes: 260,
      accepted: BURST_LIMIT,
      refused: 260 - BURST_LIMIT,
      unavailable: 0,
      guardUnavailable: 0,
      other: 0,
      refusedWithoutRetryAfter: 0,
    });
    const list = await api('GET', '/api/v2/objects/note/records', within);
    expect(list.body.total).toBe(60 + over.acceptedBefore + BURST_LIMIT);
  }, 180_000);
});
