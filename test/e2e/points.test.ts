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
    expect(before.body.data).toMatchObject({ current: { key: 'bronze' }, next: { key: 'silver', threshold: 500 }, metric: 'lifetime_points', value: 0, remaining: 500, progress: 0 });
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
