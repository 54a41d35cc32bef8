/**
 * `npm run bench`: starts one local runtime (as `npm start` does, on a free port and a temp dir) and
 * runs each benchmark side by side with its baseline in the same run. Prints JSON.
 */
import { startPlatform } from '../support/platform';
import { authenticatedRead } from './authenticated-read';
import { orderIntake } from './order-intake';
import { objectList } from './object-list';
import { webhookDelivery } from './webhook-delivery';

const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const platform = await startPlatform({ env: { POWERTOOLS_LOG_LEVEL: 'ERROR' } });
try {
  const results = [
    await authenticatedRead(platform, { requests, concurrency }),
    await orderIntake(platform, { requests: Number(process.env.BENCH_ORDERS ?? 3000), concurrency: Number(process.env.BENCH_ORDER_CONCURRENCY ?? 32) }),
    await webhookDelivery(platform, { events: Number(process.env.BENCH_EVENTS ?? 500), endpoints: 4 }),
    await objectList(platform, { records: Number(process.env.BENCH_RECORDS ?? 20_000), samples: Number(process.env.BENCH_SAMPLES ?? 30) }),
  ];
  console.log(JSON.stringify({ startupMs: platform.startupMs, results }, null, 2));
} finally {
  await platform.stop();
}
