import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, tenant, type Tenant } from '../support/fixtures';
import { createReward, fiveOff, memberWith, newPool, newReward, redeem } from '../support/rewards';

const patchReward = (t: Tenant, id: string, body: Record<string, unknown>) => call('PATCH', `/api/v2/rewards/${id}`, { token: t.key, body });
const getReward = (t: Tenant, id: string) => call('GET', `/api/v2/rewards/${id}`, { token: t.key });
const voidIt = (t: Tenant, redemptionId: string, headers?: Record<string, string>) =>
  call('POST', `/api/v2/redemptions/${redemptionId}/void`, { token: t.key, headers });

const ledgerOf = async (t: Tenant, memberId: string): Promise<any[]> =>
  (await call('GET', `/api/v2/members/${memberId}/points?limit=200`, { token: t.key })).body.data.entries;

const redeemedThisMonth = async (t: Tenant): Promise<number> => {
  const res = await call('GET', '/api/flash/reports/points', { token: t.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.totals.redeemed;
};

describe('the rewards catalog', () => {
  it('creates a draft by default, idempotently, and reads it back', async () => {
    const t = await tenant('rewards-crud');
    const pool = await newPool(t);
    const body = {
      name: 'Free shipping',
      description: 'On your next order',
      imageUrl: 'https://cdn.example.com/ship.png',
      pointsCost: 250,
      benefit: { type: 'free_shipping' },
      minimumSpend: { amount: 2000, currency: 'EUR' },
      validityDays: 30,
      stock: 5,
      perMemberLimit: 2,
      availableFrom: '2026-01-01T01:00:00+01:00',
      allowedTiers: ['bronze', 'gold'],
      couponPoolId: pool.id,
    };
    const headers = { 'Idempotency-Key': 'reward-create-1' };
    const [first, again] = [await createReward(t, body, headers), await createReward(t, body, headers)];
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    const reward = first.body.data;
    expect(reward).toMatchObject({
      ...body,
      id: expect.stringMatching(/^rwd_/),
      availableFrom: '2026-01-01T00:00:00.000Z',
      availableUntil: null,
      remaining: 5,
      status: 'draft',
      version: 1,
    });
    expect((await getReward(t, reward.id)).body.data).toEqual(reward);
    const list = await call('GET', '/api/v2/rewards', { token: t.key });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([reward.id]);

    const audit = await call('GET', '/api/flash/audit?action=reward.created', { token: t.token });
    expect(audit.body.data).toEqual([expect.objectContaining({ target: { type: 'reward', id: reward.id, href: null } })]);
  });

  it('lists newest first and by status', async () => {
    const t = await tenant('rewards-list');
    const a = await newReward(t, { name: 'A' });
    const b = await newReward(t, { name: 'B', status: 'draft' });
    const c = await newReward(t, { name: 'C' });
    const ids = async (q: string) => (await call('GET', `/api/v2/rewards${q}`, { token: t.key })).body.data.map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?status=active')).toEqual([c.id, a.id]);
    expect(await ids('?status=draft')).toEqual([b.id]);
    const page = await call('GET', '/api/v2/rewards?limit=1', { token: t.key });
    expect(page.body.data.map((r: { id: string }) => r.id)).toEqual([c.id]);
    expect(page.body.nextCursor).toEqual(expect.any(String));
  });

  it('changes a reward under its version, moves it between statuses, and keeps an archived one archived', async () => {
    const t = await tenant('rewards-update');
    const r = await newReward(t, { status: 'draft', stock: 3 });
    const changed = await patchReward(t, r.id, { name: 'Now 6 € off', benefit: { type: 'fixed_discount', amount: 600, currency: 'EUR' }, version: 1 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Now 6 € off', pointsCost: 100, stock: 3, remaining: 3, status: 'draft', version: 2 });
    const stale = await patchReward(t, r.id, { name: 'Lost update', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('CONFLICT');
    expect((await getReward(t, r.id)).body.data.name).toBe('Now 6 € off');
    for (const status of ['active', 'paused', 'active', 'archived']) {
      const res = await patchReward(t, r.id, { status });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.status).toBe(status);
    }
    const back = await patchReward(t, r.id, { status: 'active' });
    expect(back.status).toBe(409);
    expect((await getReward(t, r.id)).body.data).toMatchObject({ status: 'archived', version: 6 });
    const audit = await call('GET', '/api/flash/audit?action=reward.updated', { token: t.token });
    expect(audit.body.data).toHaveLength(5);
  });

  it('refuses what is invalid with 422 naming the field', async () => {
    const t = await tenant('rewards-invalid');
    const cases: [Record<string, unknown>, string][] = [
      [{ pointsCost: 0 }, 'pointsCost'],
      [{ benefit: { type: 'percent_discount', percent: 120, maxDiscount: null } }, 'benefit.percent'],
      [{ benefit: { type: 'gift_card' } }, 'benefit.type'],
      [{ imageUrl: 'http://insecure.example.com/a.png' }, 'imageUrl'],
      [{ availableFrom: '2026-02-01T00:00:00Z', availableUntil: '2026-01-01T00:00:00Z' }, 'availableUntil'],
      [{ couponPoolId: 'cpl_01jpz8e5g7j9m1p3s5v7x9z1br' }, 'couponPoolId'],
      [{ allowedTiers: ['gold', 'diamond'] }, 'allowedTiers.1'],
      [{ stock: -1 }, 'stock'],
    ];
    for (const [over, field] of cases) {
      const res = await createReward(t, fiveOff(over));
      expect(res.status, JSON.stringify(over)).toBe(422);
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        JSON.stringify(over),
      ).toContain(field);
    }
    const r = await newReward(t);
    const empty = await patchReward(t, r.id, {});
    expect(empty.status).toBe(422);
    const badWindow = await patchReward(t, r.id, { availableUntil: '2000-01-01T00:00:00Z', availableFrom: '2001-01-01T00:00:00Z' });
    expect(badWindow.status).toBe(422);
    expect((await call('GET', '/api/v2/rewards?status=gone', { token: t.key })).status).toBe(422);
    expect((await call('GET', '/api/v2/rewards', { token: t.key })).body.data).toHaveLength(1);
  });

  it('a new stock moves what remains by as much, never below the live redemptions', async () => {
    const t = await tenant('rewards-stock');
    const r = await newReward(t, { stock: 3 });
    const [m1, m2] = await Promise.all([memberWith(t, 500), memberWith(t, 500)]);
    expect((await redeem(t, r.id, m1.id)).status).toBe(201);
    expect((await redeem(t, r.id, m2.id)).status).toBe(201);
    const lower = await patchReward(t, r.id, { stock: 1 });
    expect(lower.status).toBe(409);
    expect((await patchReward(t, r.id, { stock: 2 })).body.data).toMatchObject({ stock: 2, remaining: 0 });
    expect((await patchReward(t, r.id, { stock: 10 })).body.data).toMatchObject({ stock: 10, remaining: 8 });
    expect((await patchReward(t, r.id, { stock: null })).body.data).toMatchObject({ stock: null, remaining: null });
  });
});

describe('redeeming a reward', () => {
  it('takes the points as a redemption entry, draws a code from the pool and lists it for the member', async () => {
    const t = await tenant('rewards-redeem');
    const pool = await newPool(t);
    const r = await newReward(t, { couponPoolId: pool.id, stock: 5, validityDays: 30 });
    const m = await memberWith(t, 300);
    const res = await redeem(t, r.id, m.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const redemption = res.body.data;
    expect(redemption).toMatchObject({
      id: expect.stringMatching(/^rdm_/),
      rewardId: r.id,
      rewardName: '5 € off',
      memberId: m.id,
      pointsSpent: 100,
      status: 'issued',
      couponId: expect.stringMatching(/^cpn_/),
      couponCode: expect.stringMatching(/^RW-/),
      voidEntryId: null,
      voidedAt: null,
    });
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 200, pending: 0, lifetime: 300 });
    const [entry] = await ledgerOf(t, m.id);
    expect(entry).toMatchObject({
      id: redemption.ledgerEntryId,
      type: 'redemption',
      amount: -100,
      balanceAfter: 200,
      source: { type: 'reward', rewardId: r.id, redemptionId: redemption.id },
    });
    const coupons = await call('GET', `/api/v2/members/${m.id}/coupons`, { token: t.key });
    expect(coupons.body.data).toEqual([expect.objectContaining({ id: redemption.couponId, code: redemption.couponCode, poolId: pool.id, pointsCost: 100 })]);
    const validUntil = Date.parse(coupons.body.data[0].validUntil);
    expect(validUntil - Date.parse(redemption.createdAt)).toBe(30 * 86_400_000);
    expect((await getReward(t, r.id)).body.data.remaining).toBe(4);
    const list = await call('GET', `/api/v2/members/${m.id}/redemptions`, { token: t.key });
    expect(list.body.data).toEqual([redemption]);
    expect(await redeemedThisMonth(t)).toBe(100);
  });

  it('50 members at once on a stock of 10: exactly 10 redeem, the rest are told it is out of stock, every balance exact', async () => {
    const t = await tenant('rewards-race');
    const pool = await newPool(t);
    const r = await newReward(t, { couponPoolId: pool.id, stock: 10, pointsCost: 120 });
    const members = await Promise.all(Array.from({ length: 50 }, () => memberWith(t, 200)));
    const results = await Promise.all(members.map((m) => redeem(t, r.id, m.id)));
    const won = results.filter((x) => x.status === 201);
    const lost = results.filter((x) => x.status !== 201);
    expect(won).toHaveLength(10);
    for (const x of lost) {
      expect(x.status, JSON.stringify(x.body)).toBe(409);
      expect(x.body.error.code).toBe('REWARD_OUT_OF_STOCK');
    }
    const winners = new Set(won.map((x) => x.body.data.memberId));
    const balances = await Promise.all(members.map((m) => balanceOf(t.key, m.id)));
    expect(balances.map((b) => b.balance)).toEqual(members.map((m) => (winners.has(m.id) ? 80 : 200)));
    expect(new Set(won.map((x) => x.body.data.couponCode)).size).toBe(10);
    expect((await getReward(t, r.id)).body.data.remaining).toBe(0);
    const pools = await call('GET', '/api/v2/coupons/pools', { token: t.key });
    expect(pools.body.data[0]).toMatchObject({ id: pool.id, issued: 10, remaining: 90 });
    expect(await redeemedThisMonth(t)).toBe(1200);
  });

  it('honours the per-member limit, and a void frees it again', async () => {
    const t = await tenant('rewards-limit');
    const r = await newReward(t, { perMemberLimit: 1 });
    const m = await memberWith(t, 1000);
    const first = await redeem(t, r.id, m.id);
    expect(first.status).toBe(201);
    const second = await redeem(t, r.id, m.id);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('REWARD_LIMIT_REACHED');
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 900 });
    expect((await voidIt(t, first.body.data.id)).status).toBe(200);
    expect((await redeem(t, r.id, m.id)).status).toBe(201);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 900 });
  });

  it('the per-member limit holds under parallel redemptions of one member', async () => {
    const t = await tenant('rewards-limit-race');
    const r = await newReward(t, { perMemberLimit: 2 });
    const m = await memberWith(t, 1000);
    const results = await Promise.all(Array.from({ length: 6 }, () => redeem(t, r.id, m.id)));
    expect(results.filter((x) => x.status === 201)).toHaveLength(2);
    for (const x of results.filter((y) => y.status !== 201)) expect(x.body.error.code).toBe('REWARD_LIMIT_REACHED');
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 800 });
  });

  it('an empty pool refuses the redemption as an issue would, and nothing is taken', async () => {
    const t = await tenant('rewards-pool-empty');
    const pool = await newPool(t, 1);
    const r = await newReward(t, { couponPoolId: pool.id, stock: 5 });
    const [m1, m2] = await Promise.all([memberWith(t, 300), memberWith(t, 300)]);
    expect((await redeem(t, r.id, m1.id)).status).toBe(201);
    const res = await redeem(t, r.id, m2.id);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('POOL_EXHAUSTED');
    expect(await balanceOf(t.key, m2.id)).toMatchObject({ balance: 300 });
    expect((await getReward(t, r.id)).body.data.remaining).toBe(4);
    expect((await call('GET', `/api/v2/members/${m2.id}/redemptions`, { token: t.key })).body.data).toEqual([]);
  });

  it('refuses a short balance with INSUFFICIENT_POINTS and writes nothing', async () => {
    const t = await tenant('rewards-short');
    const pool = await newPool(t);
    const r = await newReward(t, { couponPoolId: pool.id, stock: 3, pointsCost: 100 });
    const m = await memberWith(t, 99);
    const res = await redeem(t, r.id, m.id);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('INSUFFICIENT_POINTS');
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 99 });
    expect((await getReward(t, r.id)).body.data.remaining).toBe(3);
    expect((await call('GET', `/api/v2/members/${m.id}/redemptions`, { token: t.key })).body.data).toEqual([]);
    expect((await call('GET', `/api/v2/members/${m.id}/coupons`, { token: t.key })).body.data).toEqual([]);
    expect(await ledgerOf(t, m.id)).toHaveLength(1);
  });

  it('refuses a reward that is not active, outside its window or not for the member’s tier', async () => {
    const t = await tenant('rewards-rules');
    // 400 lifetime points: bronze (silver starts at 500).
    const m = await memberWith(t, 400);
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'draft' }, 'REWARD_NOT_AVAILABLE'],
      [{ status: 'paused' }, 'REWARD_NOT_AVAILABLE'],
      [{ availableFrom: '2099-01-01T00:00:00Z' }, 'REWARD_NOT_AVAILABLE'],
      [{ availableUntil: '2001-01-01T00:00:00Z' }, 'REWARD_NOT_AVAILABLE'],
      [{ allowedTiers: ['gold'] }, 'REWARD_TIER_NOT_ALLOWED'],
      [{ stock: 0 }, 'REWARD_OUT_OF_STOCK'],
    ];
    for (const [over, code] of cases) {
      const r = await newReward(t, over);
      const res = await redeem(t, r.id, m.id);
      expect(res.status, JSON.stringify(over)).toBe(409);
      expect(res.body.error.code, JSON.stringify(over)).toBe(code);
    }
    const bronze = await newReward(t, { allowedTiers: ['bronze'] });
    expect((await redeem(t, bronze.id, m.id)).status).toBe(201);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 300 });
    const unknown = await redeem(t, bronze.id, 'mbr_01jpz8k3m2q7v5x9c4t6r8w2ya');
    expect(unknown.status).toBe(404);
    expect((await redeem(t, 'rwd_01jpz8h7k9m1p3r5t7v9x1z3bc', m.id)).status).toBe(404);
  });

  it('answers a retried redemption with its Idempotency-Key once, points taken once', async () => {
    const t = await tenant('rewards-idem');
    const r = await newReward(t);
    const m = await memberWith(t, 500);
    const headers = { 'Idempotency-Key': 'redeem-once' };
    const [a, b] = await Promise.all([redeem(t, r.id, m.id, headers), redeem(t, r.id, m.id, headers)]);
    const done = [a, b].filter((x) => x.status === 201);
    expect(done.length).toBeGreaterThanOrEqual(1);
    const again = await redeem(t, r.id, m.id, headers);
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(done[0]!.body.data);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 400 });
  });
});

