import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { startPlatform } from '../support/platform';
import { benchWorkspace, load } from './harness';

/**
 * One workspace floods, another reads: `floodConcurrency` parallel order writers in workspace A,
 * while workspace B reads its members `victimRequests` times (`victimConcurrency` at a time); the
 * victim's p99 quiet and under the flood, on two local runtimes of their own, one after the other:
 * with the request budgets' defaults out of reach (what a workspace could do before them) and with
 * a write budget low enough to bind on this machine (`writePerSecond`; reads stay out of reach, so
 * the victim is never refused itself). Target: with the budget, the victim's p99 under the flood
 * within 2x of its quiet p99, and the flood answered 429, never 5xx.
 */
export async function noisyNeighbour(opts: { victimRequests: number; victimConcurrency: number; floodConcurrency: number; writePerSecond: number }) {
  const unlimited = await measured({ ...opts, env: { WORKSPACE_WRITE_PER_SECOND: '100000' } });
  const limited = await measured({ ...opts, env: { WORKSPACE_WRITE_PER_SECOND: String(opts.writePerSecond) } });
  return {
    name: `noisy neighbour: ${opts.floodConcurrency} parallel order writers in one workspace, another workspace's reads beside them (${opts.victimConcurrency} at a time)`,
    unlimited,
    limited: { writePerSecond: opts.writePerSecond, ...limited },
    target: 'limited: victim p99 under the flood <= 2x its quiet p99; the flood gets 429s and no 5xx',
    met: limited.ratio <= 2 && limited.flood.refused > 0 && limited.flood.serverErrors === 0,
  };
}

async function measured(opts: { victimRequests: number; victimConcurrency: number; floodConcurrency: number; env: Record<string, string> }) {
  const platform = await startPlatform({ env: { ...opts.env, WORKSPACE_READ_PER_SECOND: '100000', POWERTOOLS_LOG_LEVEL: 'ERROR' } });
  try {
    const victim = await benchWorkspace(platform.baseUrl, 'Bench victim', 20);
    const flooder = await benchWorkspace(platform.baseUrl, 'Bench flooder', opts.floodConcurrency);
    const read = async (i: number) => {
      const res = await fetch(`${platform.baseUrl}/api/v2/members/${victim.members[i % victim.members.length]}`, {
        headers: { authorization: `Bearer ${victim.key}` },
      });
      await res.arrayBuffer();
      return res.status === 200;
    };
    // Warm both paths (V8 and the JVM compile their hot code first), then the quiet baseline.
    await load(Math.min(300, opts.victimRequests), opts.victimConcurrency, read);
    const quiet = await load(opts.victimRequests, opts.victimConcurrency, read);
    const flood = startFlood(platform.baseUrl, flooder, opts.floodConcurrency);
    const underFlood = await load(opts.victimRequests, opts.victimConcurrency, read);
    const statuses = await flood.stop();
    const count = (test: (status: number) => boolean) => Object.entries(statuses).reduce((n, [s, c]) => (test(Number(s)) ? n + c : n), 0);
    return {
      victimQuietP99Ms: quiet.p99Ms,
      victimFloodP99Ms: underFlood.p99Ms,
      ratio: Math.round((underFlood.p99Ms / quiet.p99Ms) * 100) / 100,
      victimErrors: quiet.errors + underFlood.errors,
      flood: { statuses, accepted: count((s) => s === 201), refused: count((s) => s === 429), serverErrors: count((s) => s >= 500) },
    };
  } finally {
    await platform.stop();
  }
}

/**
 * The flood's writers, in a thread of their own: `concurrency` writers sending orders one after
 * another until stopped; answers the count of each status. The flooding workspace is another
 * tenant's machine, so its client must not share the victim's event loop: in one loop, each of the
 * victim's answers would wait behind the flood's (about a thousand a second) before its time is
 * taken, and the victim's p99 would measure the benchmark's own client.
 */
export function startFlood(baseUrl: string, flooder: { key: string; members: string[] }, concurrency: number) {
  const worker = new Worker(FLOOD_WRITERS, {
    eval: true,
    workerData: { baseUrl, key: flooder.key, members: flooder.members, concurrency, run: randomUUID().slice(0, 8) },
  });
  const finished = new Promise<Record<number, number>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      worker.postMessage('stop');
      const statuses = await finished;
      await worker.terminate();
      return statuses;
    },
  };
}

/** The writers' loop (plain JavaScript: a worker thread does not get this process's TypeScript loader). */
const FLOOD_WRITERS = `
const { parentPort, workerData: { baseUrl, key, members, concurrency, run } } = require('node:worker_threads');
const statuses = {};
let stopped = false;
let next = 0;
async function writer() {
  while (!stopped) {
    const i = next++;
    const res = await fetch(baseUrl + '/api/v2/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key },
      body: JSON.stringify({ externalOrderId: 'F-' + run + '-' + i, memberId: members[i % members.length], currency: 'EUR', total: 10, occurredAt: new Date().toISOString() }),
    }).catch(() => undefined);
    await res?.arrayBuffer();
    const status = res?.status ?? 0;
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}
const writers = Array.from({ length: concurrency }, writer);
parentPort.once('message', async () => {
  stopped = true;
  await Promise.all(writers);
  parentPort.postMessage(statuses);
});
`;
