import { describe, expect, it } from 'vitest';
import { call, createKey } from '../support/api';
import { balanceOf, newMember, nextWeekday, orderId, tenant, type Tenant } from '../support/fixtures';
import { startReceiver } from '../support/receiver';
import { partitionItems, platformTable } from '../support/table';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keyOf } from '../../shared/platform/data/keys';

/**
 * Campaigns over HTTP on the local runtime: defined, listed, changed and deleted by an admin
 * session (audited), refused when they name what the workspace does not have, and simulated
 * against an order without storing anything.
 */

const orderCampaign = (extra: Record<string, unknown> = {}) => ({
  name: 'Double points',
  status: 'active',
  trigger: { type: 'order' },
  effect: { type: 'multiplier', factor: 2 },
  ...extra,
});

async function create(t: Tenant, body: Record<string, unknown>) {
  return call('POST', '/api/flash/campaigns', { token: t.token, body });
}

async function created(t: Tenant, body: Record<string, unknown>) {
  const res = await create(t, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const simulate = (t: Tenant, body: Record<string, unknown>) => call('POST', '/api/flash/campaigns/simulate', { token: t.token, body });

describe('campaigns (/api/flash/campaigns)', () => {
  it('defines, reads, lists, changes and deletes a campaign; each change is audited', async () => {
    const t = await tenant('campaigns');
    const c = await created(t, { name: 'Welcome bonus', trigger: { type: 'member_created' }, effect: { type: 'bonus_points', points: 100 } });
    expect(c).toMatchObject({
      id: expect.stringMatching(/^cmp_/),
      status: 'draft',
      startsAt: null,
      endsAt: null,
      conditions: [],
      limits: { perMember: null, totalPoints: null },
      priority: 0,
      stackable: true,
      grants: 0,
      pointsGranted: 0,
      version: 1,
    });
    expect((await call('GET', `/api/flash/campaigns/${c.id}`, { token: t.token })).body.data).toEqual(c);

    const second = await created(t, orderCampaign());
    const active = await call('GET', '/api/flash/campaigns?status=active', { token: t.token });
    expect(active.body.data.map((x: { id: string }) => x.id)).toEqual([second.id]);
    // Newest first, a page at a time.
    const first = await call('GET', '/api/flash/campaigns?limit=1', { token: t.token });
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual([second.id]);
    const next = await call('GET', `/api/flash/campaigns?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: t.token });
    expect(next.body.data.map((x: { id: string }) => x.id)).toEqual([c.id]);

    const patched = await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: { status: 'active', priority: 5, version: 1 } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ status: 'active', priority: 5, version: 2, name: 'Welcome bonus', createdAt: c.createdAt });
    const stale = await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: { name: 'Late', version: 1 } });
    expect(stale.status).toBe(409);
    expect((await call('GET', `/api/flash/campaigns/${c.id}`, { token: t.token })).body.data.name).toBe('Welcome bonus');

    expect((await call('DELETE', `/api/flash/campaigns/${c.id}`, { token: t.token })).status).toBe(204);
    expect((await call('GET', `/api/flash/campaigns/${c.id}`, { token: t.token })).status).toBe(404);
    expect((await call('DELETE', `/api/flash/campaigns/${c.id}`, { token: t.token })).status).toBe(404);

    for (const action of ['campaign.created', 'campaign.updated', 'campaign.deleted']) {
      const audit = await call('GET', `/api/flash/audit?action=${action}`, { token: t.token });
      expect(audit.body.data.map((e: { target: { id: string } }) => e.target.id)).toContain(c.id);
    }
  });

  it('refuses what the workspace does not have (pool, store, tier, tag) and bad rules, one detail per field; nothing is stored', async () => {
    const t = await tenant('campaigns-refused');
    const refusals: [Record<string, unknown>, string][] = [
      [orderCampaign({ effect: { type: 'coupon', poolId: 'cpl_01jpz8e5g7j9m1p3s5v7x9z1br' } }), 'effect.poolId'],
      [orderCampaign({ conditions: [{ field: 'order.storeId', op: 'eq', value: 'sto_01jpz8b3c5d7e9f1g3h5j7k9m1' }] }), 'conditions.0.value'],
      [orderCampaign({ conditions: [{ field: 'member.tier', op: 'in', value: ['bronze', 'diamond'] }] }), 'conditions.0.value'],
      [orderCampaign({ conditions: [{ field: 'member.tags', op: 'contains', value: 'never-used' }] }), 'conditions.0.value'],
      [orderCampaign({ conditions: [{ field: 'order.total', op: 'contains', value: 5 }] }), 'conditions.0.op'],
      [orderCampaign({ conditions: [{ field: 'order.brand', op: 'eq', value: 'x' }] }), 'conditions.0.field'],
      [orderCampaign({ trigger: { type: 'inactivity' } }), 'trigger.days'],
      [orderCampaign({ trigger: { type: 'inactivity', days: 4000 } }), 'trigger.days'],
      [orderCampaign({ effect: { type: 'multiplier', factor: 101 } }), 'effect.factor'],
      [orderCampaign({ startsAt: '2026-05-01T00:00:00Z', endsAt: '2026-04-01T00:00:00Z' }), 'endsAt'],
    ];
    for (const [body, field] of refusals) {
      const res = await create(t, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    // The tier refusal names the unknown tier only.
    const tier = await create(t, refusals[2]![0]);
    expect(tier.body.error.details).toEqual([expect.objectContaining({ field: 'conditions.0.value', message: expect.stringContaining('diamond') })]);
    expect((await call('GET', '/api/flash/campaigns', { token: t.token })).body.data).toEqual([]);

    // A change is checked whole, as a new campaign would be.
    const c = await created(t, orderCampaign({ startsAt: '2026-04-01T00:00:00Z' }));
    const backwards = await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: { endsAt: '2026-03-01T00:00:00Z' } });
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.details.map((d: { field: string }) => d.field)).toEqual(['endsAt']);
    // An ended campaign stays ended.
    expect((await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: { status: 'ended' } })).status).toBe(200);
    const restart = await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: { status: 'active' } });
    expect(restart.status).toBe(409);
    expect((await call('GET', `/api/flash/campaigns/${c.id}`, { token: t.token })).body.data).toMatchObject({ status: 'ended', version: 2 });
  });

  it('accepts what the workspace has: its pool, store, tier and a tag a member carried', async () => {
    const t = await tenant('campaigns-known');
    const m = await newMember(t.key);
    expect((await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['vip'] } })).status).toBe(200);
    const store = await call('POST', '/api/v2/stores', { token: t.key, body: { name: 'Mitte', timezone: 'Europe/Berlin' } });
    const pool = await call('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'Gift', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 10 },
    });
    expect(pool.status, JSON.stringify(pool.body)).toBe(201);
    const c = await created(
      t,
      orderCampaign({
        effect: { type: 'coupon', poolId: pool.body.data.id },
        conditions: [
          { field: 'order.storeId', op: 'eq', value: store.body.data.id },
          { field: 'member.tier', op: 'in', value: ['bronze', 'gold'] },
          { field: 'member.tags', op: 'contains', value: 'vip' },
        ],
      }),
    );
    expect(c.conditions).toHaveLength(3);
  });

  it('is for owners, admins and keys with the campaign scopes: any other key is refused, and another workspace sees nothing', async () => {
    const [t, other] = await Promise.all([tenant('campaigns-owner'), tenant('campaigns-other')]);
    const c = await created(t, orderCampaign());
    const unscoped = await createKey(t.token, { name: 'members only', scopes: ['members:read', 'members:write'] });
    expect((await call('GET', '/api/flash/campaigns', { token: unscoped.key })).status).toBe(403);
    const reader = await createKey(t.token, { name: 'campaign reader', scopes: ['campaigns:read'] });
    expect((await call('GET', '/api/flash/campaigns', { token: reader.key })).body.data.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const write = await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: reader.key, body: { status: 'paused' } });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain('campaigns:manage');
    expect((await call('GET', `/api/flash/campaigns/${c.id}`, { token: other.token })).status).toBe(404);
    expect((await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: other.token, body: { status: 'paused' } })).status).toBe(404);
    expect((await call('DELETE', `/api/flash/campaigns/${c.id}`, { token: other.token })).status).toBe(404);
    expect((await call('GET', '/api/flash/campaigns', { token: other.token })).body.data).toEqual([]);
  });
});

describe('campaign simulation (POST /api/flash/campaigns/simulate)', () => {
  it('answers base points and the grants of live order campaigns by priority, and stores nothing', async () => {
    const t = await tenant('campaigns-simulate');
    const m = await newMember(t.key);
    const store = (await call('POST', '/api/v2/stores', { token: t.key, body: { name: 'Tokyo', timezone: 'Asia/Tokyo' } })).body.data;
    const double = await created(t, orderCampaign({ priority: 1 }));
    const big = await created(t, {
      name: 'Big basket',
      status: 'active',
      trigger: { type: 'order' },
      conditions: [{ field: 'order.total', op: 'gte', value: 100 }],
      effect: { type: 'bonus_points', points: 50 },
      priority: 5,
    });
    const coffee = await created(t, {
      name: 'Coffee lovers',
      status: 'active',
      trigger: { type: 'order' },
      conditions: [{ field: 'order.items.category', op: 'contains', value: 'coffee' }],
      effect: { type: 'bonus_points', points: 7 },
    });
    // Neither a draft, a paused one, a campaign not yet started nor another trigger counts.
    await created(t, orderCampaign({ status: 'draft', effect: { type: 'bonus_points', points: 1000 } }));
    const paused = await created(t, orderCampaign({ effect: { type: 'bonus_points', points: 1000 } }));
    await call('PATCH', `/api/flash/campaigns/${paused.id}`, { token: t.token, body: { status: 'paused' } });
    await created(t, orderCampaign({ startsAt: '2099-01-01T00:00:00Z', effect: { type: 'bonus_points', points: 1000 } }));
    await created(t, { name: 'Welcome', status: 'active', trigger: { type: 'member_created' }, effect: { type: 'bonus_points', points: 1000 } });

    const res = await simulate(t, { order: { total: 120.99, currency: 'EUR', items: [{ sku: 'A', category: 'coffee' }] }, memberId: m.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The answer also lists every order campaign with why it granted or not (test/e2e/campaign-simulation.test.ts).
    expect(res.body.data).toMatchObject({
      basePoints: 120,
      grants: [
        { campaignId: big.id, points: 50, poolId: null, reason: 'Big basket: 50 bonus points' },
        { campaignId: double.id, points: 120, poolId: null, reason: "Double points: 2x the order's points (+120)" },
        { campaignId: coffee.id, points: 7, poolId: null, reason: 'Coffee lovers: 7 bonus points' },
      ],
      totalPoints: 297,
      memberId: m.id,
    });
    expect(res.body.data.grants).toHaveLength(3);
    // Under the threshold and without coffee: only the multiplier.
    const small = await simulate(t, { order: { total: 10, currency: 'EUR' } });
    expect(small.body.data).toMatchObject({ basePoints: 10, grants: [expect.objectContaining({ campaignId: double.id, points: 10 })], totalPoints: 20 });
    expect(small.body.data.grants).toHaveLength(1);

    // A non-stackable campaign first in line applies alone.
    await call('PATCH', `/api/flash/campaigns/${big.id}`, { token: t.token, body: { stackable: false } });
    const alone = await simulate(t, { order: { total: 120, currency: 'EUR' }, memberId: m.id });
    expect(alone.body.data).toMatchObject({ basePoints: 120, grants: [expect.objectContaining({ campaignId: big.id, points: 50 })], totalPoints: 170 });
    expect(alone.body.data.grants).toHaveLength(1);

    // The weekday is the store's: Friday 20:00 in UTC is Saturday in Tokyo.
    await created(t, {
      name: 'Tokyo Saturday',
      status: 'active',
      trigger: { type: 'order' },
      conditions: [{ field: 'date.weekday', op: 'eq', value: 'saturday' }],
      effect: { type: 'bonus_points', points: 3 },
      priority: 100,
    });
    // The coming Friday (a past one older than the 7-day backdating limit would earn no campaign).
    const friday = { total: 1, currency: 'EUR', occurredAt: nextWeekday(5, 20) };
    const tokyo = await simulate(t, { order: { ...friday, storeId: store.id } });
    expect(tokyo.body.data.grants.map((g: { points: number }) => g.points)).toContain(3);
    const utc = await simulate(t, { order: friday });
    expect(utc.body.data.grants.map((g: { points: number }) => g.points)).not.toContain(3);

    // Nothing stored: the member's points and ledger, and the campaigns' counters.
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });
    const ledger = await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key });
    expect(ledger.body.data.entries).toEqual([]);
    const after = await call('GET', '/api/flash/campaigns', { token: t.token });
    expect(after.body.data.every((c: { grants: number; pointsGranted: number }) => c.grants === 0 && c.pointsGranted === 0)).toBe(true);
  });

  it('refuses an unknown member or store and amounts with too many decimals', async () => {
    const t = await tenant('campaigns-simulate-bad');
    const unknownMember = await simulate(t, { order: { total: 1, currency: 'EUR' }, memberId: 'mbr_01jpz8k3m2q7v5x9c4t6r8w2ya' });
    expect(unknownMember.status).toBe(404);
    const unknownStore = await simulate(t, { order: { total: 1, currency: 'EUR', storeId: 'sto_01jpz8b3c5d7e9f1g3h5j7k9m1' } });
    expect(unknownStore.status).toBe(422);
    expect(unknownStore.body.error.details[0].field).toBe('order.storeId');
    const decimals = await simulate(t, { order: { total: 1.234, currency: 'EUR' } });
    expect(decimals.status).toBe(422);
    expect((await simulate(t, { order: { currency: 'EUR' } })).status).toBe(422);
  });
});

/** The campaign item as stored (its own counts, without the shards). */
async function storedCampaign(t: Tenant, campaignId: string) {
  const { doc, tableName } = await platformTable();
  return (await doc.send(new GetCommand({ TableName: tableName, Key: keyOf('campaign', { workspaceId: t.workspaceId, campaignId }), ConsistentRead: true })))
    .Item;
}

/** The campaign's tally shards as stored. */
const tallies = (t: Tenant, campaignId: string) =>
  partitionItems(keyOf('campaignTally', { workspaceId: t.workspaceId, campaignId, shard: '0' }).pk, `${campaignId}#`);

describe('campaign grants on orders', () => {
  const order = (t: Tenant, memberId: string, total: number, externalOrderId = orderId()) =>
    call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId, memberId, currency: 'EUR', total, occurredAt: new Date().toISOString() } });
  const campaignOf = async (t: Tenant, id: string) => (await call('GET', `/api/flash/campaigns/${id}`, { token: t.token })).body.data;

  it('each grant is its own ledger entry naming the campaign, within perMember and totalPoints, once per order; campaign.reward_granted fires', async () => {
    const t = await tenant('campaign-grants');
    const receiver = await startReceiver();
    try {
      const hook = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['campaign.reward_granted'] } });
      expect(hook.status).toBe(201);
      const m = await newMember(t.key);
      const double = await created(t, orderCampaign({ limits: { perMember: 1, totalPoints: null } }));
      const bonus = await created(t, {
        name: 'Ten more',
        status: 'active',
        trigger: { type: 'order' },
        effect: { type: 'bonus_points', points: 10 },
        limits: { perMember: null, totalPoints: 15 },
      });
      await created(t, orderCampaign({ status: 'paused', effect: { type: 'bonus_points', points: 1000 } }));

      const first = orderId();
      expect((await order(t, m.id, 100, first)).status).toBe(201);
      expect(await balanceOf(t.key, m.id)).toEqual({ balance: 210, pending: 0, lifetime: 210 });
      const points = await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key });
      const entries = [...points.body.data.entries]
        .reverse()
        .map((e: any) => [e.type, e.amount, e.balanceAfter, e.source.type, e.source.campaignId ?? null, e.source.externalOrderId]);
      // Equal priorities: the older campaign first.
      expect(entries).toEqual([
        ['earn', 100, 100, 'order', null, first],
        ['campaign', 100, 200, 'campaign', double.id, first],
        ['campaign', 10, 210, 'campaign', bonus.id, first],
      ]);
      // The same order again grants nothing; the multiplier's one grant per member is used; the bonus has 5 points of budget left.
      expect((await order(t, m.id, 100, first)).status).toBe(200);
      expect((await order(t, m.id, 100)).status).toBe(201);
      expect(await balanceOf(t.key, m.id)).toEqual({ balance: 315, pending: 0, lifetime: 315 });
      expect((await order(t, m.id, 100)).status).toBe(201);
      expect(await balanceOf(t.key, m.id)).toEqual({ balance: 415, pending: 0, lifetime: 415 });
      expect(await campaignOf(t, double.id)).toMatchObject({ grants: 1, pointsGranted: 100 });
      expect(await campaignOf(t, bonus.id)).toMatchObject({ grants: 2, pointsGranted: 15 });

      await receiver.waitFor(3);
      const events = receiver.received.map((r) => JSON.parse(r.body));
      expect(events.map((e) => e.type)).toEqual(['campaign.reward_granted', 'campaign.reward_granted', 'campaign.reward_granted']);
      expect(events.map((e) => e.data.campaign_id).sort()).toEqual([bonus.id, bonus.id, double.id].sort());
      for (const e of events) expect(Object.keys(e.data).sort()).toEqual(['campaign_id', 'member_ref', 'resource_id']);
    } finally {
      await receiver.close();
    }
  });

  it('a pending order earns its rewards when a reconciliation completes it, once; an order a reconciliation creates completed earns them too', async () => {
    const t = await tenant('campaign-completion');
    const m = await newMember(t.key);
    const double = await created(t, orderCampaign());
    const bonus = await created(t, { name: 'Ten more', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 10 } });
    const batch = (orders: Record<string, unknown>[]) =>
      call('POST', '/api/v2/orders/batch', {
        token: t.key,
        body: { orders: orders.map((o) => ({ memberId: m.id, currency: 'EUR', occurredAt: new Date().toISOString(), ...o })) },
      });
    const waiting = orderId();
    const placed = await call('POST', '/api/v2/orders', {
      token: t.key,
      body: { externalOrderId: waiting, memberId: m.id, currency: 'EUR', total: 100, status: 'pending', occurredAt: new Date().toISOString() },
    });
    expect(placed.status).toBe(201);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 100, lifetime: 0 });
    expect(await campaignOf(t, double.id)).toMatchObject({ grants: 0 });

    const completed = await batch([{ externalOrderId: waiting, total: 100, status: 'completed' }]);
    // The order's own 100 move from pending to the balance (pointsDelta counts both).
    expect(completed.body.data.results[0]).toMatchObject({ outcome: 'updated', pointsDelta: 0 });
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 210, pending: 0, lifetime: 210 });
    // Back to pending and completed again: its rewards go to pending with its own points and come back once, not granted again.
    expect((await batch([{ externalOrderId: waiting, total: 100, status: 'pending' }])).body.data.results[0].outcome).toBe('updated');
    expect((await batch([{ externalOrderId: waiting, total: 100, status: 'completed' }])).body.data.results[0].outcome).toBe('updated');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 210, pending: 0, lifetime: 210 });

    const created_ = await batch([{ externalOrderId: orderId('NEW'), total: 50, status: 'completed' }]);
    expect(created_.body.data.results[0].outcome).toBe('created');
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 320, pending: 0, lifetime: 320 });
    expect(await campaignOf(t, double.id)).toMatchObject({ grants: 2, pointsGranted: 150 });
    expect(await campaignOf(t, bonus.id)).toMatchObject({ grants: 2, pointsGranted: 20 });
    const entries = (await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key })).body.data.entries;
    const rewards = entries.filter((e: any) => e.source.campaignId && e.source.externalOrderId === waiting).map((e: any) => [e.type, e.amount]);
    expect(rewards.sort()).toEqual(
      [
        ['campaign', 100],
        ['campaign', 10],
        ['adjustment', -100],
        ['adjustment', -10],
        ['campaign', 100],
        ['campaign', 10],
      ].sort(),
    );
  });

  it('an admin change during grants: its version still holds (a grant is not a change of the campaign) and no count is lost', async () => {
    const t = await tenant('campaign-edit-during-grants');
    const members = await Promise.all(Array.from({ length: 6 }, () => newMember(t.key)));
    const c = await created(t, { name: 'Ten more', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 10 } });
    expect(c.version).toBe(1);
    expect((await order(t, members[0].id, 5)).status).toBe(201);
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 1, pointsGranted: 10, version: 1 });
    // Orders in flight while the admin renames it with the version read before them.
    const [renamed, ...answers] = await Promise.all([
      call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: { name: 'Ten more points', version: 1 } }),
      ...members.slice(1).map((m) => order(t, m.id, 5)),
    ]);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Ten more points', version: 2 });
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201));
    expect(await campaignOf(t, c.id)).toMatchObject({ name: 'Ten more points', version: 2, grants: 6, pointsGranted: 60 });
  });

  it('a campaign without a budget counts parallel grants in shards: every order 201, the counts exact, its own item never written by a grant', async () => {
    const t = await tenant('campaign-tally');
    const members = await Promise.all(Array.from({ length: 16 }, () => newMember(t.key)));
    const c = await created(t, { name: 'Ten more', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 10 } });
    const answers = await Promise.all(members.map((m) => order(t, m.id, 5)));
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(201));
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 16, pointsGranted: 160, version: 1 });
    const listed = (await call('GET', '/api/flash/campaigns', { token: t.token })).body.data;
    expect(listed.find((x: { id: string }) => x.id === c.id)).toMatchObject({ grants: 16, pointsGranted: 160 });
    expect((await storedCampaign(t, c.id))?.grants).toBe(0);
    expect((await tallies(t, c.id)).reduce((n, s) => n + Number(s.grants), 0)).toBe(16);
  });

  it('a budget set on a live campaign counts what it granted before; deleting the campaign leaves no shard', async () => {
    const t = await tenant('campaign-budget-later');
    const members = await Promise.all(Array.from({ length: 7 }, () => newMember(t.key)));
    const c = await created(t, { name: 'Ten more', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 10 } });
    for (const m of members.slice(0, 3)) expect((await order(t, m.id, 5)).status).toBe(201);
    const budgeted = await call('PATCH', `/api/flash/campaigns/${c.id}`, {
      token: t.token,
      body: { limits: { perMember: null, totalPoints: 50 }, version: 1 },
    });
    expect(budgeted.status, JSON.stringify(budgeted.body)).toBe(200);
    expect(budgeted.body.data).toMatchObject({ grants: 3, pointsGranted: 30 });
    // The shards' counts moved to the campaign's item; each shard stays, empty and marked folded at the budget's version.
    expect((await tallies(t, c.id)).map((s) => [s.grants, s.pointsGranted, s.foldedVersion])).toEqual(Array(8).fill([0, 0, 2]));
    // 20 points of budget left: two of the next four orders earn the bonus.
    for (const m of members.slice(3)) expect((await order(t, m.id, 5)).status).toBe(201);
    const balances = await Promise.all(members.map((m) => balanceOf(t.key, m.id)));
    expect(balances.filter((b) => b.balance === 15)).toHaveLength(5);
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 5, pointsGranted: 50 });

    const plain = await created(t, { name: 'One more', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 1 } });
    expect((await order(t, members[0].id, 5)).status).toBe(201);
    expect((await tallies(t, plain.id)).length).toBeGreaterThan(0);
    expect((await call('DELETE', `/api/flash/campaigns/${plain.id}`, { token: t.token })).status).toBe(204);
    expect(await tallies(t, plain.id)).toEqual([]);
  });

  it('a budget holds under parallel orders: 8 members at once, 3 grants of 10 within 30 points', async () => {
    const t = await tenant('campaign-budget');
    const members = await Promise.all(Array.from({ length: 8 }, () => newMember(t.key)));
    const c = await created(t, {
      name: 'First 30',
      status: 'active',
      trigger: { type: 'order' },
      effect: { type: 'bonus_points', points: 10 },
      limits: { perMember: 1, totalPoints: 30 },
    });
    const answers = await Promise.all(members.map((m) => order(t, m.id, 5)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const balances = await Promise.all(members.map((m) => balanceOf(t.key, m.id)));
    expect(balances.map((b) => b.balance).sort((a, b) => a - b)).toEqual([5, 5, 5, 5, 5, 15, 15, 15]);
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 3, pointsGranted: 30 });
  });
});