describe('voiding a redemption', () => {
  it('gives the points back once under 6 parallel retries, voids the coupon and returns the stock', async () => {
    const t = await tenant('rewards-void');
    const pool = await newPool(t);
    const r = await newReward(t, { couponPoolId: pool.id, stock: 2 });
    const m = await memberWith(t, 300);
    const redemption = (await redeem(t, r.id, m.id)).body.data;
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 200 });
    const results = await Promise.all(Array.from({ length: 6 }, () => voidIt(t, redemption.id)));
    for (const x of results) {
      expect(x.status, JSON.stringify(x.body)).toBe(200);
      expect(x.body.data).toMatchObject({ id: redemption.id, status: 'voided', voidEntryId: expect.stringMatching(/^ple_/) });
    }
    expect(new Set(results.map((x) => x.body.data.voidEntryId)).size).toBe(1);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 300, pending: 0, lifetime: 300 });
    const entries = await ledgerOf(t, m.id);
    expect(entries.map((e) => e.type)).toEqual(['redemption_void', 'redemption', 'earn']);
    expect(entries[0]).toMatchObject({
      id: results[0]!.body.data.voidEntryId,
      amount: 100,
      balanceAfter: 300,
      source: { type: 'reward', rewardId: r.id, redemptionId: redemption.id },
    });
    const coupons = await call('GET', `/api/v2/members/${m.id}/coupons`, { token: t.key });
    expect(coupons.body.data).toEqual([expect.objectContaining({ id: redemption.couponId, status: 'voided' })]);
    expect((await getReward(t, r.id)).body.data.remaining).toBe(2);
    expect((await call('GET', `/api/v2/members/${m.id}/redemptions?status=voided`, { token: t.key })).body.data).toHaveLength(1);
    expect((await call('GET', `/api/v2/members/${m.id}/redemptions?status=issued`, { token: t.key })).body.data).toHaveLength(0);
    // The month's report: redeemed counts the redemption less its void.
    expect(await redeemedThisMonth(t)).toBe(0);
    const audit = await call('GET', '/api/flash/audit?action=redemption.voided', { token: t.token });
    expect(audit.body.data).toEqual([expect.objectContaining({ target: { type: 'redemption', id: redemption.id, href: null } })]);
  });

  it('refuses a redemption whose code was used, and a correction of a redemption entry', async () => {
    const t = await tenant('rewards-used');
    const pool = await newPool(t);
    const r = await newReward(t, { couponPoolId: pool.id });
    const m = await memberWith(t, 300);
    const redemption = (await redeem(t, r.id, m.id)).body.data;
    const reversed = await call('POST', `/api/v2/members/${m.id}/ledger/${redemption.ledgerEntryId}/reverse`, { token: t.key, body: { reason: 'oops' } });
    expect(reversed.status).toBe(409);
    expect(reversed.body.error.message).toContain('void the redemption');
    expect((await call('POST', `/api/v2/coupons/${redemption.couponId}/redeem`, { token: t.key, body: {} })).status).toBe(200);
    const res = await voidIt(t, redemption.id);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('REDEMPTION_USED');
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 200 });
    expect((await voidIt(t, 'rdm_01jpz8y6a8c0e2g4j6m8p0r2sd')).status).toBe(404);
  });
});

