import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, tenant } from '../support/fixtures';

const points = (key: string, memberId: string, body: unknown, headers?: Record<string, string>) =>
  call('POST', `/api/v2/members/${memberId}/points`, { token: key, body, headers });

describe('points ledger', () => {
  it('manual earn and deduct write ledger entries with the balance after; lifetime ignores spending', async () => {
    const t = await tenant('points');
    const m = await newMember(t.key);
    const earn = await points(t.key, m.id, { type: 'earn', amount: 300, reason: 'welcome bonus' });
    expect(earn.status).toBe(201);
    expect(earn.body.data.entry).toMatchObject({ type: 'earn', amount: 300, balanceAfter: 300, reason: 'welcome bonus', source: { type: 'manual' } });
    expect(earn.body.data.entry.id).toMatch(/^ple_/);
    const deduct = await points(t.key, m.id, { type: 'deduct', amount: 120, reason: 'reward' });
    expect(deduct.status).toBe(201);
    expect(deduct.body.data.entry).toMatchObject({ type: 'deduct', amount: -120, balanceAfter: 180 });
    expect(deduct.body.data.points).toEqual({ balance: 180, pending: 0, lifetime: 300 });

    const ledger = await call('GET', `/api/v2/members/${m.id}/points?limit=1`, { token: t.key });
    expect(ledger.status).toBe(200);
    expect(ledger.body.data).toMatchObject({ balance: 180, pending: 0, lifetime: 300 });
    expect(ledger.body.data.entries).toHaveLength(1);
    expect(ledger.body.data.entries[0].type).toBe('deduct');
    const next = await call('GET', `/api/v2/members/${m.id}/points?limit=1&cursor=${encodeURIComponent(ledger.body.nextCursor)}`, { token: t.key });
    expect(next.body.data.entries[0].type).toBe('earn');
  });

  it('refuses a deduction beyond the balance with 409 INSUFFICIENT_POINTS and changes nothing', async () => {
    const t = await tenant('insufficient');
    const m = await newMember(t.key);
    await points(t.key, m.id, { type: 'earn', amount: 50, reason: 'x' });
    const res = await points(t.key, m.id, { type: 'deduct', amount: 51, reason: 'too much' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('INSUFFICIENT_POINTS');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 50, pending: 0, lifetime: 50 });
    const ledger = await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key });
    expect(ledger.body.data.entries).toHaveLength(1);
  });

  it('validates the body', async () => {
    const t = await tenant('points-val');
    const m = await newMember(t.key);
    const res = await points(t.key, m.id, { type: 'gift', amount: -3, reason: '' });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['amount', 'reason', 'type']);
  });

  it('50 parallel awards and deductions: balance equals the ledger sum and never goes below zero', async () => {
    const t = await tenant('race');
    const m = await newMember(t.key);
    await points(t.key, m.id, { type: 'earn', amount: 100, reason: 'seed' });
    const ops = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? { type: 'earn', amount: 10 } : { type: 'deduct', amount: 30 }));
    const results = await Promise.all(ops.map((op, i) => points(t.key, m.id, { ...op, reason: `op ${i}` })));
    for (const r of results) expect([201, 409]).toContain(r.status);
    const refused = results.filter((r) => r.status === 409);
    for (const r of refused) expect(r.body.error.code).toBe('INSUFFICIENT_POINTS');

    const entries: { amount: number; balanceAfter: number }[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call('GET', `/api/v2/members/${m.id}/points?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: t.key });
      entries.push(...page.body.data.entries);
      cursor = page.body.nextCursor;
    } while (cursor);
    const accepted = results.filter((r) => r.status === 201).length;
    expect(entries).toHaveLength(accepted + 1);
    const sum = entries.reduce((s, e) => s + e.amount, 0);
    const { balance } = await balanceOf(t.key, m.id);
    expect(balance).toBe(sum);
    // Oldest first, every balanceAfter is the running sum, and none is negative.
    let running = 0;
    for (const e of [...entries].reverse()) {
      running += e.amount;
      expect(e.balanceAfter).toBe(running);
      expect(e.balanceAfter).toBeGreaterThanOrEqual(0);
    }
  });

  it('tier: current, next and progress; an upgrade happens on the points change that crosses the threshold', async () => {
    const t = await tenant('tier');
    const m = await newMember(t.key);
    const before = await call('GET', `/api/v2/members/${m.id}/tier`, { token: t.key });
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({
      current: { key: 'bronze' },
      next: { key: 'silver', threshold: 500 },
      metric: 'lifetime_points',
      value: 0,
      remaining: 500,
      progress: 0,
    });
    await points(t.key, m.id, { type: 'earn', amount: 650, reason: 'x' });
    const after = await call('GET', `/api/v2/members/${m.id}/tier`, { token: t.key });
    expect(after.body.data).toMatchObject({ current: { key: 'silver' }, next: { key: 'gold', threshold: 2000 }, value: 650, remaining: 1350 });
    expect(after.body.data.progress).toBeCloseTo(150 / 1500, 5);
    // Spending does not lower the tier (lifetime points ignore deductions).
    await points(t.key, m.id, { type: 'deduct', amount: 600, reason: 'reward' });
    const spent = await call('GET', `/api/v2/members/${m.id}`, { token: t.key });
    expect(spent.body.data.tier).toBe('silver');
  });

  it('an unenrolled member earns nothing more but can still be deducted', async () => {
    const t = await tenant('unenrolled');
    const m = await newMember(t.key);
    await points(t.key, m.id, { type: 'earn', amount: 20, reason: 'x' });
    expect((await call('PATCH', `/api/v2/members/${m.id}`, { token: t.key, body: { status: 'unenrolled' } })).status).toBe(200);
    const earn = await points(t.key, m.id, { type: 'earn', amount: 5, reason: 'x' });
    expect(earn.status).toBe(409);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 20, lifetime: 20 });
    expect((await points(t.key, m.id, { type: 'deduct', amount: 5, reason: 'x' })).status).toBe(201);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 15, lifetime: 20 });
  });
});

describe('a hot member: many concurrent points changes on one member', () => {
  /** Every ledger entry of a member, oldest first. */
  async function ledgerOf(key: string, memberId: string): Promise<{ id: string; amount: number; balanceAfter: number }[]> {
    const entries: { id: string; amount: number; balanceAfter: number }[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call('GET', `/api/v2/members/${memberId}/points?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        token: key,
      });
      entries.push(...page.body.data.entries);
      cursor = page.body.nextCursor;
    } while (cursor);
    return entries.reverse();
  }

  it('40 changes at once, each with its own Idempotency-Key: all succeed, in one exact sequence of balances', async () => {
    const t = await tenant('hot');
    const m = await newMember(t.key);
    // Distinct amounts: every change is told where in the sequence it landed by its balanceAfter.
    const amounts = Array.from({ length: 40 }, (_, i) => i + 1);
    const keys = amounts.map((a) => `hot-${m.id}-${a}`);
    const results = await Promise.all(
      amounts.map((amount, i) => points(t.key, m.id, { type: 'earn', amount, reason: `hot ${amount}` }, { 'idempotency-key': keys[i]! })),
    );
    expect(results.map((r) => r.status)).toEqual(amounts.map(() => 201));

    const total = amounts.reduce((s, a) => s + a, 0);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: total, pending: 0, lifetime: total });
    const ledger = await ledgerOf(t.key, m.id);
    expect(ledger).toHaveLength(40);
    // In ledger order each balanceAfter is the running sum: no change was applied on a stale balance.
    let running = 0;
    for (const e of ledger) {
      running += e.amount;
      expect(e.balanceAfter).toBe(running);
    }
    // The answers are exactly the ledger: one entry each, distinct balances, a permutation of the amounts.
    const answered = results.map((r) => r.body.data.entry);
    expect(new Set(answered.map((e) => e.balanceAfter)).size).toBe(40);
    expect([...answered].sort((a, b) => a.balanceAfter - b.balanceAfter)).toEqual(
      ledger.map((e) => expect.objectContaining({ id: e.id, amount: e.amount, balanceAfter: e.balanceAfter })),
    );
    expect(Math.max(...answered.map((e) => e.balanceAfter))).toBe(total);

    // The same 40 requests again: every answer is the recorded one, nothing is applied twice.
    const replays = await Promise.all(
      amounts.map((amount, i) => points(t.key, m.id, { type: 'earn', amount, reason: `hot ${amount}` }, { 'idempotency-key': keys[i]! })),
    );
    expect(replays.map((r) => [r.status, r.headers.get('idempotent-replayed')])).toEqual(amounts.map(() => [201, 'true']));
    expect(replays.map((r) => r.body.data.entry)).toEqual(answered);
    expect((await balanceOf(t.key, m.id)).balance).toBe(total);
  });

  it('40 deductions at once against a balance for 10 of them: 10 apply, 30 are refused, the balance never goes below zero', async () => {
    const t = await tenant('hot-deduct');
    const m = await newMember(t.key);
    await points(t.key, m.id, { type: 'earn', amount: 100, reason: 'seed' });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        points(t.key, m.id, { type: 'deduct', amount: 10, reason: `spend ${i}` }, { 'idempotency-key': `hot-deduct-${m.id}-${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual(refused.map(() => [409, 'INSUFFICIENT_POINTS']));
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 0, lifetime: 100 });
    const ledger = await ledgerOf(t.key, m.id);
    expect(ledger.map((e) => e.balanceAfter)).toEqual([100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 0]);
  });
});
