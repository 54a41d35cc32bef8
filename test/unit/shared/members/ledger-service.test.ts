import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/platform/errors';
import { changePoints, NO_DELTA, type ChangePlan, type Planned } from '../../../../shared/members/ledger';
import type { MemberRecord } from '../../../../shared/members/entities';
import type { TransactStep } from '../../../../shared/platform/data/transactions';
import { event } from '../../../../shared/platform/events/outbox';
import { MemoryLedgerStore } from '../../../support/memory-stores';

/** The points ledger (changePoints) on its narrow store interface, with the store in memory. */

const WS = 'ws_01j9z3k4m5n6p7q8r9s0t1v2w3';
const MEMBER = 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3';

const setup = (m: Partial<MemberRecord> = {}) => {
  const store = new MemoryLedgerStore();
  store.addMember({ id: MEMBER, workspaceId: WS, tier: 'bronze', ...m });
  return store;
};

const plan = (balance: number, extra: Partial<ChangePlan<number>> = {}): Planned<number> => ({
  plan: {
    delta: { ...NO_DELTA, balance, lifetime: Math.max(balance, 0) },
    entry: { type: balance >= 0 ? 'earn' : 'deduct', reason: 'test', source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null } },
    requireNonNegative: balance < 0,
    result: ({ entry }) => entry?.balanceAfter ?? -1,
    ...extra,
  },
});

