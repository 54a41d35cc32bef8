/**
 * `npm run bench`: the cold-start benchmark (function bundles, no runtime needed), then one local
 * runtime (as `npm start` does, on a free port and a temp dir) for the other benchmarks; each
 * benchmark runs side by side with its baseline in the same run. Prints JSON.
 * `npm run bench -- cold-start` (or any of the names below) runs only the named benchmarks.
 */
import { inProcess } from '../support/in-process';
import { startPlatform, startStores } from '../support/platform';
import { authenticatedRead } from './authenticated-read';
import { campaignIntake } from './campaign-intake';
import { cliHelp } from './cli-help';
import { coldStart } from './cold-start';
import { consoleFirstScreen } from './console';
import { expiryRun } from './expiry-run';
import { hotMember } from './hot-member';
import { noisyNeighbour } from './noisy-neighbour';
import { orderIntake } from './order-intake';
import { rateGuard } from './rate-guard';
import { objectList } from './object-list';
import { operationalExport } from './operational-export';
import { pointsReportBench } from './points-report';
import { configureFor, storeCalls } from './store-calls';
import { webhookDelivery } from './webhook-delivery';

// The in-process benchmarks (store calls, hot member) run the domain here: their metric lines would
// interleave with the JSON on stdout. The runtime started below emits its metrics as in production.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const PLATFORM_BENCHES = [
  'authenticated-read',
  'order-intake',
  'campaign-intake',
  'webhook-delivery',
  'object-list',
  'hot-member',
  'store-calls',
  'expiry-run',
  'operational-export',
  'points-report',
  'console',
] as const;
// Benchmarks that start a runtime of their own (other settings than the shared one).
const OWN_PLATFORM_BENCHES = ['rate-guard', 'noisy-neighbour'] as const;
const ALL = ['cold-start', 'cli-help', ...PLATFORM_BENCHES, ...OWN_PLATFORM_BENCHES];
const only = process.argv.slice(2);
const unknown = only.filter((n) => !ALL.includes(n));
if (unknown.length) throw new Error(`Unknown benchmark ${unknown.join(', ')}; choose from ${ALL.join(', ')}`);
const selected = (name: string) => only.length === 0 || only.includes(name);

const results: unknown[] = [];
if (selected('cold-start')) results.push(await coldStart({ runs: Number(process.env.BENCH_COLD_RUNS ?? 7) }));
if (selected('cli-help')) results.push(cliHelp({ runs: Number(process.env.BENCH_CLI_RUNS ?? 7) }));

let startupMs: number | undefined;
if (PLATFORM_BENCHES.some(selected)) {
  // `BENCH_STORE=memory`: a DynamoDB Local that keeps its data in memory, as the test run's does,
  // instead of files as `npm start` keeps them; for runs whose table outgrows what the file store serves in time.
  const memory = process.env.BENCH_STORE === 'memory' ? await startStores() : undefined;
  const platform = await startPlatform({
    env: { POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'false' },
    ...(memory ? { stores: memory.stores } : {}),
  });
  startupMs = platform.startupMs;
  try {
    if (selected('authenticated-read')) results.push(await authenticatedRead(platform, { requests, concurrency }));
    if (selected('order-intake'))
      results.push(
        await orderIntake(platform, { requests: Number(process.env.BENCH_ORDERS ?? 3000), concurrency: Number(process.env.BENCH_ORDER_CONCURRENCY ?? 32) }),
      );
    if (selected('campaign-intake'))
      results.push(
        await campaignIntake(platform, { requests: Number(process.env.BENCH_ORDERS ?? 3000), concurrency: Number(process.env.BENCH_ORDER_CONCURRENCY ?? 32) }),
      );
    if (selected('webhook-delivery')) results.push(await webhookDelivery(platform, { events: Number(process.env.BENCH_EVENTS ?? 500), endpoints: 4 }));
    if (selected('object-list'))
      results.push(await objectList(platform, { records: Number(process.env.BENCH_RECORDS ?? 20_000), samples: Number(process.env.BENCH_SAMPLES ?? 30) }));
    if (selected('store-calls')) results.push(await storeCalls(platform));
    if (selected('expiry-run')) results.push(await expiryRun(platform, { members: Number(process.env.BENCH_EXPIRY_MEMBERS ?? 20_000) }));
    if (selected('console')) results.push(await consoleFirstScreen(platform, { runs: Number(process.env.BENCH_CONSOLE_RUNS ?? 7) }));
    if (selected('operational-export')) results.push(await operationalExport(platform, { members: Number(process.env.BENCH_EXPORT_MEMBERS ?? 200_000) }));
    if (selected('points-report'))
      results.push(
        await pointsReportBench(platform, { members: Number(process.env.BENCH_REPORT_MEMBERS ?? 1_000_000), samples: Number(process.env.BENCH_SAMPLES ?? 30) }),
      );
    if (selected('hot-member')) {
      await configureFor(platform, { quiet: true });
      results.push(
        await hotMember(platform, { changes: Number(process.env.BENCH_HOT_CHANGES ?? 40), rounds: Number(process.env.BENCH_HOT_ROUNDS ?? 3), inProcess }),
      );
    }
  } finally {
    await platform.stop();
    await memory?.stop();
  }
}
if (selected('rate-guard'))
  results.push(await rateGuard({ within: Number(process.env.BENCH_GUARD_WITHIN ?? 60), over: Number(process.env.BENCH_GUARD_OVER ?? 260) }));
if (selected('noisy-neighbour'))
  results.push(
    await noisyNeighbour({
      victimRequests: Number(process.env.BENCH_VICTIM_REQUESTS ?? 400),
      victimConcurrency: Number(process.env.BENCH_VICTIM_CONCURRENCY ?? 4),
      floodConcurrency: Number(process.env.BENCH_FLOOD_CONCURRENCY ?? 64),
      writePerSecond: Number(process.env.BENCH_FLOOD_WRITE_PER_SECOND ?? 5),
    }),
  );
console.log(JSON.stringify({ startupMs, results }, null, 2));
