import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { keyOf } from '../../../../../shared/platform/data/keys';
import { admitRequest, beforeAuthentication, noteCredential } from '../../../../../shared/http/limits/workspace-rate';
import { newId } from '../../../../../shared/platform/ids';
import { logger } from '../../../../../shared/platform/observability/logger';
import { runtimeOf } from '../../../../support/platform';
import { platformTable } from '../../../../support/table';

/**
 * A workspace's request budget against the running platform's DynamoDB Local: the counter, the
 * in-process pre-check and failing open. Time is injected (`now`), so windows are chosen, not
 * waited for; every test uses a fresh workspace id (no workspace item: a live workspace).
 */

/** A second in the future, so no counter's TTL (window end + 60 s) has passed. */
const T0 = Math.ceil(Date.now() / 1000) * 1000 + 120_000;
const at = (ms: number) => new Date(T0 + ms);

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
  // Small budgets to reach (this project's environment keeps them out of reach otherwise).
  vi.stubEnv('WORKSPACE_READ_PER_SECOND', '3');
  vi.stubEnv('WORKSPACE_WRITE_PER_SECOND', '2');
  vi.stubEnv('WORKSPACE_RATE_TIMEOUT_MS', '5000');
});

afterAll(() => {
  vi.unstubAllEnvs();
});

const counterOf = async (workspaceId: string, budget: string, ms: number) => {
  const { doc, tableName } = await platformTable();
  const key = keyOf('rateWindow', { workspaceId, keyId: `workspace:${budget}`, window: `1s:${(T0 + ms - ((T0 + ms) % 1000)) / 1000}` });
  return (await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
};

describe('request budget: the counter', () => {
  it('admits the budget in a window with what is left of it, refuses the next one; reads and writes apart; the next window starts afresh', async () => {
    const ws = newId('ws');
    const reads = [];
    for (let i = 0; i < 4; i++) reads.push(await admitRequest(ws, 'GET', at(100 + i)));
    expect(reads.map((s) => [s.admitted, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(reads[3]).toMatchObject({ limit: 3, resetSeconds: 1 });
    // Counted in the table: the refusal was decided here, without moving the counter past the limit.
    expect(await counterOf(ws, 'read', 100)).toMatchObject({ requests: 3, entity: 'rateWindow', workspaceId: ws, expiresAt: T0 / 1000 + 61 });
    expect(await admitRequest(ws, 'POST', at(200))).toMatchObject({ admitted: true, limit: 2, remaining: 1 });
    expect(await admitRequest(ws, 'GET', at(1_000))).toMatchObject({ admitted: true, remaining: 2 });
  });

  it('a window other instances filled is refused here too, and every parallel request of one window counts once', async () => {
    const ws = newId('ws');
    const { doc, tableName } = await platformTable();
    await doc.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keyOf('rateWindow', { workspaceId: ws, keyId: 'workspace:read', window: `1s:${T0 / 1000 + 5}` }), requests: 3 },
      }),
    );
    expect(await admitRequest(ws, 'GET', at(5_000))).toMatchObject({ admitted: false, limit: 3, remaining: 0 });
    const parallel = await Promise.all(Array.from({ length: 10 }, () => admitRequest(ws, 'HEAD', at(6_000))));
    expect(parallel.filter((s) => s.admitted)).toHaveLength(3);
    expect((await counterOf(ws, 'read', 6_000))?.requests).toBe(3);
  });
});

