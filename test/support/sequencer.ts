import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first, from a measured run on two cores (2026-12-02; seconds, they are
 * weights, not limits). Vitest's own order runs the projects one after another and, on a fresh
 * clone without its cache, by file size: the unit file that waits on time-outs for 30 s then ran
 * last with one worker idle, and long files at the end of a project left the other worker alone.
 * Starting the long ones first lets the short ones fill the gaps. A file not listed counts 5 s.
 */
const MEASURED: Readonly<Record<string, number>> = {
  'test/e2e/local-runtime.test.ts': 113,
  'test/e2e/fuzz.test.ts': 81,
  'test/e2e/reference-page.test.ts': 84,
  'test/e2e/webhook-resilience.test.ts': 38,
  'test/e2e/wallet-apple.test.ts': 33,
  'test/e2e/race.test.ts': 26,
  'test/unit/shared/platform/data/store-frozen.test.ts': 32,
  'test/e2e/objects-value-index.test.ts': 30,
  'test/e2e/exports.test.ts': 30,
  'test/e2e/coupons.test.ts': 29,
  'test/e2e/stored-size.test.ts': 24,
  'test/e2e/cli.test.ts': 24,
  'test/integration/shared/platform/data/write-outcome.test.ts': 24,
  'test/integration/shared/platform/data/transaction-outcome.test.ts': 23,
  'test/e2e/console.test.ts': 22,
  'test/e2e/webhooks.test.ts': 19,
  'test/e2e/console-program.test.ts': 19,
  'test/e2e/captures.test.ts': 19,
  'test/e2e/privacy.test.ts': 17,
  'test/e2e/campaign-triggers.test.ts': 16,
  'test/integration/shared/objects/rate-guard.test.ts': 16,
  // Random sequences of points changes on the table, each step checked against the model.
  'test/integration/shared/members/points-model.test.ts': 15,
  // A year of a sandbox's clock, explained at ten moments.
  'test/e2e/explain.test.ts': 16,
  'test/integration/shared/platform/data/stored-size.test.ts': 10,
  'test/e2e/local-logs.test.ts': 15,
  // Two runtime starts of its own (the real defaults, then per-workspace budgets).
  'test/e2e/request-budget.test.ts': 21,
  'test/e2e/console-team.test.ts': 15,
  'test/e2e/console-webhooks.test.ts': 27,
  // Seven browser sessions that each load the console at a deep address (45 s on two loaded cores).
  'test/e2e/console-routes.test.ts': 20,
  'test/infra/bundle-budget.test.ts': 28,
  'test/e2e/console-members.test.ts': 13,
  'test/e2e/catalog.test.ts': 13,
  'test/e2e/campaigns.test.ts': 12,
  'test/e2e/route-matrix.test.ts': 11,
  'test/e2e/points-expiry.test.ts': 10,
};

const DEFAULT_SECONDS = 5;

/** Group order first (the solo files stay last); inside a group, the longest file first, whatever its project. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = (f: TestSpecification) => MEASURED[relative(root, f.moduleId)] ?? DEFAULT_SECONDS;
    const byDefault = await super.sort(files);
    const rank = new Map(byDefault.map((f, i) => [f, i]));
    return [...byDefault].sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || weight(b) - weight(a) || rank.get(a)! - rank.get(b)!,
    );
  }
}
