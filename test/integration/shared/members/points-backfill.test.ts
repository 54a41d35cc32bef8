import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../../../support/api';
import { newMember, orderId, tenant, type Tenant } from '../../../support/fixtures';
import { documentClientFor, runtimeOf } from '../../../support/platform';

/** The report's campaign names: no campaign here grants. */
const noCampaignNames = async () => new Map<string, string>();

/**
 * The backfill of the points counters from the ledger: a sandbox workspace's story played over the
 * API (orders, activations, a refund, a deduction, an expiry), its report taken, then its counters
 * removed, as a workspace whose ledger is older than the counters has none. The backfill, stopped
 * after a page and resumed, gives back the same report; run again, it counts nothing twice; a
 * change made while it runs is counted by its own transaction, once.
 */

let backfill: typeof import('../../../../shared/members/points-backfill');
let reports: typeof import('../../../../shared/overview/reports');
let figures: typeof import('../../../../shared/overview/figures');
let runtime: Awaited<ReturnType<typeof runtimeOf>>;

beforeAll(async () => {
  runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
  backfill = await import('../../../../shared/members/points-backfill');
  reports = await import('../../../../shared/overview/reports');
  figures = await import('../../../../shared/overview/figures');
});

async function ok(method: string, path: string, token: string, body?: unknown) {
  const res = await call(method, path, { token, ...(body === undefined ? {} : { body }) });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data;
}

/** The workspace's counters, days and roll-ups of every shard, the backfill's included: gone. */
async function dropCounters(workspaceId: string) {
  const doc = documentClientFor(runtime);
  for (let shard = 0; shard <= 8; shard++) {
    const page = await doc.send(
      new QueryCommand({
        TableName: runtime.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${workspaceId}#POINTS#${shard}` },
      }),
    );
    for (let i = 0; i < (page.Items ?? []).length; i += 25) {
      const chunk = page.Items!.slice(i, i + 25).map((it) => ({ DeleteRequest: { Key: { pk: it.pk, sk: it.sk } } }));
      await doc.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: chunk } }));
    }
  }
}

/** Day 0: Ada and Ben order (pending 14 days), Ben gets 30; day 14: Ben returns 40 EUR, Ada loses 10; day 61: Ben's 30 expired, Carol orders. */
async function story(t: Tenant) {
  const now = async () => Date.parse((await ok('GET', '/api/flash/clock', t.token)).now);
  const order = async (memberId: string, total: number) => {
    const externalOrderId = orderId('BF');
    await ok('POST', '/api/v2/orders', t.key, { externalOrderId, memberId, currency: 'EUR', total, occurredAt: new Date(await now()).toISOString() });
    return externalOrderId;
  };
  const start = await now();
  const ada = (await newMember(t.key)).id;
  const ben = (await newMember(t.key)).id;
  await order(ada, 200);
  const bens = await order(ben, 100);
  await ok('POST', `/api/v2/members/${ben}/points`, t.key, { type: 'earn', amount: 30, reason: 'goodwill' });
  await ok('POST', '/api/flash/clock/advance', t.token, { days: 14 });
  await ok('POST', `/api/v2/orders/${bens}/refund`, t.key, { amount: 40 });
  await ok('POST', `/api/v2/members/${ada}/points`, t.key, { type: 'deduct', amount: 10, reason: 'support' });
  await ok('POST', '/api/flash/clock/advance', t.token, { days: 47 });
  const carol = (await newMember(t.key)).id;
  await order(carol, 80);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(start), to: day(await now()), ada, ben, carol, start };
}

/** A sandbox workspace whose points wait 14 days and expire after 60. */
async function sandbox(label: string): Promise<Tenant> {
  const t = await tenant(label, { sandbox: true });
  const program = await ok('GET', '/api/flash/program', t.token);
  await ok('PUT', '/api/flash/program', t.token, {
    earn: program.earn,
    tiers: program.tiers,
    points: { expiry: { policy: 'fixed_days', days: 60 }, warnDays: [], pendingDays: 14 },
    timeZone: 'UTC',
    pointValue: { EUR: 0.01 },
  });
  return t;
}