describe('request budget: refused before authentication', () => {
  const refused = (digest: string, method: string, now: Date) => {
    const check = beforeAuthentication(digest, method, now);
    if (check && 'release' in check) check.release();
    return check && 'refused' in check ? check.refused : check;
  };

  it('a credential authenticated here whose workspace used up the window is refused without a store call, for that budget and window only', async () => {
    const ws = newId('ws');
    const digest = `digest-${ws}`;
    // Unknown to this process: authenticate as usual, whatever its workspace's window holds.
    expect(beforeAuthentication(digest, 'POST', at(3_100))).toBeUndefined();
    noteCredential(digest, ws);
    expect(refused(digest, 'POST', at(3_100))).toEqual({ release: expect.any(Function) });
    for (let i = 0; i < 2; i++) expect((await admitRequest(ws, 'POST', at(3_100 + i))).admitted).toBe(true);
    expect(refused(digest, 'POST', at(3_200))).toEqual({ admitted: false, limit: 2, remaining: 0, resetSeconds: 1 });
    // The counter saw only the two admitted requests.
    expect(await counterOf(ws, 'write', 3_100)).toMatchObject({ requests: 2 });
    expect(refused(digest, 'GET', at(3_200))).toEqual({ release: expect.any(Function) });
    expect(refused(digest, 'POST', at(4_000))).toEqual({ release: expect.any(Function) });
    expect(beforeAuthentication('another-digest', 'POST', at(3_200))).toBeUndefined();
  });

  it("at a window's start, a burst of a known credential is let through to authentication only as far as the budget reaches", async () => {
    const ws = newId('ws');
    const digest = `digest-${ws}`;
    noteCredential(digest, ws);
    // One window used up its budget of 2, so the process knows the limit.
    for (let i = 0; i < 3; i++) await admitRequest(ws, 'POST', at(7_100 + i));
    // The next window: 10 requests arrive together, before any of them was authenticated.
    const burst = Array.from({ length: 10 }, () => beforeAuthentication(digest, 'POST', at(8_000)));
    const through = burst.filter((c) => c && 'release' in c);
    expect(through).toHaveLength(2);
    expect(burst.filter((c) => c && 'refused' in c)).toHaveLength(8);
    // The two ask for their slots (released first) and are admitted; nothing else reached the counter.
    for (const c of through) if (c && 'release' in c) c.release();
    for (let i = 0; i < 2; i++) expect((await admitRequest(ws, 'POST', at(8_100 + i))).admitted).toBe(true);
    expect(await counterOf(ws, 'write', 8_000)).toMatchObject({ requests: 2 });
    expect(refused(digest, 'POST', at(8_200))).toMatchObject({ admitted: false, limit: 2 });
    // A held request that ends without asking (its authentication failed) gives its place back, once.
    const held = beforeAuthentication(digest, 'POST', at(9_000));
    const other = beforeAuthentication(digest, 'POST', at(9_000));
    expect([held, other].every((c) => c && 'release' in c)).toBe(true);
    expect(refused(digest, 'POST', at(9_000))).toMatchObject({ admitted: false });
    if (held && 'release' in held) {
      held.release();
      held.release();
    }
    const third = beforeAuthentication(digest, 'POST', at(9_000));
    expect(third && 'release' in third).toBe(true);
    expect(refused(digest, 'POST', at(9_000))).toMatchObject({ admitted: false });
  });
});

describe('request budget: fails open, bounded by the process', () => {
  let hanging: Server;
  let port: number;
  const held = new Set<Socket>();

  beforeAll(async () => {
    // Accepts connections, reads and drops what arrives, never answers.
    hanging = createServer((socket) => {
      held.add(socket);
      socket.resume();
      socket.on('close', () => held.delete(socket));
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    port = (hanging.address() as { port: number }).port;
  });

  afterAll(async () => {
    for (const s of held) s.destroy();
    await new Promise<void>((r) => hanging.close(() => r()));
  });

  it('a counter that does not answer in time admits on this process count, logs it, and still stops at the budget', async () => {
    vi.stubEnv('WORKSPACE_RATE_TIMEOUT_MS', '200');
    const warn = vi.spyOn(logger, 'warn');
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
    try {
      const ws = newId('ws');
      const started = Date.now();
      const first = await admitRequest(ws, 'POST', at(9_000), { client });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(first).toMatchObject({ admitted: true, limit: 2, remaining: 1 });
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/could not be counted/),
        expect.objectContaining({ event: 'workspace.rate_limit_unavailable', workspaceId: ws, budget: 'write', timeoutMs: 200 }),
      );
      expect(await admitRequest(ws, 'POST', at(9_100), { client })).toMatchObject({ admitted: true, remaining: 0 });
      expect(await admitRequest(ws, 'POST', at(9_200), { client })).toMatchObject({ admitted: false, remaining: 0 });
    } finally {
      warn.mockRestore();
      client.destroy();
      vi.stubEnv('WORKSPACE_RATE_TIMEOUT_MS', '5000');
    }
  });
});
