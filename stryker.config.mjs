// Mutation testing of the pure modules against the unit tests. How to run it, the break threshold and
// the equivalent mutants: docs/mutation-testing.md.
import { readFileSync } from 'node:fs';

/**
 * `file:start-end`, the lines from the first line matching `from` to the first line matching `to`
 * after it, for files whose other half needs DynamoDB or the network. Found by pattern rather than
 * written as numbers, so the range follows the code when the file changes.
 */
function linesOf(file, from, to) {
  const lines = readFileSync(new URL(file, import.meta.url), 'utf8').split('\n');
  const start = lines.findIndex((l) => from.test(l));
  const end = lines.findIndex((l, i) => i > start && to.test(l));
  if (start < 0 || end < 0) throw new Error(`stryker.config.mjs: the range in ${file} is gone (${from} .. ${to})`);
  return `${file}:${start + 1}-${end + 1}`;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'test/mutation/vitest.config.ts', related: true },
  mutate: [
    'shared/orders/points.ts',
    // What an order earns on (basis, exclusions, the order discount spread over lines) and the checks of its amounts.
    'shared/orders/earning-amount.ts',
    'shared/orders/amounts.ts',
    'shared/orders/earn-caps.ts',
    'shared/program/arithmetic.ts',
    // The program engine's pure core: lots and expiry, calendars, tier windows and their per-day metric, campaign evaluation, trigger dates.
    'shared/program/lots.ts',
    'shared/members/member-lots.ts',
    'shared/members/points-lots.ts',
    // A balance replayed from the ledger at a moment.
    'shared/members/explain.ts',
    'shared/program/calendar.ts',
    'shared/program/tier-rules.ts',
    'shared/program/tier-metric.ts',
    // The points aggregates: which counter an entry moves, and the report summed from the day counters.
    'shared/overview/points-day.ts',
    'shared/overview/points-report.ts',
    // Members by tier and distinct active members from the same day counters.
    'shared/overview/members-day.ts',
    // The month roll-ups: what a fold takes, and the days a report sums from roll-ups and day items.
    'shared/overview/points-rollup.ts',
    'shared/campaigns/evaluation.ts',
    'shared/campaigns/line-base.ts',
    'shared/program/order-time.ts',
    'shared/campaigns/trigger-dates.ts',
    'shared/platform/money.ts',
    'shared/platform/validation/pagination.ts',
    'shared/platform/validation/validation.ts',
    'shared/api-keys/scopes.ts',
    // Two-factor codes: the step, the window, no replay, recovery codes as typed.
    'shared/auth/totp.ts',
    // The console's permissions, the built-in roles and the points ceiling.
    'shared/platform/contract/permissions.ts',
    'shared/exports/access.ts',
    'shared/coupons/codes.ts',
    // Whether a member may redeem a reward now, a code's end, and the stock an edit leaves.
    'shared/rewards/eligibility.ts',
    // What a reward's benefit takes off a cart at checkout.
    'shared/rewards/discount.ts',
    'shared/objects/validator.ts',
    'shared/webhooks/backoff.ts',
    'shared/webhooks/signing.ts',
    'shared/webhooks/delivery-id.ts',
    // Only the classification; the rest of the file reads and writes the table.
    linesOf('shared/webhooks/delivery.ts', /^export function classify\(/, /^}/),
    'shared/audit/catalog.ts',
    'shared/audit/entry.ts',
    // What a configuration change changed, field by field; an entry as people read it, and as CSV.
    'shared/audit/diff.ts',
    'shared/audit/readable.ts',
    'shared/audit/csv.ts',
    'shared/platform/csv.ts',
    // An import file's rows: CSV cells, dates, points and each kind's checks.
    'shared/imports/rows.ts',
    // The bulk kinds' rows: the shared checks, a points change, a tag change.
    'shared/imports/checks.ts',
    'shared/imports/points-rows.ts',
    'shared/imports/tags-rows.ts',
    'shared/imports/progress.ts',
    // What "untouched since an import created it" means; the rest of the file writes the table.
    linesOf('shared/members/removal.ts', /^export const untouchedSince = /, /&& m\.lifetime === 0;$/),
    'shared/platform/data/keys.ts',
    // How DynamoDB counts an item's size, and the refusal of a document over its budget.
    'shared/platform/data/item-size.ts',
    'shared/platform/data/stored-size.ts',
    'shared/platform/data/contention.ts',
    // What the benchmark mode counts per request; the middleware itself needs a client.
    linesOf('shared/platform/data/store-calls.ts', /^const count = /, /^export interface StoreCallCounter/),
    'shared/platform/cache.ts',
    'shared/http/limits/request-budget.ts',
    'shared/http/route-match.ts',
    // The address and URL checks (SafeEgress itself does network I/O), up to the config-bound factory.
    linesOf('shared/platform/adapters/egress-address.ts', /^function range\(/, /^let check/),
    'shared/platform/consumers/queues.ts',
    'shared/platform/config/overrides.ts',
  ],
  ignorePatterns: ['cdk.out', '.data', 'coverage', 'reports'],
  incremental: true,
  incrementalFile: 'test/mutation/stryker-incremental.json',
  concurrency: 2,
  thresholds: { high: 90, low: 80, break: 97 },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, reportTests: false },
  tempDirName: '.stryker-tmp',
  // Stryker rewrites the tsconfig's `extends`/`references` through TypeScript's JS API, which
  // TypeScript 7 no longer has. Ours has neither, so point the rewrite at a file that does not exist.
  tsconfigFile: 'test/mutation/no-tsconfig-rewrite.json',
};
