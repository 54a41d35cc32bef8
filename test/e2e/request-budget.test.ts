import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keyOf } from '../../shared/platform/data/keys';
import { documentClientFor, startPlatform, type RunningPlatform } from '../support/platform';
import { assertDocumentedResponse } from '../support/openapi';

/**
 * Request budgets per workspace (docs/security.md, "Request budgets per workspace"), on a runtime of
 * this file's own: first on the real defaults (the test runtimes' roomy budgets removed), then,
 * restarted on the same data, with `WORKSPACE_RATE_LIMITS` giving two workspaces budgets of their own.
 */
const REAL_DEFAULTS = {
  WORKSPACE_READ_PER_SECOND: undefined,
  WORKSPACE_WRITE_PER_SECOND: undefined,
  SANDBOX_READ_PER_SECOND: undefined,
  SANDBOX_WRITE_PER_SECOND: undefined,
};

let p: RunningPlatform;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function api(method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(p.baseUrl + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (!path.startsWith('/api/mcp')) assertDocumentedResponse({ method, path, status: res.status, body: parsed, contentType: res.headers.get('content-type') });
  return { status: res.status, headers: res.headers, body: parsed };
}

async function workspace(label: string, sandbox = false) {
  const reg = await api('POST', '/api/v2/auth/register', undefined, {
    workspaceName: label,
    email: `budget-${label}-${randomUUID().slice(0, 8)}@example.test`,
    password: 'long enough password',
    sandbox,
  });
  expect(reg.status).toBe(201);
  const session = reg.body.data.session.token as string;
  const key = (await api('POST', '/api/v2/api-keys', session, { name: 'flood', preset: 'write' })).body.data.key as string;
  return { id: reg.body.data.workspace.id as string, session, key };
}

function statusesOf(answers: Answer[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

/** A 429 of the budget: its code, `Retry-After` and the three `RateLimit-*` fields. */
function expectRefusal(a: Answer, limit: number) {
  expect(a.status).toBe(429);
  expect(a.body.error.code).toBe('RATE_LIMITED');
  expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(a.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(a.headers.get('ratelimit-remaining')).toBe('0');
  expect(a.headers.get('ratelimit-reset')).toBe(a.headers.get('retry-after'));
}

/**
 * Runs `burst` inside one 1-second window (starting just after a second begins), again if it ran
 * over into the next one: what a window admits is then exact. At most five tries.
 */
async function inOneWindow<T>(burst: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await sleep(1000 - (Date.now() % 1000) + 20);
    const started = Date.now();
    const result = await burst();
    if (Math.floor(Date.now() / 1000) === Math.floor(started / 1000)) return result;
  }
  throw new Error('no burst fitted into one second in five tries');
}

beforeAll(async () => {
  p = await startPlatform({ stores: inject('stores'), env: REAL_DEFAULTS });
});

afterAll(async () => {
  await p?.stop();
});

describe('request budgets per workspace', () => {
  let tight: Awaited<ReturnType<typeof workspace>>;
  let roomy: Awaited<ReturnType<typeof workspace>>;

  it('on the real defaults a live workspace reads and writes 100 a second and a sandbox 25; a full window is answered 429 with Retry-After and RateLimit-*, while another workspace is served', async () => {
    const sandbox = await workspace('flooder', true);
    const live = await workspace('neighbour');
    const read = (key: string) => api('GET', '/api/v2/members?limit=1', key);
    const limitOf = (a: Answer) => a.headers.get('ratelimit-limit');
    expect(limitOf(await read(live.key))).toBe('100');
    expect(limitOf(await api('POST', '/api/v2/members', live.key, { email: `m-${randomUUID()}@example.test` }))).toBe('100');
    expect(limitOf(await read(sandbox.key))).toBe('25');
    expect(limitOf(await api('POST', '/api/v2/members', sandbox.key, { email: `m-${randomUUID()}@example.test` }))).toBe('25');
    // The sandbox's read counters of the next seconds full, as other instances would leave them: a
    // flood that outran this machine's pace, without having to outrun it.
    const runtime = await p.runtime();
    const now = Math.floor(Date.now() / 1000);
    for (const start of [now, now + 1, now + 2, now + 3]) {
      await documentClientFor(runtime).send(
        new PutCommand({
          TableName: runtime.tableName,
          Item: { ...keyOf('rateWindow', { workspaceId: sandbox.id, keyId: 'workspace:read', window: `1s:${start}` }), requests: 25, expiresAt: start + 60 },
        }),
      );
    }
    const [refused, neighbour] = await Promise.all([Promise.all([read(sandbox.key), read(sandbox.key)]), read(live.key)]);
    for (const a of refused) expectRefusal(a, 25);
    expect(neighbour.status).toBe(200);
    expect(limitOf(neighbour)).toBe('100');
    expect(Number(neighbour.headers.get('ratelimit-remaining'))).toBeLessThan(100);
    expect(neighbour.headers.get('ratelimit-reset')).toBe('1');
    // Writes draw on their own budget: the sandbox still writes.
    expect((await api('POST', '/api/v2/members', sandbox.key, { email: `m-${randomUUID()}@example.test` })).status).toBe(201);
  });

  describe('with budgets of their own (WORKSPACE_RATE_LIMITS)', () => {
    beforeAll(async () => {
      tight = await workspace('tight', true);
      roomy = await workspace('roomy');
      await p.stop();
      const own = { [tight.id]: { read: 3, write: 3 }, [roomy.id]: { read: 500 } };
      p = await startPlatform({ stores: inject('stores'), dataDir: p.dataDir, env: { ...REAL_DEFAULTS, WORKSPACE_RATE_LIMITS: JSON.stringify(own) } });
    });

    it("a workspace's own budget replaces its mode's, per budget", async () => {
      const roomyRead = await api('GET', '/api/v2/members?limit=1', roomy.key);
      expect(roomyRead.headers.get('ratelimit-limit')).toBe('500');
      // Only the read budget is its own: writes keep the live default.
      const roomyWrite = await api('POST', '/api/v2/members', roomy.key, { email: `m-${randomUUID()}@example.test` });
      expect(roomyWrite.status).toBe(201);
      expect(roomyWrite.headers.get('ratelimit-limit')).toBe('100');
      expect((await api('GET', '/api/v2/members?limit=1', tight.key)).headers.get('ratelimit-limit')).toBe('3');
    });

    it('a flood is answered 429 with the headers, never 5xx, while another workspace is served', async () => {
      const read = (key: string) => api('GET', '/api/v2/members?limit=1', key);
      const started = Date.now();
      const [flood, neighbour] = await Promise.all([
        Promise.all(Array.from({ length: 12 }, () => read(tight.key))),
        Promise.all(Array.from({ length: 6 }, () => read(roomy.key))),
      ]);
      const windows = Math.floor(Date.now() / 1000) - Math.floor(started / 1000) + 1;
      const statuses = statusesOf(flood);
      expect(
        Object.keys(statuses).every((code) => code === '200' || code === '429'),
        JSON.stringify(statuses),
      ).toBe(true);
      expect(statuses[200] ?? 0).toBeLessThanOrEqual(3 * windows);
      expect(statuses[429] ?? 0).toBeGreaterThan(0);
      for (const a of flood.filter((x) => x.status === 429)) expectRefusal(a, 3);
      expect(statusesOf(neighbour)).toEqual({ 200: 6 });
    });

    it('reads and writes draw on separate budgets, and a user session draws on the same workspace budget as its keys', async () => {
      const { reads, session, write } = await inOneWindow(async () => {
        const reads = await Promise.all(Array.from({ length: 6 }, () => api('GET', '/api/v2/members?limit=1', tight.key)));
        const session = await api('GET', '/api/flash/program', tight.session);
        const write = await api('POST', '/api/v2/members', tight.key, { email: `m-${randomUUID()}@example.test` });
        return { reads, session, write };
      });
      expect(statusesOf(reads)).toEqual({ 200: 3, 429: 3 });
      for (const a of reads.filter((x) => x.status === 429)) expectRefusal(a, 3);
      expectRefusal(session, 3);
      expect(write.status).toBe(201);
      expect(write.headers.get('ratelimit-limit')).toBe('3');
      expect(write.headers.get('ratelimit-remaining')).toBe('2');
    });

    it('a credential this process authenticated lately is refused before it is read again once its workspace used up the window: a revoked one too, until the window ends', async () => {
      await sleep(1000 - (Date.now() % 1000) + 20);
      const doomed = (await api('POST', '/api/v2/api-keys', tight.session, { name: 'doomed', preset: 'write' })).body.data;
      expect((await api('GET', '/api/v2/members?limit=1', doomed.key)).status).toBe(200);
      expect((await api('DELETE', `/api/v2/api-keys/${doomed.id}`, tight.session)).status).toBe(204);
      const refused = await inOneWindow(async () => {
        const fill = await Promise.all(Array.from({ length: 3 }, () => api('GET', '/api/v2/members?limit=1', tight.key)));
        expect(statusesOf(fill)).toEqual({ 200: 3 });
        return api('GET', '/api/v2/members?limit=1', doomed.key);
      });
      // Refused without reading the credential (which would have found it revoked: 401).
      expectRefusal(refused, 3);
      await sleep(1000 - (Date.now() % 1000) + 20);
      expect((await api('GET', '/api/v2/members?limit=1', doomed.key)).status).toBe(401);
    });

    it("a burst of a credential known here, at a window's start, reaches authentication only as far as the budget reaches: the rest is refused before it is read", async () => {
      const doomed = (await api('POST', '/api/v2/api-keys', tight.session, { name: 'doomed burst', preset: 'write' })).body.data;
      // In parallel, so the burst below finds as many open connections and arrives at once.
      const warm = statusesOf(await inOneWindow(() => Promise.all(Array.from({ length: 12 }, () => api('GET', '/api/v2/members?limit=1', doomed.key)))));
      expect(warm).toEqual({ 200: 3, 429: 9 });
      expect((await api('DELETE', `/api/v2/api-keys/${doomed.id}`, tight.session)).status).toBe(204);
      // A fresh window, nothing taken in it: each request that reaches authentication reads the
      // revoked key (401) and takes no slot, so a 429 says it was refused before it was read.
      const burst = await inOneWindow(() => Promise.all(Array.from({ length: 12 }, () => api('GET', '/api/v2/members?limit=1', doomed.key))));
      const statuses = statusesOf(burst);
      expect(Object.keys(statuses).sort(), JSON.stringify(statuses)).toEqual(['401', '429']);
      expect(statuses[401]).toBeLessThanOrEqual(6);
      for (const a of burst.filter((x) => x.status === 429)) expectRefusal(a, 3);
    });

    it('a known credential held before authentication gives its place back: one request after another, the whole budget is admitted and a revoked key is told 401 each time', async () => {
      const doomed = (await api('POST', '/api/v2/api-keys', tight.session, { name: 'doomed one by one', preset: 'write' })).body.data;
      expect((await api('GET', '/api/v2/members?limit=1', doomed.key)).status).toBe(200);
      const admitted = await inOneWindow(async () => {
        const answers: Answer[] = [];
        for (let i = 0; i < 4; i++) answers.push(await api('GET', '/api/v2/members?limit=1', tight.key));
        return answers;
      });
      expect(admitted.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect((await api('DELETE', `/api/v2/api-keys/${doomed.id}`, tight.session)).status).toBe(204);
      const revoked = await inOneWindow(async () => {
        const answers: Answer[] = [];
        for (let i = 0; i < 4; i++) answers.push(await api('GET', '/api/v2/members?limit=1', doomed.key));
        return answers;
      });
      expect(revoked.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    });

    it('MCP requests draw on the workspace budget too (a JSON-RPC POST counts as a write)', async () => {
      const rpc = (id: number) =>
        api('POST', '/api/mcp', tight.key, { jsonrpc: '2.0', id, method: 'tools/list' }, { accept: 'application/json, text/event-stream' });
      const answers = await inOneWindow(() => Promise.all(Array.from({ length: 6 }, (_, i) => rpc(i + 1))));
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(3);
      for (const a of refused) expectRefusal(a, 3);
      expect(answers.every((a) => a.status < 500)).toBe(true);
    });
  });
});
