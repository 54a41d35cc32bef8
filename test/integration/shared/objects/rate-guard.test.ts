import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, inject, vi } from 'vitest';
import type { RateGuardSettings } from '../../../../shared/platform/config';
import { keyOf } from '../../../../shared/platform/data/keys';
import type { Principal, SessionPrincipal } from '../../../../shared/platform/contract/principal';
import { AppError } from '../../../../shared/platform/errors';
import { guardWrite } from '../../../../shared/objects/rate-guard';
import { logger } from '../../../../shared/platform/observability/logger';
import { newId } from '../../../../shared/platform/ids';
import { runtimeOf } from '../../../support/platform';
import { platformTable } from '../../../support/table';

/**
 * The write-rate guard against the running platform's DynamoDB Local. Time is injected (`now`), so
 * windows are chosen, not waited for; every test uses fresh workspace and key ids.
 */

/** The default numbers, with a time budget that suits DynamoDB Local under a parallel burst. */
const DEFAULTS: RateGuardSettings = { perSecond: 20, burst: 40, windowSeconds: 10, timeoutMs: 10_000 };

/** Start of a 10-second window in the future, so no counter's TTL (window end + 60 s) has passed. */
const T0 = Math.ceil(Date.now() / 10_000) * 10_000 + 60_000;
const at = (ms: number) => new Date(T0 + ms);

const apiKey = (workspaceId = newId('ws'), keyId = newId('key')): Extract<Principal, { kind: 'apiKey' }> => ({
  kind: 'apiKey',
  workspaceId,
  keyId,
  scopes: ['objects:write'],
});
const session = (workspaceId = newId('ws'), userId = newId('usr')): SessionPrincipal => ({
  kind: 'session',
  workspaceId,
  userId,
  role: 'owner',
  tokenHash: 'x'.repeat(64),
  expiresAt: Date.now() + 3_600_000,
});

/** Settles a guard call: 'ok', or the error code and Retry-After it threw. */
async function attempt(principal: Principal, now: Date, settings = DEFAULTS, client?: DynamoDBDocumentClient) {
  try {
    await guardWrite(principal, now, settings, { client });
    return { outcome: 'ok' as const };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { outcome: err.code, status: err.status, retryAfter: err.headers?.['retry-after'], message: err.message };
  }
}

/** `count` sequential writes; resolves the outcome counts. */
async function writes(principal: Principal, now: Date, count: number, settings = DEFAULTS): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const r = await attempt(principal, now, settings);
    out[r.outcome] = (out[r.outcome] ?? 0) + 1;
  }
  return out;
}

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  // Read lazily by the modules under test (runtimeConfig parses on first use).
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
});

