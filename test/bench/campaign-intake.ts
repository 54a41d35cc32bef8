import { randomUUID } from 'node:crypto';
import type { RunningPlatform } from '../support/platform';
import { benchWorkspace, load, postJson, warmupRequests, type LoadResult } from './harness';

/**
 * Order intake with five active order campaigns (two grant on every order, three have conditions
 * that do not hold) next to a workspace with none, on the same runtime in the same run, measured
 * alternately in rounds so neither side gets the warmer machine. Target: at most 1.25x the time.
 */
export async function campaignIntake(platform: RunningPlatform, opts: { requests: number; concurrency: number; rounds?: number }) {
  const json = postJson(platform.baseUrl);
  const [plain, withCampaigns] = await Promise.all([
    benchWorkspace(platform.baseUrl, 'Bench no campaigns', opts.concurrency * 8),
    benchWorkspace(platform.baseUrl, 'Bench campaigns', opts.concurrency * 8),
  ]);
  const active = { status: 'active', trigger: { type: 'order' } };
  const campaigns = [
    { ...active, name: 'Ten more', effect: { type: 'bonus_points', points: 10 } },
    { ...active, name: 'Double', effect: { type: 'multiplier', factor: 2 } },
    { ...active, name: 'Big basket', conditions: [{ field: 'order.total', op: 'gte', value: 1000 }], effect: { type: 'bonus_points', points: 100 } },
    { ...active, name: 'Francs', conditions: [{ field: 'order.currency', op: 'eq', value: 'CHF' }], effect: { type: 'bonus_points', points: 5 } },
    { ...active, name: 'Tea', conditions: [{ field: 'order.items.category', op: 'contains', value: 'tea' }], effect: { type: 'multiplier', factor: 3 } },
  ];
  for (const c of campaigns) {
    const res = await json('/api/flash/campaigns', c, withCampaigns.session);
    if (!res.data?.id) throw new Error(`campaign not created: ${JSON.stringify(res)}`);
  }
  const runId = randomUUID().slice(0, 8);
  const order = (ws: { key: string; members: string[] }, run: string) => async (i: number) => {
    const res = await fetch(`${platform.baseUrl}/api/v2/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ws.key}`, 'idempotency-key': `${run}-${i}` },
      body: JSON.stringify({
        externalOrderId: `C-${run}-${i}`,
        memberId: ws.members[i % ws.members.length],
        currency: 'EUR',
        total: 42.5,
        occurredAt: new Date().toISOString(),
        items: [{ sku: 'SKU-1', quantity: 1, unitPrice: 42.5, category: 'coffee' }],
      }),
    });
    await res.arrayBuffer();
    return res.status === 201;
  };
  await load(warmupRequests(opts.requests), opts.concurrency, order(plain, `${runId}-warm-plain`));
  await load(warmupRequests(opts.requests), opts.concurrency, order(withCampaigns, `${runId}-warm-campaigns`));
  const rounds = opts.rounds ?? 3;
  const per = Math.ceil(opts.requests / rounds);
  const none: LoadResult[] = [];
  const five: LoadResult[] = [];
  for (let r = 0; r < rounds; r++) {
    none.push(await load(per, opts.concurrency, order(plain, `${runId}-${r}-plain`)));
    five.push(await load(per, opts.concurrency, order(withCampaigns, `${runId}-${r}-campaigns`)));
  }
  const rate = (xs: LoadResult[]) => Math.round((xs.reduce((s, x) => s + x.perSecond, 0) / xs.length) * 100) / 100;
  const errors = (xs: LoadResult[]) => xs.reduce((s, x) => s + x.errors, 0);
  return {
    name: 'order intake: 5 active campaigns vs none',
    noCampaigns: { perSecond: rate(none), p99Ms: Math.max(...none.map((x) => x.p99Ms)), errors: errors(none) },
    fiveCampaigns: { perSecond: rate(five), p99Ms: Math.max(...five.map((x) => x.p99Ms)), errors: errors(five) },
    timeRatio: Math.round((rate(none) / rate(five)) * 100) / 100,
    target: '<= 1.25 (time per order with five campaigns, two granting, against none)',
  };
}