describe('voiding a redemption whose code expired unused', () => {
  const advance = async (t: Tenant, days: number) => {
    const res = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const redemptionOf = async (t: Tenant, memberId: string, id: string) =>
    (await call('GET', `/api/v2/members/${memberId}/redemptions`, { token: t.key })).body.data.find((x: { id: string }) => x.id === id);

  it('the due work voids it once its code expired, for a reward that says so: points, stock and code back, no audit entry', async () => {
    const t = await tenant('rewards-expiry', { sandbox: true });
    const pool = await newPool(t);
    const giving = await newReward(t, { couponPoolId: pool.id, stock: 5, validityDays: 2, voidWhenExpired: true });
    expect(giving.voidWhenExpired).toBe(true);
    const keeping = await newReward(t, { couponPoolId: pool.id, validityDays: 2 });
    expect(keeping.voidWhenExpired).toBe(false);
    const m = await memberWith(t, 500);
    const expiring = (await redeem(t, giving.id, m.id)).body.data;
    const used = (await redeem(t, giving.id, m.id)).body.data;
    const kept = (await redeem(t, keeping.id, m.id)).body.data;
    // A code redeemed at the till outside checkout: nothing to void.
    expect((await call('POST', `/api/v2/coupons/${used.couponId}/redeem`, { token: t.key, body: {} })).status).toBe(200);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 200 });

    // A day on, the codes are still valid: nothing moves.
    await advance(t, 1);
    expect(await redemptionOf(t, m.id, expiring.id)).toMatchObject({ status: 'issued' });
    await advance(t, 2);
    expect(await redemptionOf(t, m.id, expiring.id)).toMatchObject({ status: 'voided', voidEntryId: expect.stringMatching(/^ple_/) });
    expect(await redemptionOf(t, m.id, used.id)).toMatchObject({ status: 'issued' });
    expect(await redemptionOf(t, m.id, kept.id)).toMatchObject({ status: 'issued' });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 300 });
    const entries = await ledgerOf(t, m.id);
    expect(entries[0]).toMatchObject({ type: 'redemption_void', amount: 100, reason: `Redemption ${expiring.id} voided: its code expired unused` });
    expect((await getReward(t, giving.id)).body.data.remaining).toBe(4);
    const coupons = (await call('GET', `/api/v2/members/${m.id}/coupons`, { token: t.key })).body.data;
    expect(coupons.find((c: { id: string }) => c.id === expiring.couponId)).toMatchObject({ status: 'voided' });
    // The program's own work, as an expiry: in the ledger and the event, not in the people's audit log.
    const audit = await call('GET', '/api/flash/audit?action=redemption.voided', { token: t.token });
    expect(audit.body.data).toEqual([]);

    // Later runs find nothing more to do: each point came back once.
    await advance(t, 3);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 300 });
    expect((await ledgerOf(t, m.id)).filter((e) => e.type === 'redemption_void')).toHaveLength(1);
  });

  it('changes only with the flag: switched on later, it applies to the redemptions made from then on', async () => {
    const t = await tenant('rewards-expiry-flag', { sandbox: true });
    const pool = await newPool(t);
    const r = await newReward(t, { couponPoolId: pool.id, validityDays: 1 });
    const m = await memberWith(t, 300);
    const before = (await redeem(t, r.id, m.id)).body.data;
    const patched = await patchReward(t, r.id, { voidWhenExpired: true });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.voidWhenExpired).toBe(true);
    const after = (await redeem(t, r.id, m.id)).body.data;
    await advance(t, 2);
    expect(await redemptionOf(t, m.id, before.id)).toMatchObject({ status: 'issued' });
    expect(await redemptionOf(t, m.id, after.id)).toMatchObject({ status: 'voided' });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 200 });
    expect((await patchReward(t, r.id, { voidWhenExpired: 'yes' })).status).toBe(422);
  });
});

describe('rewards across workspaces', () => {
  it("another workspace's key finds none of them (404) and changes nothing", async () => {
    const [a, b] = await Promise.all([tenant('rewards-a'), tenant('rewards-b')]);
    const r = await newReward(a);
    const m = await memberWith(a, 300);
    const redemption = (await redeem(a, r.id, m.id)).body.data;
    const bm = await memberWith(b, 300);
    for (const res of [
      await getReward(b, r.id),
      await patchReward(b, r.id, { name: 'stolen' }),
      await redeem(b, r.id, bm.id),
      await redeem(b, r.id, m.id),
      await voidIt(b, redemption.id),
      await call('GET', `/api/v2/members/${m.id}/redemptions`, { token: b.key }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
    }
    expect((await call('GET', '/api/v2/rewards', { token: b.key })).body.data).toEqual([]);
    expect((await getReward(a, r.id)).body.data).toMatchObject({ name: '5 € off', version: 1 });
    expect((await call('GET', `/api/v2/members/${m.id}/redemptions`, { token: a.key })).body.data).toEqual([redemption]);
    expect(await balanceOf(a.key, m.id)).toMatchObject({ balance: 200 });
    expect(await balanceOf(b.key, bm.id)).toMatchObject({ balance: 300 });
  });
});
