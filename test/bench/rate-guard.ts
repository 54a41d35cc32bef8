import { performance } from 'node:perf_hooks';
import { startPlatform } from '../support/platform';
import { atWindowStart, BURST_GUARD, BURST_LIMIT, parallelRecordWrites, recordWriteSetup } from '../support/record-writes';

/**
 * The write-rate guard under a parallel burst of record writes from one API key, over HTTP against
 * a local runtime of its own (the guard's numbers are set through its environment: 100 a second and
 * 100 per 10 s; its time budget is the local runtime's default). A burst within the limits must
 * pass whole; a larger one must pass exactly the limit, refuse the rest with 429 and a Retry-After,
 * and answer no 503 (the guard refuses only when its store fails).
 */
export async function rateGuard(opts: { within: number; over: number }) {
  const platform = await startPlatform({ env: { ...BURST_GUARD, POWERTOOLS_LOG_LEVEL: 'ERROR' } });
  try {
    const { api, key } = await recordWriteSetup(platform.baseUrl);
    const burst = async (writes: number) => {
      const k = await key();
      // The whole burst inside one 10-second window, the guard's longest.
      await atWindowStart(10);
      const t = performance.now();
      const outcome = await parallelRecordWrites(api, k, writes);
      return { ...outcome, ms: Math.round(performance.now() - t) };
    };
    const within = await burst(opts.within);
    const over = await burst(opts.over);
    return {
      name: `write-rate guard: ${opts.within} and ${opts.over} parallel record writes of one key (limit ${BURST_LIMIT} per second and per 10 s)`,
      within,
      over,
      limit: BURST_LIMIT,
      target: `within: accepted = ${opts.within}, refused = unavailable = 0; over: accepted = ${BURST_LIMIT}, refused = ${opts.over - BURST_LIMIT} (all with Retry-After), unavailable = 0`,
      met:
        within.accepted === opts.within &&
        within.refused + within.unavailable + within.other === 0 &&
        over.accepted === Math.min(BURST_LIMIT, opts.over) &&
        over.unavailable + over.other + over.refusedWithoutRetryAfter === 0,
    };
  } finally {
    await platform.stop();
  }
}