describe('write-rate guard: limits', () => {
  it('lets exactly `burst` writes through in one second; the next is 429 with Retry-After until the second ends', async () => {
    const p = apiKey();
    expect(await writes(p, at(200), 40)).toEqual({ ok: 40 });
    const refused = await attempt(p, at(250));
    expect(refused).toMatchObject({ outcome: 'RATE_LIMITED', status: 429, retryAfter: '1' });
    expect(refused.message).toMatch(/40 writes per second/);
    // Still refused late in the same second; the next second has a fresh burst budget.
    expect((await attempt(p, at(999))).outcome).toBe('RATE_LIMITED');
    expect(await writes(p, at(1000), 40)).toEqual({ ok: 40 });
    expect((await attempt(p, at(1500))).outcome).toBe('RATE_LIMITED');
  });

  it('counters are per workspace, key and window, and expire through the TTL attribute', async () => {
    const p = apiKey();
    await writes(p, at(3_400), 3);
    const { doc, tableName } = await platformTable();
    const read = async (window: string) =>
      (await doc.send(new GetCommand({ TableName: tableName, Key: keyOf('rateWindow', { workspaceId: p.workspaceId, keyId: p.keyId, window }) }))).Item;
    const second = await read(`1s:${T0 / 1000 + 3}`);
    const tenSeconds = await read(`10s:${T0 / 1000}`);
    expect(second).toMatchObject({
      pk: `WS#${p.workspaceId}#RATE#${p.keyId}#1s:${T0 / 1000 + 3}`,
      sk: 'RATE',
      entity: 'rateWindow',
      writes: 3,
      expiresAt: T0 / 1000 + 4 + 60,
    });
    expect(tenSeconds).toMatchObject({ writes: 3, expiresAt: T0 / 1000 + 10 + 60 });
  });

  it('holds the 10-second window (perSecond x windowSeconds = 200) across seconds; refused writes count nowhere', async () => {
    const p = apiKey();
    // Second 0: the burst is used up and one more is refused (and not counted).
    expect(await writes(p, at(100), 41)).toEqual({ ok: 40, RATE_LIMITED: 1 });
    for (const s of [1, 2, 3, 4]) expect(await writes(p, at(s * 1000 + 100), 40), `second ${s}`).toEqual({ ok: 40 });
    // 200 in this 10-second window: second 5 has a fresh burst budget but the window is full.
    const refused = await attempt(p, at(5_300));
    expect(refused).toMatchObject({ outcome: 'RATE_LIMITED', status: 429, retryAfter: '5' });
    expect(refused.message).toMatch(/200 writes per 10 seconds/);
    expect((await attempt(p, at(9_900))).retryAfter).toBe('1');
    // The next 10-second window starts empty.
    expect(await writes(p, at(10_000), 40)).toEqual({ ok: 40 });
  });

  it('gives two keys of one workspace, and a session user, independent budgets', async () => {
    const a = apiKey();
    const b = apiKey(a.workspaceId);
    const user = session(a.workspaceId);
    expect(await writes(a, at(20_000), 41)).toEqual({ ok: 40, RATE_LIMITED: 1 });
    expect(await writes(b, at(20_000), 41)).toEqual({ ok: 40, RATE_LIMITED: 1 });
    // Sessions are guarded too, keyed by their user.
    expect(await writes(user, at(20_000), 41)).toEqual({ ok: 40, RATE_LIMITED: 1 });
    const { doc, tableName } = await platformTable();
    const item = await doc.send(
      new GetCommand({
        TableName: tableName,
        Key: keyOf('rateWindow', { workspaceId: a.workspaceId, keyId: `user:${user.userId}`, window: `1s:${T0 / 1000 + 20}` }),
      }),
    );
    expect(item.Item?.writes).toBe(40);
  });

  it('gives two workspaces independent budgets, even for the same key id', async () => {
    const keyId = newId('key');
    const one = apiKey(newId('ws'), keyId);
    const two = apiKey(newId('ws'), keyId);
    expect(await writes(one, at(30_000), 41)).toEqual({ ok: 40, RATE_LIMITED: 1 });
    expect(await writes(two, at(30_000), 41)).toEqual({ ok: 40, RATE_LIMITED: 1 });
  });

  it('lets exactly `burst` of 60 parallel writes through', async () => {
    const p = apiKey();
    const results = await Promise.all(Array.from({ length: 60 }, () => attempt(p, at(40_500))));
    const counts = results.reduce<Record<string, number>>((acc, r) => {
      acc[r.outcome] = (acc[r.outcome] ?? 0) + 1;
      return acc;
    }, {});
    expect(counts).toEqual({ ok: 40, RATE_LIMITED: 20 });
    const { doc, tableName } = await platformTable();
    const item = await doc.send(
      new GetCommand({ TableName: tableName, Key: keyOf('rateWindow', { workspaceId: p.workspaceId, keyId: p.keyId, window: `1s:${T0 / 1000 + 40}` }) }),
    );
    expect(item.Item?.writes).toBe(40);
  });
});

