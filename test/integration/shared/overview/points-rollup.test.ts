import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { seedPointsYear } from '../../../bench/points-report';
import { newId } from '../../../../shared/platform/ids';
import { documentClientFor, runtimeOf } from '../../../support/platform';

/** The report's campaign names: no campaign here grants. */
const noCampaignNames = async () => new Map<string, string>();

/**
 * The month roll-ups against DynamoDB Local: a report folds the closed months it read, the next
 * report reads the roll-ups and answers the same, a change dated in a folded month (an expiry booked
 * late) is counted beside the roll-up and folded later, and a fold that a change overtook commits
 * nothing.
 */

let reports: typeof import('../../../../shared/overview/reports');
let repo: typeof import('../../../../shared/overview/points-repository');
let rollup: typeof import('../../../../shared/overview/points-rollup');
let tx: typeof import('../../../../shared/platform/data/transactions');
let runtime: Awaited<ReturnType<typeof runtimeOf>>;

beforeAll(async () => {
  runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
  reports = await import('../../../../shared/overview/reports');
  repo = await import('../../../../shared/overview/points-repository');
  rollup = await import('../../../../shared/overview/points-rollup');
  tx = await import('../../../../shared/platform/data/transactions');
});

/** The items of every shard, by kind. */
async function stored(workspaceId: string) {
  const doc = documentClientFor(runtime);
  const items: Record<string, unknown>[] = [];
  for (let shard = 0; shard < repo.POINTS_SHARDS; shard++) {
    const page = await doc.send(
      new QueryCommand({
        TableName: runtime.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${workspaceId}#POINTS#${shard}` },
      }),
    );
    items.push(...(page.Items ?? []));
  }
  return { days: items.filter((i) => i.entity === 'pointsDay'), months: items.filter((i) => i.entity === 'pointsMonth') };
}

const year = (workspaceId: string, granularity: 'day' | 'month' = 'day') =>
  reports.pointsReportOf(workspaceId, { from: '2025-01-01', to: '2025-12-31', granularity }, noCampaignNames);

