import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SCOPES } from '../../shared/platform/contract/scopes';

export interface LoadResult {
  requests: number;
  concurrency: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Runs `op` `requests` times with `concurrency` workers; bounded in count, so it always ends. */
export async function load(requests: number, concurrency: number, op: (i: number) => Promise<boolean>): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const i = next++;
        const t = performance.now();
        const ok = await op(i).catch(() => false);
        latencies.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    requests,
    concurrency,
    perSecond: round(requests / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    errors,
  };
}

/**
 * Requests each path gets, untimed, before any is measured (`BENCH_WARMUP`, default 500). Both the
 * runtime (V8) and DynamoDB Local (the JVM) compile their hot code during the first few hundred
 * requests; measured cold, whichever path runs first pays for it (the read API ran at 0.66 of the
 * raw calls cold, 0.92 on a second round in the same process).
 */
export const warmupRequests = (requests: number): number => Math.min(requests, Number(process.env.BENCH_WARMUP ?? 1000));

/**
 * A POST of JSON to the platform, answering the parsed body. A 429 is sent again after its
 * `Retry-After`, as a well-behaved client does: a benchmark's own budget (a write budget of 1 a
 * second) must not refuse the workspace it sets up.
 */
export const postJson =
  (baseUrl: string) =>
  async (path: string, body: unknown, token?: string): Promise<any> => {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      if (res.status !== 429 || attempt === 10) return res.json();
      await res.arrayBuffer();
      await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
    }
  };

const MEMBER_BATCH = 25;

/**
 * A new workspace with an all-scopes key and `memberCount` members, 25 to a batch request: on
 * DynamoDB Local a batch of hundreds, beside another workspace's, could outlast the request deadline
 * (and one of 100 did on a machine loaded by other work).
 */
export async function benchWorkspace(baseUrl: string, name: string, memberCount: number) {
  const json = postJson(baseUrl);
  const reg = await json('/api/v2/auth/register', {
    workspaceName: name,
    email: `bench-${Date.now()}-${Math.random()}@example.test`,
    password: 'bench password 1',
  });
  const session = reg.data.session.token as string;
  const key = (await json('/api/v2/api-keys', { name: 'bench', scopes: [...SCOPES] }, session)).data.key as string;
  const members: string[] = [];
  for (let from = 0; from < memberCount; from += MEMBER_BATCH) {
    const count = Math.min(MEMBER_BATCH, memberCount - from);
    const batch = await json('/api/v2/members/batch', { members: Array.from({ length: count }, (_, i) => ({ externalId: `bench-${from + i}` })) }, key);
    if (!batch.data?.results) throw new Error(`bench members not created: ${JSON.stringify(batch).slice(0, 500)}`);
    members.push(...(batch.data.results as { memberId: string }[]).map((r) => r.memberId));
  }
  return { session, key, members };
}
