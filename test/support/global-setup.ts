import type { TestProject } from 'vitest/node';
import { startPlatform, startStores, type SharedStores } from './platform';
import { startFakeApns, startFakeGoogleWallet } from './wallet';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** What the runtime printed until it listened: the start banner (its paste-ready export line). */
    startOutput: string;
    /** The run's one DynamoDB Local and s3rver, for files that start a runtime with config of their own. */
    stores: SharedStores;
  }
}

interface Provided {
  baseUrl: string;
  dataDir: string;
  startOutput: string;
  stores: SharedStores;
  stop(): Promise<void>;
}

/**
 * One DynamoDB Local JVM and one s3rver for the whole run, and one local runtime on them; tests
 * isolate themselves by workspace. A file that needs a runtime with other config starts its own on
 * the same stores (`startPlatform({ stores: inject('stores') })`): a node process and a table of its
 * own, no JVM. Two projects use this setup (`platform`: the end-to-end files, sharing their modules
 * per worker; `integration`: files that point this process at a table and need their own module
 * state): both get the same processes, started by whichever project comes first and stopped after
 * the last one ends. Global setups run in vitest's main process, so `globalThis` is the one place
 * both see (each project may load this module anew).
 */
export default async function setup(project: TestProject) {
  const shared = ((globalThis as Record<symbol, SharedRun | undefined>)[RUN] ??= { users: 0, started: startAll() });
  shared.users++;
  const run = await shared.started;
  project.provide('baseUrl', run.baseUrl);
  project.provide('dataDir', run.dataDir);
  project.provide('startOutput', run.startOutput);
  project.provide('stores', run.stores);
  return async () => {
    if (--shared.users > 0) return;
    delete (globalThis as Record<symbol, SharedRun | undefined>)[RUN];
    await run.stop();
  };
}

const RUN = Symbol.for('loyalty.test.platform-run');
interface SharedRun {
  users: number;
  started: Promise<Provided>;
}

async function startAll(): Promise<Provided> {
  // The data stays in memory: nothing of a test run is kept, and no disk database to write.
  const { stores, stop: stopStores } = await startStores();
  // The wallet's peers on loopback, so no request of the run leaves the machine (a pass, a push).
  const [apns, google] = await Promise.all([startFakeApns(), startFakeGoogleWallet()]);
  // Webhook numbers shrunk so a whole retry cycle takes seconds (see test/e2e/webhooks.test.ts).
  const platform = await startPlatform({
    stores,
    env: {
      WEBHOOK_MAX_ATTEMPTS: '4',
      WEBHOOK_BACKOFF_BASE_SECONDS: '1',
      WEBHOOK_BACKOFF_CAP_SECONDS: '2',
      WEBHOOK_ROTATION_OVERLAP_SECONDS: '4',
      WEBHOOK_DELIVERY_TIMEOUT_SECONDS: '2',
      // A bulk replay's bound, small enough that a test reaches it with a few dead deliveries.
      WEBHOOK_BULK_REPLAY_MAX: '3',
      // The write-rate guard has its own tests (test/e2e/objects-guard.test.ts); here it stays out of the way.
      OBJECTS_RATE_PER_SECOND: '1000',
      OBJECTS_RATE_BURST: '2000',
      OBJECTS_RATE_GUARD_TIMEOUT_MS: '10000',
      APNS_URL: apns.url,
      GOOGLE_WALLET_API_URL: google.url,
    },
  });
  return {
    baseUrl: platform.baseUrl,
    dataDir: platform.dataDir,
    startOutput: platform.output(),
    stores,
    async stop() {
      await platform.stop();
      await Promise.all([stopStores(), apns.close(), google.close()]);
    },
  };
}
