import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, newOrder, tenant, type Tenant } from '../support/fixtures';

/**
 * Corrections over HTTP: a support correction is a typed entry that takes lifetime points and the
 * tier metric down with the balance, so a tier a mistaken grant reached goes; any eligible entry is
 * reversed by id in one call, audited, idempotent with Idempotency-Key and refused the second time.
 */

const points = (t: Tenant, memberId: string, body: Record<string, unknown>) => call('POST', `/api/v2/members/${memberId}/points`, { token: t.key, body });

const reverse = (t: Tenant, memberId: string, entryId: string, headers: Record<string, string> = {}) =>
  call('POST', `/api/v2/members/${memberId}/ledger/${entryId}/reverse`, { token: t.key, body: { reason: 'Granted by mistake' }, headers });

async function ledger(t: Tenant, memberId: string) {
  const res = await call('GET', `/api/v2/members/${memberId}/points?limit=100`, { token: t.key });
  return res.body.data.entries as { id: string; type: string; amount: number; reversedBy?: string; source: { reversedEntryId?: string } }[];
}

const tierOf = async (t: Tenant, memberId: string) => (await call('GET', `/api/v2/members/${memberId}/tier`, { token: t.key })).body.data;

describe('support corrections', () => {
  it('a correction lowers balance, lifetime and the tier metric: the tier a mistaken grant reached goes', async () => {
    const t = await tenant('corrections-tier');
    const m = await newMember(t.key);
    expect((await points(t, m.id, { type: 'earn', amount: 600, reason: 'Typo: meant 60' })).body.data.tier).toBe('silver');
    const fixed = await points(t, m.id, { type: 'correction', amount: 540, reason: 'Typo: meant 60' });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(201);
    expect(fixed.body.data).toMatchObject({ entry: { type: 'correction', amount: -540 }, points: { balance: 60, lifetime: 60 }, tier: 'bronze' });
    expect(await tierOf(t, m.id)).toMatchObject({ current: { key: 'bronze' }, value: 60 });
    // A plain deduction is a spend: lifetime and the tier stay.
    const m2 = await newMember(t.key);
    await points(t, m2.id, { type: 'earn', amount: 600, reason: 'Typo' });
    expect((await points(t, m2.id, { type: 'deduct', amount: 540, reason: 'Typo' })).body.data).toMatchObject({ points: { lifetime: 600 }, tier: 'silver' });
    // More than the lifetime points cannot be corrected.
    const over = await points(t, m.id, { type: 'correction', amount: 61, reason: 'Too much' });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('CONFLICT');
  });

  it('reverses an entry by id once: a correction naming it, audited; the same key answers again, a second call is refused', async () => {
    const t = await tenant('corrections-reverse');
    const m = await newMember(t.key);
    const grant = (await points(t, m.id, { type: 'earn', amount: 700, reason: 'Mistaken goodwill' })).body.data.entry;
    await points(t, m.id, { type: 'earn', amount: 50, reason: 'Welcome' });
    expect((await tierOf(t, m.id)).current.key).toBe('silver');

    const key = { 'idempotency-key': `reverse-${grant.id}` };
    const first = await reverse(t, m.id, grant.id, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({
      entry: { type: 'correction', amount: -700, source: { type: 'manual', reversedEntryId: grant.id } },
      points: { balance: 50, lifetime: 50 },
      tier: 'bronze',
    });
    // The same Idempotency-Key answers what the first call answered, and reverses nothing more.
    const again = await reverse(t, m.id, grant.id, key);
    expect(again.body.data).toEqual(first.body.data);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 50, pending: 0, lifetime: 50 });
    // Another call is refused: the entry was reversed.
    const second = await reverse(t, m.id, grant.id);
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'CONFLICT', message: `Entry ${grant.id} was already reversed` });

    const entries = await ledger(t, m.id);
    expect(entries.find((e) => e.id === grant.id)!.reversedBy).toBe(first.body.data.entry.id);
    // A reversal is not reversed in turn.
    expect((await reverse(t, m.id, first.body.data.entry.id)).status).toBe(409);

    const audit = await call('GET', '/api/flash/audit?action=member.ledger_entry_reversed', { token: t.token });
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({ target: { type: 'member', id: m.id }, outcome: 'success' });
  });

  it('a reversed spend gives the points back without touching lifetime; an order’s entry and an unknown one are refused', async () => {
    const t = await tenant('corrections-kinds');
    const m = await newMember(t.key);
    await points(t, m.id, { type: 'earn', amount: 100, reason: 'Welcome' });
    const spend = (await points(t, m.id, { type: 'deduct', amount: 80, reason: 'Charged twice' })).body.data.entry;
    const back = await reverse(t, m.id, spend.id);
    expect(back.status).toBe(201);
    expect(back.body.data).toMatchObject({ entry: { type: 'correction', amount: 80 }, points: { balance: 100, lifetime: 100 } });

    await newOrder(t.key, m.id, { total: 40 });
    const orderEntry = (await ledger(t, m.id)).find((e) => e.type === 'earn' && e.amount === 40)!;
    const refused = await reverse(t, m.id, orderEntry.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/refund or reconcile the order/);
    expect((await reverse(t, m.id, 'ple_01jpz8m2b4c6d8e0f2g4h6j8kp')).status).toBe(404);
  });

  it('reversing an entry a correction already took back leaves lifetime at zero, never below', async () => {
    const t = await tenant('corrections-twice');
    const m = await newMember(t.key);
    const earned = await points(t, m.id, { type: 'earn', amount: 100, reason: 'Goodwill' });
    expect((await points(t, m.id, { type: 'correction', amount: 100, reason: 'Not owed' })).body.data.points).toMatchObject({ lifetime: 0 });
    const reversed = await reverse(t, m.id, earned.body.data.entry.id);
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(201);
    // The balance is the operator's to put right (it may go below zero, as a refund's may); lifetime cannot.
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: -100, pending: 0, lifetime: 0 });
  });

  it('a goodwill earn kept out of the tier: spendable, but lifetime, the tier metric, its explanation and its reversal leave lifetime alone', async () => {
    const t = await tenant('corrections-goodwill');
    const m = await newMember(t.key);
    await points(t, m.id, { type: 'earn', amount: 50, reason: 'Welcome' });
    const gift = await points(t, m.id, { type: 'earn', amount: 600, reason: 'Sorry for the late parcel', countTowardTier: false });
    expect(gift.status, JSON.stringify(gift.body)).toBe(201);
    // 650 would be silver: the gift is spendable but lifts nothing.
    expect(gift.body.data).toMatchObject({ entry: { type: 'earn', amount: 600, outsideTier: true }, points: { balance: 650, lifetime: 50 }, tier: 'bronze' });
    expect(await tierOf(t, m.id)).toMatchObject({ current: { key: 'bronze' }, value: 50 });
    // The replay of the ledger agrees with the stored member.
    const explained = (await call('GET', `/api/v2/members/${m.id}/explain`, { token: t.key })).body.data;
    expect(explained).toMatchObject({ points: { balance: 650, lifetime: 50 } });
    // Its reversal takes back the balance only, and is kept outside the tier as well.
    const reversed = await reverse(t, m.id, gift.body.data.entry.id);
    expect(reversed.body.data).toMatchObject({ entry: { type: 'correction', amount: -600, outsideTier: true }, points: { balance: 50, lifetime: 50 } });
    expect((await call('GET', `/api/v2/members/${m.id}/explain`, { token: t.key })).body.data).toMatchObject({ points: { balance: 50, lifetime: 50 } });
    // Only an earn can be kept out: a deduct or correction with it is refused and changes nothing.
    for (const type of ['deduct', 'correction']) {
      const refused = await points(t, m.id, { type, amount: 10, reason: 'x', countTowardTier: false });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'countTowardTier' })]);
    }
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 50, pending: 0, lifetime: 50 });
  });

  it('what is taken back comes from its own lot first: the earlier lot keeps its points and its date', async () => {
    const t = await tenant('corrections-own-lot', { sandbox: true });
    const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    const rules = { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [], pendingDays: 0 };
    expect(
      (await call('PUT', '/api/flash/program', { token: t.token, body: { earn: current.earn, tiers: current.tiers, points: rules, timeZone: 'UTC' } })).status,
    ).toBe(200);
    const expiring = async (memberId: string) =>
      (await call('GET', `/api/v2/members/${memberId}/points`, { token: t.key })).body.data.expiring as { points: number; expiresAt: string }[];
    const ordered = await newMember(t.key);
    const earned = await newMember(t.key);
    await newOrder(t.key, ordered.id, { total: 100 });
    await points(t, earned.id, { type: 'earn', amount: 100, reason: 'Welcome' });
    const [orderLot] = await expiring(ordered.id);
    const [firstLot] = await expiring(earned.id);
    expect((await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days: 10 } })).status).toBe(200);

    // A refund of the later order, its points partly spent: its own lot goes, the earlier order's stays.
    const late = await newOrder(t.key, ordered.id, { total: 100 });
    await points(t, ordered.id, { type: 'deduct', amount: 50, reason: 'Reward' });
    const refund = await call('POST', `/api/v2/orders/${late.externalOrderId}/refund`, { token: t.key, body: {} });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(await expiring(ordered.id)).toEqual([{ points: 50, expiresAt: orderLot!.expiresAt }]);

    // A mistaken grant reversed by id: its own lot goes, the first grant keeps its 100 points and its date.
    const mistaken = (await points(t, earned.id, { type: 'earn', amount: 40, reason: 'Meant for someone else' })).body.data.entry;
    expect(await expiring(earned.id)).toHaveLength(2);
    expect((await reverse(t, earned.id, mistaken.id)).status).toBe(201);
    expect(await expiring(earned.id)).toEqual([firstLot]);
  });

  it('a user reverses an entry from the console, audited as that user', async () => {
    const t = await tenant('corrections-console');
    const m = await newMember(t.key);
    const grant = (await points(t, m.id, { type: 'earn', amount: 30, reason: 'Oops' })).body.data.entry;
    const res = await call('POST', `/api/flash/members/${m.id}/ledger/${grant.id}/reverse`, { token: t.token, body: { reason: 'Oops' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.points).toEqual({ balance: 0, pending: 0, lifetime: 0 });
    const audit = await call('GET', '/api/flash/audit?action=member.ledger_entry_reversed', { token: t.token });
    expect(audit.body.data[0].actor).toMatchObject({ type: 'user' });
  });
});
