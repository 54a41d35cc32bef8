import { randomUUID } from 'node:crypto';
import { documentClientFor, type RunningPlatform } from '../support/platform';
import { cpuOver, withCpu, type CpuPerRequest } from './cpu';
import { benchWorkspace, load, postJson, warmupRequests, type LoadResult } from './harness';
import { anatomyRow, orderAnatomy, sameItemsTransaction } from './order-anatomy';
import { postOrder } from './order-intake';

/** A coffee line and a tea line (each with its price and category: the tea campaign rewards its line alone). */
const basket = (members: readonly string[], run: string) => (i: number) => ({
  externalOrderId: `C-${run}-${i}`,
  memberId: members[i % members.length],
  currency: 'EUR',
  total: 42.5,
  occurredAt: new Date().toISOString(),
  items: [
    { sku: 'SKU-1', quantity: 1, unitPrice: 30, category: 'coffee' },
    { sku: 'TEA-1', quantity: 1, unitPrice: 12.5, category: 'tea' },
  ],
});

const active = { status: 'active', trigger: { type: 'order' } };
/** Five active order campaigns: a bonus and a multiplier on every order, a line multiplier on the tea line, two whose conditions do not hold. */
const CAMPAIGNS = [
  { ...active, name: 'Ten more', effect: { type: 'bonus_points', points: 10 } },
  { ...active, name: 'Double', effect: { type: 'multiplier', factor: 2 } },
  { ...active, name: 'Big basket', conditions: [{ field: 'order.total', op: 'gte', value: 1000 }], effect: { type: 'bonus_points', points: 100 } },
  { ...active, name: 'Francs', conditions: [{ field: 'order.currency', op: 'eq', value: 'CHF' }], effect: { type: 'bonus_points', points: 5 } },
  { ...active, name: 'Tea', conditions: [{ field: 'order.items.category', op: 'contains', value: 'tea' }], effect: { type: 'multiplier', factor: 3 } },
];

/**
 * Order intake with five active order campaigns (three grant: a bonus, a whole-order multiplier and
 * a multiplier of the tea line alone, which is line-level earning; two have conditions that do not
 * hold) next to a workspace with none, the same basket on the same runtime in the same run, measured
 * alternately in rounds so neither side gets the warmer machine. Target: at most 1.25x the time.
 * Beside it, what each order costs the store and a raw transaction of the same items for each side:
 * the ratio of those two is what the store alone allows.
 */
export async function campaignIntake(platform: RunningPlatform, opts: { requests: number; concurrency: number; rounds?: number }) {
  const json = postJson(platform.baseUrl);
  const [plain, withCampaigns] = await Promise.all([
    benchWorkspace(platform.baseUrl, 'Bench no campaigns', opts.concurrency * 8),
    benchWorkspace(platform.baseUrl, 'Bench campaigns', opts.concurrency * 8),
  ]);
  for (const c of CAMPAIGNS) {
    const res = await json('/api/flash/campaigns', c, withCampaigns.session);
    if (!res.data?.id) throw new Error(`campaign not created: ${JSON.stringify(res)}`);
  }
  const runId = randomUUID().slice(0, 8);
  const runtime = await platform.runtime();
  const doc = documentClientFor(runtime);
  const anatomy = {
    none: await orderAnatomy(platform, plain.key, basket(plain.members, `${runId}-anatomy`)),
    five: await orderAnatomy(platform, withCampaigns.key, basket(withCampaigns.members, `${runId}-anatomy`)),
  };
  const order = (ws: { key: string; members: string[] }, run: string) => postOrder(platform.baseUrl, ws.key, run, basket(ws.members, run));
  const same = (side: keyof typeof anatomy, run: string) => sameItemsTransaction(doc, runtime.tableName, anatomy[side].stored, `${side}-${run}`);
  const warmup = warmupRequests(opts.requests);
  await load(warmup, opts.concurrency, order(plain, `${runId}-warm-plain`));
  await load(warmup, opts.concurrency, order(withCampaigns, `${runId}-warm-campaigns`));
  await load(warmup, opts.concurrency, same('none', `${runId}-warm`));
  await load(warmup, opts.concurrency, same('five', `${runId}-warm`));
  const rounds = opts.rounds ?? 3;
  const per = Math.ceil(opts.requests / rounds);
  type Measured = { result: LoadResult; cpu: CpuPerRequest; requests: number };
  const sides = { none: [] as Measured[], five: [] as Measured[], rawNone: [] as Measured[], rawFive: [] as Measured[] };
  const measure = async (into: Measured[], op: (i: number) => Promise<boolean>) => {
    const m = await withCpu(runtime, per, () => load(per, opts.concurrency, op));
    into.push({ result: m.result, cpu: m.cpuMsPerRequest, requests: per });
  };
  for (let r = 0; r < rounds; r++) {
    await measure(sides.none, order(plain, `${runId}-${r}-plain`));
    await measure(sides.five, order(withCampaigns, `${runId}-${r}-campaigns`));
    await measure(sides.rawNone, same('none', `${runId}-${r}`));
    await measure(sides.rawFive, same('five', `${runId}-${r}`));
  }
  const rate = (xs: Measured[]) => Math.round((xs.reduce((s, x) => s + x.result.perSecond, 0) / xs.length) * 100) / 100;
  const summary = (xs: Measured[]) => ({
    perSecond: rate(xs),
    p99Ms: Math.max(...xs.map((x) => x.result.p99Ms)),
    errors: xs.reduce((s, x) => s + x.result.errors, 0),
    cpuMsPerOrder: cpuOver(xs),
  });
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    name: 'order intake: 5 active campaigns (3 granting, one on a line) vs none',
    perOrder: { noCampaigns: anatomyRow(anatomy.none), fiveCampaigns: anatomyRow(anatomy.five) },
    noCampaigns: summary(sides.none),
    fiveCampaigns: summary(sides.five),
    rawSameItems: { noCampaigns: summary(sides.rawNone), fiveCampaigns: summary(sides.rawFive) },
    timeRatio: ratio(rate(sides.none), rate(sides.five)),
    target: '<= 1.25 (time per order with five campaigns against none)',
    /** What the store alone allows: the raw transactions of the two orders' items, one against the other. */
    rawTimeRatio: ratio(rate(sides.rawNone), rate(sides.rawFive)),
    vsRawSameItems: { noCampaigns: ratio(rate(sides.none), rate(sides.rawNone)), fiveCampaigns: ratio(rate(sides.five), rate(sides.rawFive)) },
  };
}
