import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { performance } from 'node:perf_hooks';
import { keyOf } from '../../shared/platform/data/keys';
import { POINTS_SHARDS } from '../../shared/overview/points-repository';
import { daysBetween } from '../../shared/overview/points-report';
import { documentClientFor, type RunningPlatform } from '../support/platform';

const round = (n: number) => Math.round(n * 100) / 100;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** What a seeded year adds up to: the report over it must answer these. */
export interface SeededYear {
  from: string;
  to: string;
  issued: number;
  redeemed: number;
  expired: number;
  outstanding: number;
  items: number;
}

/**
 * A year of a workspace of `members` members as its day counters would stand: every shard of every
 * day from `from` written, with what a programme of that size moves in a day (about one order a
 * member a month) and a dated expiry month per item, as the ledger's transactions leave them. Put
 * straight into the table in batches (through the API a year would take a year).
 */
export async function seedPointsYear(
  doc: DynamoDBDocumentClient,
  tableName: string,
  workspaceId: string,
  members: number,
  from = '2025-01-01',
): Promise<SeededYear> {
  const days = daysBetween(from, `${Number(from.slice(0, 4))}-12-31`);
  const perShardOrders = Math.round(members / 30 / POINTS_SHARDS);
  const sum = { issued: 0, redeemed: 0, expired: 0, outstanding: 0 };
  const rows: Record<string, unknown>[] = [];
  days.forEach((day, d) => {
    for (let shard = 0; shard < POINTS_SHARDS; shard++) {
      const issuedBase = perShardOrders * 50 + ((d * 7 + shard) % 97);
      const issuedCampaign = perShardOrders * 5;
      const issuedManual = 100 + shard;
      const redeemed = Math.round(issuedBase * 0.4);
      const reversed = Math.round(issuedBase * 0.03);
      const expired = Math.round(issuedBase * 0.1);
      const deducted = 20;
      const net = issuedBase + issuedCampaign + issuedManual - redeemed - reversed - expired - deducted;
      const expiresIn = `${Number(day.slice(0, 4)) + 1}-${day.slice(5, 7)}`;
      rows.push({
        ...keyOf('pointsDay', { workspaceId, shard, day }),
        entity: 'pointsDay',
        day,
        issuedBase,
        issuedCampaign,
        issuedManual,
        redeemed,
        reversed,
        expired,
        deducted,
        pending: d % 2 === 0 ? 500 : -480,
        orders: perShardOrders,
        [`x${expiresIn}`]: net,
      });
      sum.issued += issuedBase + issuedCampaign + issuedManual;
      sum.redeemed += redeemed;
      sum.expired += expired;
      sum.outstanding += net;
    }
  });
  for (let i = 0; i < rows.length; i += 25 * 8) {
    const batch = [];
    for (let j = i; j < Math.min(rows.length, i + 25 * 8); j += 25) batch.push(rows.slice(j, j + 25));
    await Promise.all(batch.map((c) => doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: c.map((Item) => ({ PutRequest: { Item } })) } }))));
  }
  return { from: days[0]!, to: days.at(-1)!, ...sum, items: rows.length };
}

/**
 * The points report over a year of a 1,000,000-member workspace (seeded day counters, 8 shards):
 * `GET /api/flash/reports/points` by day and by month through the local HTTP API, next to the
 * overview's own answer in the same run, once the first reads folded the closed months. Target:
 * the report answers within 1 s (p99).
 */
export async function pointsReportBench(platform: RunningPlatform, opts: { members: number; samples: number }) {
  const reg = (await (
    await fetch(`${platform.baseUrl}/api/v2/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workspaceName: 'Bench report', email: `report-${Date.now()}@example.test`, password: 'bench password 1' }),
    })
  ).json()) as any;
  const session = reg.data.session.token as string;
  const runtime = await platform.runtime();
  const seeded = await seedPointsYear(documentClientFor(runtime), runtime.tableName, reg.data.workspace.id, opts.members);
  const get = async (path: string, check?: (data: any) => void) => {
    const res = await fetch(platform.baseUrl + path, { headers: { authorization: `Bearer ${session}` } });
    const body = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    check?.(body.data);
  };
  const exact = (data: any) => {
    if (data.totals.issued.total !== seeded.issued || data.totals.outstanding !== seeded.outstanding)
      throw new Error(`report totals ${JSON.stringify(data.totals)}`);
  };
  const calls = {
    byDay: () => get(`/api/flash/reports/points?from=${seeded.from}&to=${seeded.to}&granularity=day`, exact),
    byMonth: () => get(`/api/flash/reports/points?from=${seeded.from}&to=${seeded.to}&granularity=month`, exact),
    overview: () => get('/api/flash/overview'),
  };
  const samples: Record<keyof typeof calls, number[]> = { byDay: [], byMonth: [], overview: [] };
  // The first reads fold the closed months into roll-ups (a month of every shard per read), as the
  // reads after each month's end leave a workspace: what is measured is a year of roll-ups.
  const firstReadMs = performance.now();
  await calls.byDay();
  const firstRead = round(performance.now() - firstReadMs);
  for (let i = 0; i < 11; i++) await calls.byMonth();
  for (let i = 0; i < 3; i++) for (const fn of Object.values(calls)) await fn();
  for (let i = 0; i < opts.samples; i++) {
    for (const [name, fn] of Object.entries(calls) as [keyof typeof calls, () => Promise<void>][]) {
      const t = performance.now();
      await fn();
      samples[name].push(performance.now() - t);
    }
  }
  const stats = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)) };
  };
  const byDay = stats(samples.byDay);
  return {
    name: `points report: a year of a ${opts.members}-member workspace (${seeded.items} day items in ${POINTS_SHARDS} shards, folded into month roll-ups by the first reads), by day and by month`,
    samples: opts.samples,
    firstReadMs: firstRead,
    byDay,
    byMonth: stats(samples.byMonth),
    overview: stats(samples.overview),
    p99RatioToOneSecond: round(byDay.p99Ms / 1000),
    target: 'p99RatioToOneSecond <= 1',
  };
}
