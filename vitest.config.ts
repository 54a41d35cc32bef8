import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer';

/**
 * Files that start and stop runtimes and JVMs of their own and read their lifecycle (start-up
 * refusals, restarts, log output, deliveries across a restart): they need no shared store and their
 * limits are generous (a start within 30 s), so they run beside the rest, first, as the longest files.
 */
const LIFECYCLE = ['test/e2e/local-runtime.test.ts', 'test/e2e/local-logs.test.ts', 'test/e2e/runtime-restart-delivery.test.ts'];

/**
 * Files that measure their own JVM under load: the store faults (killed and frozen, each answer
 * against the request deadline) and the write-rate burst (260 writes counted exactly, none past the
 * deadline). They run after everything else, so what they measure is not the other files' load; the
 * two side by side (each has its own JVM: one at a time left a core idle for over a minute; side by
 * side the slowest answer stayed at or below 12.09 s against the 14.5 s limit in eight runs).
 */
const SOLO = ['test/e2e/store-faults.test.ts', 'test/e2e/objects-guard.test.ts'];

/**
 * For the JVMs a test starts for itself (a runtime of its own, a store of its own): they live seconds
 * to a minute, and the optimising compiler's start-up work (some 3 s of CPU per JVM, measured) never
 * pays back in that time. The run's shared JVM is started by the global setup in vitest's own
 * process, which this environment does not reach: it keeps the full JIT for the sustained load.
 */
/** The local runtime's commit barrier for the store clients of the test processes (test/support/local-store.ts). */
const LOCAL_STORE = 'test/support/local-store.ts';

const SHORT_LIVED_JVM = { JAVA_TOOL_OPTIONS: '-XX:TieredStopAtLevel=1' };

/**
 * Request budgets per workspace far above what a test sends, for the handlers run in this process
 * (the test runtimes get the same from test/support/platform.ts); test/e2e/request-budget.test.ts
 * tests the budgets, the real defaults among them.
 */
const ROOMY_BUDGETS = {
  WORKSPACE_READ_PER_SECOND: '100000',
  WORKSPACE_WRITE_PER_SECOND: '100000',
  SANDBOX_READ_PER_SECOND: '100000',
  SANDBOX_WRITE_PER_SECOND: '100000',
};

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    sequence: { sequencer: LongestFirst },
    // Three files at a time on 2 cores (vitest would take one): the platform tests mostly wait on
    // the local runtime, its JVM, a browser or a receiver, and two files left about a fifth of the
    // CPU idle. A third file once made store calls run past their time-outs (503s); since the
    // stream pollers and the tests' own JVMs cost the store a quarter less CPU it passes, 500 s
    // against 652-719 s with two (2026-12-02). The solo files run two at a time (see SOLO).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: [LOCAL_STORE],
          env: { ...ROOMY_BUDGETS, POWERTOOLS_LOG_LEVEL: 'SILENT' },
          // One module graph per worker, as the mutation run has always had it: importing the
          // modules anew for each of some hundred files was most of the unit project's CPU. A file
          // that changes process state (environment, spies, module state) restores it or loads
          // its modules fresh (`vi.resetModules`).
          isolate: false,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // Synthesis without bundling 35 functions: only the tests that read bundles build them
          // (`buildApp({ bundle: true })`); CDK reads this context from the environment.
          env: { CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [] }) },
          // One module graph per worker, so the files that only read the template share one
          // synthesis (test/support/synthesized-app.ts) instead of one each.
          isolate: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'platform',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: [LOCAL_STORE],
          exclude: [...LIFECYCLE, ...SOLO],
          globalSetup: ['test/support/global-setup.ts'],
          env: SHORT_LIVED_JVM,
          // The end-to-end files talk to the runtimes over HTTP and keep no module state of their
          // own: one module graph per worker instead of one per file (the imports were about a
          // second of CPU per file).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Files that point this process at a table (environment, spies, fake timers): a module
          // graph of their own each. The same stores and runtime as `platform` (one global setup).
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          // The handlers run in this process: their logs and metrics would fill the run's output.
          // Tests that read them spy on the logger or capture the metrics.
          setupFiles: [LOCAL_STORE, 'test/support/quiet-metrics.ts'],
          env: { ...SHORT_LIVED_JVM, ...ROOMY_BUDGETS, POWERTOOLS_LOG_LEVEL: 'SILENT' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: { name: 'lifecycle', include: LIFECYCLE, setupFiles: [LOCAL_STORE], env: SHORT_LIVED_JVM, testTimeout: 60_000, hookTimeout: 120_000 },
      },
      {
        test: {
          name: 'platform-solo',
          include: SOLO,
          setupFiles: [LOCAL_STORE],
          env: SHORT_LIVED_JVM,
          // The run's shared stores (the burst starts its own JVM but keeps the shared s3rver).
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