const change = (store: MemoryLedgerStore, p: Planned<number> | ((m: MemberRecord) => Planned<number>)) =>
  changePoints({ workspaceId: WS, memberId: MEMBER, plan: (m) => (typeof p === 'function' ? p(m) : p), now: () => new Date('2026-03-01T10:00:00Z'), store });

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('points ledger (in-memory store)', () => {
  it('a credit moves balance and lifetime points, writes one ledger entry with the balance after it, and bumps the revision', async () => {
    const store = setup({ balance: 40, lifetime: 40 });
    expect(await change(store, plan(25))).toBe(65);
    expect(store.members.get(MEMBER)).toMatchObject({ balance: 65, lifetime: 65, rev: 1, updatedAt: '2026-03-01T10:00:00.000Z' });
    expect(store.entries).toEqual([expect.objectContaining({ memberId: MEMBER, rev: 1, amount: 25, balanceAfter: 65, type: 'earn' })]);
    expect(store.eventTypes()).toEqual(['loyalty.points_earned']);
  });

  it('a deduction larger than the balance is INSUFFICIENT_POINTS and writes nothing; one within it leaves lifetime points alone', async () => {
    const store = setup({ balance: 30, lifetime: 100 });
    expect(await code(change(store, plan(-31)))).toBe('INSUFFICIENT_POINTS');
    expect(store.committed).toEqual([]);
    expect(await change(store, plan(-30))).toBe(0);
    expect(store.members.get(MEMBER)).toMatchObject({ balance: 0, lifetime: 100 });
    expect(store.eventTypes()).toEqual([]);
  });

  it('an award to an unenrolled member is refused; a reversal still applies', async () => {
    const store = setup({ status: 'unenrolled' as MemberRecord['status'], balance: 10 });
    expect(await code(change(store, plan(5, { requireActive: true })))).toBe('CONFLICT');
    // A refund reversal takes back points already spent: the balance may go negative.
    expect(await change(store, plan(-15, { requireNonNegative: false }))).toBe(-5);
    expect(store.members.get(MEMBER)!.balance).toBe(-5);
  });

  it('crossing a tier threshold upgrades the tier and emits loyalty.tier_upgraded in the same transaction', async () => {
    const store = setup({ balance: 490, lifetime: 490 });
    await change(store, plan(10));
    expect(store.members.get(MEMBER)!.tier).toBe('silver');
    expect(store.eventTypes()).toEqual(['loyalty.points_earned', 'loyalty.tier_upgraded']);
  });

  it('a change by another writer in between makes the write re-plan on the member as it now is (exact balanceAfter)', async () => {
    const store = setup({ balance: 100, lifetime: 100 });
    const seen: number[] = [];
    store.interleave = () => Object.assign(store.members.get(MEMBER)!, { balance: 150, rev: 7 });
    const after = await change(store, (m) => {
      seen.push(m.balance);
      return plan(10);
    });
    expect(seen).toEqual([100, 150]);
    expect(after).toBe(160);
    expect(store.members.get(MEMBER)).toMatchObject({ balance: 160, rev: 8 });
    expect(store.entries.map((e) => e.balanceAfter)).toEqual([160]);
  });

  it('a plan that needs no write answers without a transaction; an unknown member is NOT_FOUND', async () => {
    const store = setup();
    expect(await change(store, { done: 42 })).toBe(42);
    expect(store.committed).toEqual([]);
    const unknown = changePoints({ workspaceId: WS, memberId: 'mbr_01j9z3k4m5n6p7q8r9s0t1v2zz', plan: () => plan(1), store });
    expect(await code(unknown)).toBe('NOT_FOUND');
  });

  it('campaign grants: points are one entry each at the next revisions; a coupon reward writes no entry and its event names the coupon', async () => {
    const store = setup({ balance: 0, lifetime: 0 });
    const source = (campaignId: string) => ({ type: 'campaign' as const, orderId: null, externalOrderId: null, apiKeyId: null, campaignId });
    const marker: TransactStep = { op: { Put: { Item: { pk: 'marker', sk: 'coupon' } } } };
    const issued = event('coupon.issued', { resource_id: 'cpn_01j9z3k4m5n6p7q8r9s0t1v2w3', member_ref: MEMBER, pool_id: 'cpl_01j9z3k4m5n6p7q8r9s0t1v2w3' });
    await change(
      store,
      plan(10, {
        grants: [
          {
            campaignId: 'cmp_coupon',
            points: 0,
            reason: 'a coupon',
            source: source('cmp_coupon'),
            steps: [marker],
            reward: { id: 'cpn_01j9z3k4m5n6p7q8r9s0t1v2w3', events: [issued] },
          },
          { campaignId: 'cmp_points', points: 5, reason: 'five more', source: source('cmp_points'), steps: [] },
          // Given back to an order that completed again: announced when first granted.
          { campaignId: 'cmp_again', points: 2, reason: 'given back', source: source('cmp_again'), steps: [], announced: true },
        ],
      }),
    );
    expect(store.entries.map((e) => [e.rev, e.type, e.amount, e.balanceAfter, e.source.campaignId ?? null])).toEqual([
      [1, 'earn', 10, 10, null],
      [2, 'campaign', 5, 15, 'cmp_points'],
      [3, 'campaign', 2, 17, 'cmp_again'],
    ]);
    expect(store.members.get(MEMBER)).toMatchObject({ balance: 17, lifetime: 17, rev: 3 });
    const steps = store.committed[0]!;
    expect(steps).toContainEqual(marker);
    const outbox = steps.flatMap((s) => {
      const item = (s.op as { Put?: { Item?: { entity?: string; events?: { type: string; data: Record<string, unknown> }[] } } }).Put?.Item;
      return item?.entity === 'outbox' ? item.events! : [];
    });
    const rewards = outbox.filter((e) => e.type === 'campaign.reward_granted').map((e) => [e.data.campaign_id, String(e.data.resource_id).slice(0, 4)]);
    expect(rewards).toEqual([
      ['cmp_points', 'ple_'],
      ['cmp_coupon', 'cpn_'],
    ]);
    expect(outbox.map((e) => e.type)).toContain('coupon.issued');
  });

  describe('points that lapsed before the due work ran', () => {
    const NOW = Date.parse('2026-03-01T10:00:00Z');
    const EXPIRED_AT = NOW - 60_000;
    const lapsing = () => {
      const store = setup({
        balance: 120,
        lifetime: 120,
        lots: {
          lots: [
            { id: 'ple_a', points: 100, earnedAt: EXPIRED_AT - 30 * 86_400_000, expiresAt: EXPIRED_AT, orderId: null },
            { id: 'ple_b', points: 20, earnedAt: NOW - 86_400_000, expiresAt: NOW + 86_400_000, orderId: null },
          ],
          pending: [],
          lastActivityAt: null,
          warnedThrough: 0,
        },
      });
      store.rules = { ...store.rules, points: { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [], pendingDays: 0 } };
      store.clock = async () => new Date(NOW);
      return store;
    };
    const atClock = (store: MemoryLedgerStore, p: Planned<number>) => changePoints({ workspaceId: WS, memberId: MEMBER, plan: () => p, store });

    it('a change at the clock expires them first in its own transaction: a spend takes only what is still valid', async () => {
      const store = lapsing();
      const refused = atClock(store, plan(-21));
      await expect(refused).rejects.toMatchObject({ code: 'INSUFFICIENT_POINTS', message: 'The balance is 20; cannot deduct 21' });
      expect(store.committed).toEqual([]);

      expect(await atClock(store, plan(-20))).toBe(0);
      expect(store.entries.map((e) => [e.rev, e.type, e.amount, e.balanceAfter, e.createdAt, e.source.type])).toEqual([
        [1, 'expire', -100, 20, new Date(EXPIRED_AT).toISOString(), 'program'],
        [2, 'deduct', -20, 0, new Date(NOW).toISOString(), 'manual'],
      ]);
      expect(store.members.get(MEMBER)).toMatchObject({ balance: 0, lifetime: 120, rev: 2, lots: { lots: [] } });
      expect(store.eventTypes()).toEqual(['points.expired']);
    });

    it('a change with nothing to write books nothing; program work given its own moment does not settle', async () => {
      const store = lapsing();
      expect(await atClock(store, { done: 7 })).toBe(7);
      expect(store.committed).toEqual([]);
      // The due work runs each moment itself: a change dated at its own moment leaves the lapsed lot to it.
      expect(await change(store, plan(5))).toBe(125);
      expect(store.entries.map((e) => e.type)).toEqual(['earn']);
      expect(store.members.get(MEMBER)!.lots!.lots.map((l) => l.id)).toEqual(['ple_a', 'ple_b', store.entries[0]!.id]);
    });
  });
});
