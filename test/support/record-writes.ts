import { setTimeout as sleep } from 'node:timers/promises';
import { SCOPES } from '../../shared/platform/contract/scopes';

/**
 * Custom-object record writes against a running platform, for the write-rate guard's tests and
 * benchmark: a workspace with a published `note` type, API keys on demand, and parallel writes.
 */

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export type Api = (method: string, path: string, token?: string, body?: unknown) => Promise<Answer>;

export const apiOf =
  (baseUrl: string): Api =>
  async (method, path, token, body) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };

/** A new workspace with a published `note` type; `key()` mints an API key with every scope. */
export async function recordWriteSetup(baseUrl: string) {
  const api = apiOf(baseUrl);
  const reg = await api('POST', '/api/v2/auth/register', undefined, {
    workspaceName: 'G',
    email: `g-${Date.now()}-${Math.random()}@example.test`,
    password: 'long enough password',
  });
  const session = reg.body.data.session.token as string;
  const key = async () => (await api('POST', '/api/v2/api-keys', session, { name: 'k', scopes: [...SCOPES] })).body.data.key as string;
  const put = await api('PUT', '/api/flash/objects/types/note', session, {
    label: 'Note',
    status: 'published',
    apiVisible: true,
    fields: [{ key: 'title', type: 'text', required: true }],
  });
  if (put.status !== 200) throw new Error(`object type not created: ${put.status} ${JSON.stringify(put.body)}`);
  return { api, key };
}

/** What `count` parallel record writes of one key got: answers per status, and 429s without a Retry-After. */
export interface BurstOutcome {
  writes: number;
  accepted: number;
  refused: number;
  unavailable: number;
  /** Of the 503s, those the guard answered (it could not decide); the rest came from the record's own write. */
  guardUnavailable: number;
  other: number;
  refusedWithoutRetryAfter: number;
}

export async function parallelRecordWrites(api: Api, key: string, count: number): Promise<BurstOutcome> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => api('POST', '/api/v2/objects/note/records', key, { data: { title: `n${i}` } })));
  const refused = answers.filter((a) => a.status === 429);
  return {
    writes: count,
    accepted: answers.filter((a) => a.status === 201).length,
    refused: refused.length,
    unavailable: answers.filter((a) => a.status === 503).length,
    guardUnavailable: answers.filter((a) => a.status === 503 && /write-rate guard/.test(a.body?.error?.message ?? '')).length,
    other: answers.filter((a) => ![201, 429, 503].includes(a.status)).length,
    refusedWithoutRetryAfter: refused.filter((a) => !(Number(a.headers.get('retry-after')) >= 1) || a.body?.error?.code !== 'RATE_LIMITED').length,
  };
}

/**
 * Waits for the start of the next fixed window of `seconds` (plus `afterMs`), so a burst sent then
 * falls into one window of the guard's longest period.
 */
export async function atWindowStart(seconds: number, afterMs = 100): Promise<void> {
  const period = seconds * 1000;
  await sleep(period - (Date.now() % period) + afterMs);
}

/**
 * Guard numbers for a burst test: at most 100 writes a second and 100 per 10 s. 60 parallel writes
 * are within both; of 260 exactly 100 pass if they fall into one 10-second window.
 */
export const BURST_GUARD = { OBJECTS_RATE_BURST: '100', OBJECTS_RATE_PER_SECOND: '10' } as const;
export const BURST_LIMIT = 100;

/**
 * `count` parallel writes of a fresh key that all fall into one fixed window of `seconds`: a round
 * whose answers came back after its window ended (a machine too busy to send them in time) says
 * nothing about a window's limit, so it is sent again in the next window with another key, at most
 * three times. Also returns the writes accepted in the rounds set aside (they exist).
 */
export async function burstInOneWindow(api: Api, key: () => Promise<string>, count: number, seconds: number) {
  let acceptedBefore = 0;
  for (let round = 1; ; round++) {
    const k = await key();
    await atWindowStart(seconds);
    const windowEnds = Math.ceil(Date.now() / (seconds * 1000)) * seconds * 1000;
    const outcome = await parallelRecordWrites(api, k, count);
    if (Date.now() < windowEnds || round === 3) return { outcome, acceptedBefore };
    acceptedBefore += outcome.accepted;
  }
}
