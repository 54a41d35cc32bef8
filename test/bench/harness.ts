import { performance } from 'node:perf_hooks';

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
