import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ordersWithCampaigns } from '../../../../shared/campaigns/hooks';
import { runDueProgramWork } from '../../../../shared/campaigns/due-work';
import { getMember, ledgerPage } from '../../../../shared/members/repository';
import { explainPoints } from '../../../../shared/members/explanation';
import type { LedgerEntryRecord } from '../../../../shared/members/entities';
import { call } from '../../../support/api';
import { newMember, tenant } from '../../../support/fixtures';
import { platformTable } from '../../../support/table';
import { ServiceEngine } from '../../../support/points-engines';
import { BONUS_POINTS, BONUS_SKU, MODEL_RULES, modelRunParameters, pastExplained, PointsModel, pointsCommands } from '../../../support/points-model';

/**
 * The points engine against its reference model (`test/support/points-model.ts`) on DynamoDB Local:
 * the order service, the ledger and the due work (`runDueProgramWork`, every job) run in this
 * process on the platform's table, exactly as the handlers and the schedule call them, over random
 * sequences of orders (some earning the workspace's campaign), refunds, cancellations, completions,
 * orders back to pending, manual earns, deductions and corrections, reversals by id and clock
 * advances. Each sequence gets a member of its own in one workspace with the model's rules.
 *
 * Program time is this process's `Date`, faked (only `Date`: timers and I/O run as ever) and moved
 * by the advances: a live workspace's program clock is real time, so the due work runs at instants
 * the runtime's own schedule, on real time, never reaches. A few short sequences with a fixed seed
 * in `npm test`; `POINTS_MODEL_RUNS` and `POINTS_MODEL_SEED` run it longer (docs/testing.md).
 */

let workspaceId: string;
let key: string;

beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
  const t = await tenant('points-model');
  const { earn, tiers, points, timeZone } = MODEL_RULES;
  const res = await call('PUT', '/api/flash/program', { token: t.token, body: { earn, tiers, points, timeZone } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // The model's campaign: its points on every completed order that carries its SKU.
  const campaign = {
    name: 'Model bonus',
    status: 'active',
    trigger: { type: 'order' },
    conditions: [{ field: 'order.items.sku', op: 'contains', value: BONUS_SKU }],
    effect: { type: 'bonus_points', points: BONUS_POINTS },
  };
  const created = await call('POST', '/api/flash/campaigns', { token: t.token, body: campaign });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  ({ workspaceId, key } = t);
});

afterAll(() => {
  vi.useRealTimers();
});

async function wholeLedger(memberId: string): Promise<LedgerEntryRecord[]> {
  const all: LedgerEntryRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await ledgerPage(workspaceId, memberId, 200, cursor);
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all.sort((a, b) => a.rev - b.rev);
}

/** A member of its own (enrolled through the runtime), its engine on the table, the clock a minute on from real time. */
async function tableEngine(): Promise<{ start: number; engine: ServiceEngine }> {
  vi.useRealTimers();
  const { id: memberId } = await newMember(key);
  const start = Date.now() + 60_000;
  vi.useFakeTimers({ toFake: ['Date'], now: start });
  const engine = new ServiceEngine({
    workspaceId,
    memberId,
    orders: ordersWithCampaigns,
    now: () => Date.now(),
    moveClock: async (ms) => {
      vi.setSystemTime(Date.now() + ms);
    },
    runDue: (now) => runDueProgramWork(workspaceId, now),
    member: async () => (await getMember(workspaceId, memberId))!,
    ledger: () => wholeLedger(memberId),
    explain: async (at) => {
      const x = await explainPoints(workspaceId, memberId, at === undefined ? undefined : new Date(at).toISOString());
      return {
        points: x.points,
        tier: x.tier.key,
        lots: x.lots.map((l) => ({ points: l.points, expiresAt: l.expiresAt === null ? null : Date.parse(l.expiresAt) })),
      };
    },
  });
  return { start, engine };
}

const { numRuns, seed } = modelRunParameters({ numRuns: 3, seed: 4242 });

describe('the points engine against its model (DynamoDB Local)', () => {
  it(
    'agrees with the model after every command of random sequences',
    async () => {
      await fc.assert(
        fc.asyncProperty(pointsCommands(12), async (cmds) => {
          const { start, engine } = await tableEngine();
          const model = new PointsModel(start);
          await fc.asyncModelRun(() => ({ model, real: engine }), cmds);
          await pastExplained(model, engine);
        }),
        { numRuns, seed, endOnFailure: true },
      );
    },
    120_000 + numRuns * 20_000,
  );
});
