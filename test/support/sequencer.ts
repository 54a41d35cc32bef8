import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first, from a measured run on two cores (2026-12-07, three
 * workers; seconds, they are weights, not limits). Vitest's own order runs the projects one after
 * another and, on a fresh clone without its cache, by file size: the unit file that waits on
 * time-outs for 30 s then ran last with one worker idle, and long files at the end of a project left
 * the other worker alone. Starting the long ones first lets the short ones fill the gaps. A file not
 * listed counts 5 s.
 */
const MEASURED: Readonly<Record<string, number>> = {
  'test/e2e/local-runtime.test.ts': 116,
  'test/e2e/reference-page.test.ts': 60,
  'test/e2e/fuzz.test.ts': 83,
  'test/e2e/console.test.ts': 51,
  'test/e2e/console-program.test.ts': 35,
  'test/e2e/webhook-resilience.test.ts': 31,
  'test/e2e/wallet-apple.test.ts': 31,
  'test/e2e/console-webhooks.test.ts': 30,
  'test/e2e/console-members.test.ts': 29,
  'test/e2e/cli.test.ts': 25,
  'test/e2e/webhooks.test.ts': 24,
  // Seven browser sessions that each load the console at a deep address (45 s on two loaded cores).
  'test/e2e/console-routes.test.ts': 24,
  'test/infra/bundle-budget.test.ts': 23,
  'test/e2e/console-team.test.ts': 23,
  'test/e2e/race.test.ts': 22,
  'test/infra/operations.test.ts': 21,
  'test/e2e/exports.test.ts': 21,
  'test/integration/infra/local/stream-poller.test.ts': 20,
  'test/infra/stack.test.ts': 20,
  'test/e2e/route-matrix.test.ts': 19,
  // Two runtime starts of its own (the real defaults, then per-workspace budgets).
  'test/e2e/request-budget.test.ts': 18,
  'test/e2e/runtime-restart-delivery.test.ts': 18,
  'test/integration/shared/objects/rate-guard.test.ts': 17,
  'test/e2e/wallet-google.test.ts': 16,
  'test/e2e/team.test.ts': 16,
  'test/e2e/input-hardening.test.ts': 16,
  'test/e2e/coupons.test.ts': 16,
  'test/e2e/rewards.test.ts': 16,
  'test/e2e/tags.test.ts': 15,
  'test/e2e/console-overview.test.ts': 15,
  'test/e2e/cli-team.test.ts': 15,
  'test/e2e/campaigns.test.ts': 15,
  'test/e2e/ambassador.test.ts': 15,
  'test/e2e/webhooks-admin.test.ts': 14,
  'test/e2e/points.test.ts': 14,
  'test/e2e/mcp-guard.test.ts': 14,
  'test/e2e/console-object-types.test.ts': 14,
  'test/infra/webhooks.test.ts': 13,
  'test/e2e/mcp.test.ts': 13,
  'test/e2e/local-logs.test.ts': 13,
  'test/e2e/audit.test.ts': 13,
  'test/integration/store-calls.test.ts': 12,
  'test/e2e/privacy-records.test.ts': 12,
  'test/e2e/objects-value-index.test.ts': 12,
  'test/e2e/erasure-terminal.test.ts': 12,
  'test/e2e/contract-gaps.test.ts': 12,
  'test/e2e/cli-orders.test.ts': 12,
  'test/e2e/cli-dx.test.ts': 12,
  'test/e2e/catalog.test.ts': 12,
  'test/e2e/captures.test.ts': 12,
  'test/e2e/campaign-triggers.test.ts': 12,
  'test/integration/shared/platform/data/transaction-outcome.test.ts': 11,
  'test/unit/shared/platform/data/store-frozen.test.ts': 11,
  'test/integration/shared/campaigns/trigger-work.test.ts': 11,
  'test/unit/test-command.test.ts': 10,
  'test/integration/infra/local/queue-driver.test.ts': 10,
  'test/e2e/stored-size.test.ts': 10,
  'test/e2e/privacy.test.ts': 10,
  'test/e2e/coupon-reservation.test.ts': 10,
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
