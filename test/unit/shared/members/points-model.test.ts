import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { captureMetrics } from '../../../../shared/platform/observability/metrics';
import { memoryEngine } from '../../../support/points-engines';
import { modelRunParameters, pastExplained, PointsModel, pointsCommands } from '../../../support/points-model';

/**
 * The points engine against its reference model (`test/support/points-model.ts`), on the memory
 * stores: the order service, the ledger and the due work's steps run as they do on the table, with
 * a program clock the test moves. Random sequences of orders (pending and completed, some earning
 * a campaign's points), partial and full refunds, cancellations, completions, orders back to
 * pending, manual earns, deductions and corrections, reversals by id and clock advances; after
 * every command balance, pending, lifetime, tier, the ledger (by type and running balance) and the
 * open lots agree with the model. A fixed seed in `npm test` (and the mutation run, which runs this
 * file for the lot and ledger modules); `POINTS_MODEL_RUNS` and `POINTS_MODEL_SEED` run it longer
 * or elsewhere (docs/testing.md). The same commands run on DynamoDB Local in
 * `test/integration/shared/members/points-model.test.ts`.
 */

const START = Date.parse('2026-01-15T10:00:00Z');

// The ledger emits a metric per change: kept out of the run's output, and put back after.
let metrics: ReturnType<typeof captureMetrics>;
beforeAll(() => {
  metrics = captureMetrics();
});
afterAll(() => metrics.stop());

const { numRuns, seed } = modelRunParameters({ numRuns: 60, seed: 4242 });

describe('the points engine against its model (memory stores)', () => {
  it(
    'agrees with the model after every command of random sequences',
    async () => {
      await fc.assert(
        fc.asyncProperty(pointsCommands(40), async (cmds) => {
          const model = new PointsModel(START);
          const real = memoryEngine(START);
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          await pastExplained(model, real);
        }),
        { numRuns, seed },
      );
    },
    60_000 + numRuns * 1000,
  );
});
