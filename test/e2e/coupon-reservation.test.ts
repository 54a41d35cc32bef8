import { connect, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { TRANSACT } from '../support/lossy-proxy';
import { startPlatform, storesOfOwn, type RunningPlatform } from '../support/platform';

/**
 * A TCP proxy in front of a DynamoDB Local that counts the TransactWriteItems calls in
 * flight (request sent, answer not yet back; one request at a time per connection).
 */
async function inFlightCounter(upstream: URL) {
  const sockets = new Set<Socket>();
  const state = { now: 0, max: 0, seen: 0 };
  const server = createServer((client) => {
    const up = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(up);
    let open = false;
    client.on('data', (chunk: Buffer) => {
      if (!open && chunk.toString('latin1').includes(TRANSACT)) {
        open = true;
        state.seen++;
        state.max = Math.max(state.max, ++state.now);
      }
      up.write(chunk);
    });
    up.on('data', (chunk: Buffer) => {
      if (open) (open = false), state.now--;
      client.write(chunk);
    });
    const end = () => {
      if (open) (open = false), state.now--;
      client.destroy();
      up.destroy();
    };
    for (const s of [client, up]) s.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    state,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let proxy: Awaited<ReturnType<typeof inFlightCounter>>;
let p: RunningPlatform;
let own: Awaited<ReturnType<typeof storesOfOwn>>;

// A DynamoDB Local of this file: what it measures is DynamoDB Local's own queue of transactions,
// which the other files' load on the run's shared one would fill.
beforeAll(async () => {
  own = await storesOfOwn(inject('stores'));
  proxy = await inFlightCounter(new URL(own.stores.dynamodbEndpoint));
  p = await startPlatform({ stores: { ...own.stores, dynamodbEndpoint: proxy.endpoint } });
});

afterAll(async () => {
  await p?.stop();
  await proxy?.close();
  await own?.stop();
});

/**
 * DynamoDB Local commits one transaction at a time: a list pool's code reservations sent 16 at a
 * time only queued there, each waiting for the others, so under load single calls ran past their
 * time-out and a large upload failed (503). The local runtime keeps two in flight.
 */
describe('list pool code reservation on the local runtime', () => {
  it('keeps at most two reservation transactions in flight at DynamoDB Local', async () => {
    const api = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(p.baseUrl + path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const reg = await api('POST', '/api/v2/auth/register', undefined, {
      workspaceName: 'Codes',
      email: `codes-${Date.now()}@example.test`,
      password: 'long enough password',
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    const key = (await api('POST', '/api/v2/api-keys', reg.body.data.session.token, { name: 'all', scopes: [...SCOPES] })).body.data.key as string;
    const before = { ...proxy.state };
    proxy.state.max = proxy.state.now;
    // 4 list chunks of 99 codes: room for 4 transactions at once if nothing held them back.
    const codes = Array.from({ length: 4 * 99 }, (_, i) => `RES-${i}`);
    const res = await api('POST', '/api/v2/coupons/pools', key, {
      name: 'Upload',
      discount: { type: 'percent', value: 5 },
      codeConfig: { mode: 'list', codes },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ stock: codes.length, remaining: codes.length });
    expect(proxy.state.seen - before.seen).toBeGreaterThanOrEqual(4);
    expect(proxy.state.max).toBeLessThanOrEqual(2);
  });
});