describe('points month roll-ups', () => {
  it('a report folds the closed months; the next answers the same from the roll-ups, and a late change is counted once', async () => {
    const workspaceId = newId('ws');
    const seeded = await seedPointsYear(documentClientFor(runtime), runtime.tableName, workspaceId, 10_000);

    // Each read folds the oldest closed month of every shard, answering the same all along.
    const first = await year(workspaceId);
    expect(first.totals.issued.total).toBe(seeded.issued);
    let items = await stored(workspaceId);
    expect(items.months.map((m) => m.month)).toEqual(Array(repo.POINTS_SHARDS).fill('2025-01'));
    expect(items.days).toHaveLength((365 - 31) * repo.POINTS_SHARDS);
    for (let read = 2; read <= 12; read++) expect(await year(workspaceId)).toEqual(first);
    items = await stored(workspaceId);
    expect(items.days).toHaveLength(0);
    expect(items.months).toHaveLength(12 * repo.POINTS_SHARDS);
    expect(await year(workspaceId)).toEqual(first);
    const byMonth = await year(workspaceId, 'month');
    // A period ending inside a folded month takes only its days through the end.
    const march = await reports.pointsReportOf(workspaceId, { from: '2025-03-01', to: '2025-03-15', granularity: 'day' }, noCampaignNames);
    expect(march.buckets).toEqual(first.buckets.slice(59, 74));
    expect(march.totals.opening).toBe(byMonth.buckets[1]!.outstanding);

    // An expiry dated in March, booked now: a day item beside March's roll-up.
    await tx.transactWrite(repo.pointsDaySteps(workspaceId, new Map([['2025-03-10', { expired: 40, 'x2026-03': -40 }]]), 2));
    const late = await year(workspaceId);
    expect(late.totals.expired).toBe(first.totals.expired + 40);
    expect(late.totals.outstanding).toBe(first.totals.outstanding - 40);
    expect(late.buckets[68]).toMatchObject({ start: '2025-03-10', expired: first.buckets[68]!.expired + 40 });
    items = await stored(workspaceId);
    expect(items.days).toHaveLength(0);
    expect(items.months.find((m) => m.sk === 'MONTH#2025-03' && m.pk === `WS#${workspaceId}#POINTS#2`)).toMatchObject({ v: 2 });
    expect(await year(workspaceId)).toEqual(late);
  }, 120_000);

  it('a fold a change overtook commits nothing, and the next read folds the change too', async () => {
    const workspaceId = newId('ws');
    const step = (points: number) => tx.transactWrite(repo.pointsDaySteps(workspaceId, new Map([['2025-05-02', { issuedManual: points }]]), 5));
    await step(10);
    const reads = await repo.readPointShards(workspaceId, '2025-05-31');
    const [fold] = reads.flatMap((r) => rollup.foldsDue(r, '2025-06'));
    await step(5);
    await expect(repo.commitFold(workspaceId, fold!)).rejects.toThrow();
    expect((await stored(workspaceId)).months).toHaveLength(0);
    expect(await reports.daysThrough(workspaceId, '2025-05-31')).toEqual([{ day: '2025-05-02', counters: { issuedManual: 15 } }]);

    await reports.pointsReportOf(workspaceId, { from: '2025-05-01', to: '2025-05-31', granularity: 'day' }, noCampaignNames);
    expect((await stored(workspaceId)).days).toHaveLength(0);
    expect(await reports.daysThrough(workspaceId, '2025-05-31')).toEqual([{ day: '2025-05-02', counters: { issuedManual: 15 } }]);
  }, 60_000);

  it("the due work's fold takes every closed month at once, a month a day after it ended, and answers the same", async () => {
    const workspaceId = newId('ws');
    await seedPointsYear(documentClientFor(runtime), runtime.tableName, workspaceId, 3_000);
    const before = await reports.daysThrough(workspaceId, '2025-12-31');

    // On 1 January December is still open (an expiry booked minutes late lands in its days).
    expect(await reports.foldClosedPointMonths(workspaceId, new Date('2026-01-01T12:00:00Z'))).toBe(11 * repo.POINTS_SHARDS);
    let items = await stored(workspaceId);
    expect(new Set(items.days.map((d) => String(d.day).slice(0, 7)))).toEqual(new Set(['2025-12']));
    expect(items.days).toHaveLength(31 * repo.POINTS_SHARDS);
    expect(items.months).toHaveLength(11 * repo.POINTS_SHARDS);
    expect(await reports.daysThrough(workspaceId, '2025-12-31')).toEqual(before);

    // A day later December closes: the run folds it, and the next run finds nothing to do.
    expect(await reports.foldClosedPointMonths(workspaceId, new Date('2026-01-02T12:00:00Z'))).toBe(repo.POINTS_SHARDS);
    items = await stored(workspaceId);
    expect(items.days).toHaveLength(0);
    expect(items.months).toHaveLength(12 * repo.POINTS_SHARDS);
    expect(await reports.foldClosedPointMonths(workspaceId, new Date('2026-01-02T12:00:00Z'))).toBe(0);
    expect(await reports.daysThrough(workspaceId, '2025-12-31')).toEqual(before);

    // A change booked late into a folded month is folded into its roll-up by the next run.
    await tx.transactWrite(repo.pointsDaySteps(workspaceId, new Map([['2025-07-04', { issuedManual: 7 }]]), 3));
    expect(await reports.foldClosedPointMonths(workspaceId, new Date('2026-01-03T12:00:00Z'))).toBe(1);
    items = await stored(workspaceId);
    expect(items.days).toHaveLength(0);
    expect(items.months.find((m) => m.sk === 'MONTH#2025-07' && m.pk === `WS#${workspaceId}#POINTS#3`)).toMatchObject({ v: 2 });
    const after = await reports.daysThrough(workspaceId, '2025-12-31');
    expect(after.find((d) => d.day === '2025-07-04')!.counters.issuedManual).toBe(before.find((d) => d.day === '2025-07-04')!.counters.issuedManual! + 7);
  }, 120_000);

  it("leaves the open month's days unfolded", async () => {
    const workspaceId = newId('ws');
    const today = new Date().toISOString().slice(0, 10);
    await tx.transactWrite(repo.pointsDaySteps(workspaceId, new Map([[today, { issuedManual: 3 }]]), 0));
    await reports.pointsReportOf(workspaceId, { granularity: 'day' }, noCampaignNames);
    expect(await stored(workspaceId)).toMatchObject({ days: [{ day: today, issuedManual: 3 }], months: [] });
  }, 60_000);
});
