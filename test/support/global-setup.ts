import type { TestProject } from 'vitest/node';
import { startPlatform } from './platform';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** What the runtime printed until it listened: the start banner (its paste-ready export line). */
    startOutput: string;
  }
}

/** One local runtime for the whole platform project; tests isolate themselves by workspace. */
export default async function setup(project: TestProject) {
  // Webhook numbers shrunk so a whole retry cycle takes seconds (see test/e2e/webhooks.test.ts).
  const platform = await startPlatform({
    env: {
      WEBHOOK_MAX_ATTEMPTS: '4',
      WEBHOOK_BACKOFF_BASE_SECONDS: '1',
      WEBHOOK_BACKOFF_CAP_SECONDS: '2',
      WEBHOOK_ROTATION_OVERLAP_SECONDS: '4',
      WEBHOOK_DELIVERY_TIMEOUT_SECONDS: '2',
      // The write-rate guard has its own tests (test/e2e/objects-guard.test.ts); here it stays out of the way.
      OBJECTS_RATE_PER_SECOND: '1000',
      OBJECTS_RATE_BURST: '2000',
      OBJECTS_RATE_GUARD_TIMEOUT_MS: '10000',
    },
  });
  project.provide('baseUrl', platform.baseUrl);
  project.provide('dataDir', platform.dataDir);
  project.provide('startOutput', platform.output());
  return async () => {
    await platform.stop();
  };
}