describe('the points counters backfilled from the ledger', () => {
  it('give back the report of counters kept from the start, resumed after a page, and count nothing twice', async () => {
    const t = await sandbox('backfill');
    const s = await story(t);
    const period = (granularity: 'day' | 'month') => reports.pointsReportOf(t.workspaceId, { from: s.from, to: s.to, granularity }, noCampaignNames);
    const byMonth = await period('month');
    const byDay = await period('day');
    expect(byMonth.totals).toMatchObject({
      issued: { base: 300, manual: 30, total: 330 },
      reversed: 40,
      expired: 30,
      deducted: 10,
      outstanding: 250,
      pending: 80,
    });

    await dropCounters(t.workspaceId);
    expect((await period('month')).totals).toMatchObject({ issued: { total: 0 }, outstanding: 0, pending: 0 });
    // The overview's totals counted the points issued before the counters existed.
    await documentClientFor(runtime).send(
      new BatchWriteCommand({
        RequestItems: {
          [runtime.tableName]: [{ PutRequest: { Item: { pk: `WS#${t.workspaceId}#FIGURES`, sk: 'SHARD#3', entity: 'workspaceFigures', pointsIssued: 330 } } }],
        },
      }),
    );
    const issuedOnOverview = async () => (await figures.overview(t.workspaceId, async () => 0)).pointsIssued;
    expect(await issuedOnOverview()).toBe(330);
    const cutOver = new Date().toISOString();
    await expect(backfill.backfillPoints(t.workspaceId)).rejects.toMatchObject({ status: 422 });

    // One page of two members (Carol and Ben, newest first), then the rest.
    const first = await backfill.backfillPoints(t.workspaceId, { cutOver, pageSize: 2, pages: 1 });
    expect(first).toMatchObject({ cutOver, members: 2, done: false });
    const partial = await period('month');
    expect(partial.totals.issued.total).toBe(100 + 30 + 0);
    expect(await backfill.backfillPoints(t.workspaceId, { pageSize: 2 })).toMatchObject({ members: 3, done: true, cursor: null });

    expect(await period('month')).toEqual(byMonth);
    expect(await issuedOnOverview()).toBe(330);
    // Day by day, every figure but the pending points before each member's last change (the ledger does not say what waited).
    const withoutPending = (r: typeof byDay) => r.buckets.map(({ pending: _, ...b }) => b);
    const rebuilt = await period('day');
    expect(withoutPending(rebuilt)).toEqual(withoutPending(byDay));
    expect(rebuilt.totals).toEqual(byDay.totals);
    expect(rebuilt.liabilityByExpiry).toEqual(byDay.liabilityByExpiry);

    // Run again, with or without the cut-over: nothing more is counted; another cut-over is refused.
    expect(await backfill.backfillPoints(t.workspaceId)).toMatchObject({ members: 3, done: true });
    expect(await backfill.backfillPoints(t.workspaceId, { cutOver })).toMatchObject({ members: 3, done: true });
    await expect(backfill.backfillPoints(t.workspaceId, { cutOver: new Date().toISOString() })).rejects.toMatchObject({ status: 422 });
    expect(await period('month')).toEqual(byMonth);
  }, 180_000);

  it('counts a change made while it runs once: by its own transaction, not by the backfill', async () => {
    const t = await sandbox('backfill-live');
    const s = await story(t);
    const period = () => reports.pointsReportOf(t.workspaceId, { from: s.from, to: s.to, granularity: 'month' }, noCampaignNames);
    const before = await period();
    await dropCounters(t.workspaceId);
    const cutOver = new Date().toISOString();
    await backfill.backfillPoints(t.workspaceId, { cutOver, pageSize: 2, pages: 1 });
    // Carol, already counted, earns 25 while Ada is still to come.
    await ok('POST', `/api/v2/members/${s.carol}/points`, t.key, { type: 'earn', amount: 25, reason: 'while backfilling' });
    await backfill.backfillPoints(t.workspaceId);
    const after = await period();
    expect(after.totals).toEqual({
      ...before.totals,
      issued: { ...before.totals.issued, manual: before.totals.issued.manual + 25, total: before.totals.issued.total + 25 },
      outstanding: before.totals.outstanding + 25,
    });
    expect(after.liabilityByExpiry.reduce((n, l) => n + l.points, 0)).toBe(after.totals.outstanding);
    expect(after.liabilityByExpiry.find((l) => l.month === null)).toBeUndefined();
  }, 180_000);

  it('runs from the command line, resumed by the same command, and changes nothing once done', async () => {
    const t = await sandbox('backfill-cli');
    const s = await story(t);
    const period = () => reports.pointsReportOf(t.workspaceId, { from: s.from, to: s.to, granularity: 'month' }, noCampaignNames);
    const before = await period();
    await dropCounters(t.workspaceId);
    const env = { ...process.env, STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' };
    const run = async (...args: string[]) =>
      (await promisify(execFile)('npx', ['tsx', 'bin/points-backfill.ts', t.workspaceId, ...args], { env, timeout: 60_000 })).stdout.trim().split('\n');
    const cutOver = new Date().toISOString();
    expect(await run('--cut-over', cutOver, '--page-size', '2', '--pages', '1')).toEqual([`Counted: 2 members, cut-over ${cutOver}`]);
    expect(await run('--page-size', '2')).toEqual([`Done: 3 members, cut-over ${cutOver}`]);
    expect(await run()).toEqual([`Done: 3 members, cut-over ${cutOver}`]);
    expect(await period()).toEqual(before);
  }, 180_000);
});
