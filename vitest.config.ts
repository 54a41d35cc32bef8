import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], env: { POWERTOOLS_LOG_LEVEL: 'SILENT' } } },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // Synthesis without bundling 35 functions: only the tests that read bundles build them
          // (`buildApp({ bundle: true })`); CDK reads this context from the environment.
          env: { CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [] }) },
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'platform',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
