import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { seedPointsYear } from '../../../bench/points-report';
import { newId } from '../../../../shared/platform/ids';
import { documentClientFor, runtimeOf } from '../../../support/platform';

/** The report's campaign names: no campaign here grants. */
const noCampaignNames = async () => new Map<string, string>();

/**
 * The points report over a year of a 1,000,000-member workspace: its day counters seeded as the
 * ledger's transactions would leave them (every day, every shard), and the report read through the
 * service in this process against the platform's DynamoDB Local. The figures are exact; the time
 * bound is generous (the shared test machine), the measured figure is `npm run bench -- points-report`.
 */

let reports: typeof import('../../../../shared/overview/reports');
let runtime: Awaited<ReturnType<typeof runtimeOf>>;

beforeAll(async () => {
  runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
  reports = await import('../../../../shared/overview/reports');
});

describe('the points report over a year of a million members', () => {
  it('sums every day of every shard exactly, by day and by month, within a generous bound', async () => {
    const workspaceId = newId('ws');
    const seeded = await seedPointsYear(documentClientFor(runtime), runtime.tableName, workspaceId, 1_000_000);
    expect(seeded.items).toBe(365 * 8);

    const started = performance.now();
    const byDay = await reports.pointsReportOf(workspaceId, { from: seeded.from, to: seeded.to, granularity: 'day' }, noCampaignNames);
    const elapsed = performance.now() - started;
    // The first read also folds the oldest closed month of each shard into its roll-up (8 transactions).
    expect(byDay.buckets).toHaveLength(365);
    expect(byDay.totals).toMatchObject({ opening: 0, outstanding: seeded.outstanding, redeemed: seeded.redeemed, expired: seeded.expired });
    expect(byDay.totals.issued.total).toBe(seeded.issued);
    expect(byDay.liabilityByExpiry.reduce((s, l) => s + l.points, 0)).toBe(seeded.outstanding);
    expect(byDay.liabilityByExpiry).toHaveLength(12);
    expect(elapsed).toBeLessThan(20_000);

    const byMonth = await reports.pointsReportOf(workspaceId, { from: seeded.from, to: seeded.to, granularity: 'month' }, noCampaignNames);
    expect(byMonth.buckets).toHaveLength(12);
    expect(byMonth.buckets.reduce((s, b) => s + b.issued.total, 0)).toBe(seeded.issued);
    expect(byMonth.buckets.at(-1)!.outstanding).toBe(seeded.outstanding);
    // The second half opens with what the first left outstanding.
    const h2 = await reports.pointsReportOf(workspaceId, { from: '2025-07-01', to: seeded.to, granularity: 'month' }, noCampaignNames);
    expect(h2.totals.opening).toBe(byMonth.buckets[5]!.outstanding);

    // Once the reads have folded the closed months, the year is a dozen items per shard.
    for (let read = 0; read < 10; read++)
      await reports.pointsReportOf(workspaceId, { from: seeded.from, to: seeded.to, granularity: 'month' }, noCampaignNames);
    const foldedStart = performance.now();
    expect(await reports.pointsReportOf(workspaceId, { from: seeded.from, to: seeded.to, granularity: 'day' }, noCampaignNames)).toEqual(byDay);
    expect(performance.now() - foldedStart).toBeLessThan(10_000);
  }, 120_000);
});
