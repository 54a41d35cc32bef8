import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCOPES } from '../../shared/domain/api-keys/scopes';
import { startPlatform, type RunningPlatform } from '../support/platform';

/** These tests start platforms of their own, with the guard's numbers set through the environment. */
async function setUp(p: RunningPlatform) {
  const api = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(p.baseUrl + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const reg = await api('POST', '/api/v2/auth/register', undefined, { workspaceName: 'G', email: `g-${Date.now()}-${Math.random()}@example.test`, password: 'long enough password' });
  const session = reg.body.data.session.token as string;
  const key = async () => (await api('POST', '/api/v2/api-keys', session, { name: 'k', scopes: [...SCOPES] })).body.data.key as string;
  const put = await api('PUT', '/api/flash/objects/types/note', session, { label: 'Note', status: 'published', apiVisible: true, fields: [{ key: 'title', type: 'text', required: true }] });
  expect(put.status).toBe(200);
  return { api, key };
}

/** A small guard, and one with a 1 ms time budget (its store cannot answer in time): started side by side. */
let small: RunningPlatform;
let hurried: RunningPlatform;

beforeAll(async () => {
  [small, hurried] = await Promise.all([
    startPlatform({ stores: inject('stores'), env: { OBJECTS_RATE_BURST: '5', OBJECTS_RATE_PER_SECOND: '1', OBJECTS_RATE_GUARD_TIMEOUT_MS: '10000' } }),
    startPlatform({ stores: inject('stores'), env: { OBJECTS_RATE_GUARD_TIMEOUT_MS: '1' } }),
  ]);
});

afterAll(async () => {
  await Promise.all([small?.stop(), hurried?.stop()]);
});

describe('write-rate guard on record writes', () => {
  it('over the limit: 429 RATE_LIMITED with Retry-After; reads pass; another key has its own budget', async () => {
    const p = small;
    const { api, key } = await setUp(p);
    const k1 = await key();
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
});