describe('write-rate guard: exact under concurrency, without clashes', () => {
  const counters = async (p: Extract<Principal, { kind: 'apiKey' }>, second: number) => {
    const { doc, tableName } = await platformTable();
    const read = async (window: string) =>
      (await doc.send(new GetCommand({ TableName: tableName, Key: keyOf('rateWindow', { workspaceId: p.workspaceId, keyId: p.keyId, window }) }))).Item?.writes;
    return { second: await read(`1s:${T0 / 1000 + second}`), tenSeconds: await read(`10s:${T0 / 1000 + Math.floor(second / 10) * 10}`) };
  };
  const tally = (results: { outcome: string }[]) =>
    results.reduce<Record<string, number>>((acc, r) => {
      acc[r.outcome] = (acc[r.outcome] ?? 0) + 1;
      return acc;
    }, {});

  it('when the 10-second window refuses writes the 1-second window admitted, their 1-second slots are given back', async () => {
    const p = apiKey();
    for (const [s, n] of [
      [60, 40],
      [61, 40],
      [62, 40],
      [63, 40],
      [64, 20],
    ] as const)
      expect(await writes(p, at(s * 1000 + 100), n)).toEqual({ ok: n });
    // 180 of 200 used: of 60 parallel writes in second 65 the burst window admits 40, the 10-second window 20 of them.
    const results = await Promise.all(Array.from({ length: 60 }, () => attempt(p, at(65_200))));
    expect(tally(results)).toEqual({ ok: 20, RATE_LIMITED: 40 });
    expect(results.filter((r) => r.outcome === 'RATE_LIMITED').every((r) => r.status === 429 && Number(r.retryAfter) >= 1)).toBe(true);
    // Exact counts: the refused writes count nowhere.
    expect(await counters(p, 65)).toEqual({ second: 20, tenSeconds: 200 });
  });

  it('260 parallel writes: exactly the limit passes, the rest are 429, none 503', async () => {
    const p = apiKey();
    const settings = { ...DEFAULTS, burst: 100, perSecond: 10 };
    const results = await Promise.all(Array.from({ length: 260 }, () => attempt(p, at(70_400), settings)));
    expect(tally(results)).toEqual({ ok: 100, RATE_LIMITED: 160 });
    expect(await counters(p, 70)).toEqual({ second: 100, tenSeconds: 100 });
  });
});

describe('write-rate guard: fails closed', () => {
  let hanging: Server;
  let hangingPort: number;
  const held = new Set<Socket>();
  let accepted = 0;

  beforeAll(async () => {
    // Accepts connections, reads and drops what arrives, never answers.
    hanging = createServer((socket) => {
      held.add(socket);
      accepted++;
      socket.resume(); // flowing, so the client's close is seen
      socket.on('close', () => held.delete(socket));
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    hangingPort = (hanging.address() as { port: number }).port;
  });

  afterAll(async () => {
    for (const s of held) s.destroy();
    await new Promise<void>((r) => hanging.close(() => r()));
  });

  const clientAt = (endpoint: string) =>
    DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));

  /** The guard call must reject with 503: a resolve would mean the write went through. */
  async function expectRefused(call: Promise<void>) {
    const settled = await call.then(
      () => 'resolved',
      (err: unknown) => err,
    );
    expect(settled).toBeInstanceOf(AppError);
    expect(settled).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      message: 'The write-rate guard could not decide; the write was refused',
      headers: { 'retry-after': '1' },
    });
  }

  it('refuses the write (503) when its store cannot be reached', async () => {
    const warn = vi.spyOn(logger, 'warn');
    try {
      const p = apiKey();
      const client = clientAt('http://127.0.0.1:1');
      await expectRefused(guardWrite(p, at(50_000), DEFAULTS, { client }));
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/could not decide/), expect.objectContaining({ workspaceId: p.workspaceId, keyId: p.keyId }));
      client.destroy();
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses the write (503) when its store does not answer within the time budget', async () => {
    const p = apiKey();
    const client = clientAt(`http://127.0.0.1:${hangingPort}`);
    const started = Date.now();
    await expectRefused(guardWrite(p, at(50_000), { ...DEFAULTS, timeoutMs: 1 }, { client }));
    // Decided by the time budget, not by a socket timeout.
    expect(Date.now() - started).toBeLessThan(1_000);
    client.destroy();
  });

  it('refuses on a timeout with the default budget too (300 ms), and the real store counts nothing for it', async () => {
    const p = apiKey();
    const client = clientAt(`http://127.0.0.1:${hangingPort}`);
    const started = Date.now();
    await expectRefused(guardWrite(p, at(51_000), { ...DEFAULTS, timeoutMs: 300 }, { client }));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_500);
    client.destroy();
    // The same key against the real store still has its whole budget.
    expect(await writes(p, at(51_000), 41)).toEqual({ ok: 40, RATE_LIMITED: 1 });
  });

  it('aborts the SDK call on time-out rather than abandoning it: its connection is closed', async () => {
    const client = clientAt(`http://127.0.0.1:${hangingPort}`);
    const before = accepted;
    const call = guardWrite(apiKey(), at(52_000), { ...DEFAULTS, timeoutMs: 1_500 }, { client });
    await vi.waitFor(() => expect(accepted).toBe(before + 1), { timeout: 1_400 });
    const socket = [...held].at(-1)!; // the guard's connection (the newest one)
    await expectRefused(call);
    await vi.waitFor(() => expect(held.has(socket)).toBe(false), { timeout: 2_000 });
    client.destroy();
  });
});
