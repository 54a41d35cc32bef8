import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { startReceiver } from '../support/receiver';

/**
 * Campaign rewards beyond an order's points, over HTTP on the local runtime: the coupon effect,
 * and the triggers other than an order (a new member, a new tag, a birthday, an inactivity spell),
 * each granted once per occurrence, within its own workspace only.
 */
const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function campaign(t: Tenant, body: Record<string, unknown>) {
  const res = await call('POST', '/api/flash/campaigns', { token: t.token, body: { status: 'active', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const campaignOf = async (t: Tenant, id: string) => (await call('GET', `/api/flash/campaigns/${id}`, { token: t.token })).body.data;

async function pool(t: Tenant, stock: number) {
  const res = await call('POST', '/api/v2/coupons/pools', {
    token: t.key,
    body: { name: 'Thank you', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const couponsOf = async (t: Tenant, memberId: string) => (await call('GET', `/api/v2/members/${memberId}/coupons`, { token: t.key })).body.data as any[];

async function entriesOf(t: Tenant, memberId: string) {
  const res = await call('GET', `/api/v2/members/${memberId}/points?limit=100`, { token: t.key });
  expect(res.status).toBe(200);
  return [...res.body.data.entries].reverse() as any[];
}

async function order(t: Tenant, memberId: string, total: number, occurredAt = new Date().toISOString()) {
  const res = await call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId: orderId('TRG'), memberId, currency: 'EUR', total, occurredAt } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function receiverFor(t: Tenant, eventTypes: string[]) {
  const r = await startReceiver();
  receivers.push(r);
  const res = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: r.url, eventTypes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { events: () => r.received.map((x) => JSON.parse(x.body)), waitFor: r.waitFor };
}

describe('the coupon effect on orders', () => {
  it('issues one coupon of the pool with the order, writes no ledger entry, and emits campaign.reward_granted naming the coupon; an empty pool skips it', async () => {
    const t = await tenant('campaign-coupon');
    const hook = await receiverFor(t, ['campaign.reward_granted', 'coupon.issued']);
    const p = await pool(t, 1);
    const c = await campaign(t, { name: 'Coupon with every order', trigger: { type: 'order' }, effect: { type: 'coupon', poolId: p.id } });
    const [m, n] = await Promise.all([newMember(t.key), newMember(t.key)]);

    const first = await order(t, m.id, 50);
    const coupons = await couponsOf(t, m.id);
    expect(coupons).toEqual([expect.objectContaining({ poolId: p.id, memberId: m.id, status: 'issued' })]);
    // Only the order's own entry: a coupon is no points.
    expect((await entriesOf(t, m.id)).map((e) => [e.type, e.amount, e.source.externalOrderId])).toEqual([['earn', 50, first.externalOrderId]]);
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 1, pointsGranted: 0 });
    await hook.waitFor(2);
    const granted = hook.events().find((e) => e.type === 'campaign.reward_granted');
    expect(granted.data).toEqual({ resource_id: coupons[0].id, member_ref: m.id, campaign_id: c.id });
    expect(hook.events().find((e) => e.type === 'coupon.issued').data).toMatchObject({ resource_id: coupons[0].id, member_ref: m.id, pool_id: p.id });

    // The pool's only coupon is gone: the next order is recorded and earns its points, without a coupon.
    await order(t, n.id, 20);
    expect(await couponsOf(t, n.id)).toEqual([]);
    expect(await balanceOf(t.key, n.id)).toEqual({ balance: 20, pending: 0, lifetime: 20 });
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 1 });
  });
});

describe('member_created and tag_added', () => {
  it('a new member gets the welcome reward once, through the API and through a capture; another workspace never does', async () => {
    const [t, other] = await Promise.all([tenant('campaign-welcome'), tenant('campaign-welcome-other')]);
    const hook = await receiverFor(t, ['campaign.reward_granted']);
    const welcome = await campaign(t, { name: 'Welcome', trigger: { type: 'member_created' }, effect: { type: 'bonus_points', points: 100 } });
    // An order field never holds on a member's creation; a tier condition does.
    await campaign(t, {
      name: 'Never',
      trigger: { type: 'member_created' },
      conditions: [{ field: 'order.total', op: 'gte', value: 0 }],
      effect: { type: 'bonus_points', points: 1000 },
    });
    await campaign(t, {
      name: 'First tier',
      trigger: { type: 'member_created' },
      conditions: [{ field: 'member.tier', op: 'eq', value: 'bronze' }],
      effect: { type: 'bonus_points', points: 5 },
    });

    const m = await newMember(t.key);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 105, pending: 0, lifetime: 105 });
    const entries = await entriesOf(t, m.id);
    expect(entries.map((e) => [e.type, e.amount, e.source.type, e.source.campaignId, e.source.orderId])).toEqual([
      ['campaign', 100, 'campaign', welcome.id, null],
      ['campaign', 5, 'campaign', expect.stringMatching(/^cmp_/), null],
    ]);
    expect(entries[0].reason).toBe('Welcome: 100 bonus points');

    const lead = await call('POST', '/api/v2/captures', {
      token: t.key,
      body: { source: 'footer_form', email: `lead-${orderId()}@example.com`, consents: {} },
    });
    expect(lead.status, JSON.stringify(lead.body)).toBe(201);
    expect(await balanceOf(t.key, lead.body.data.memberId)).toEqual({ balance: 105, pending: 0, lifetime: 105 });
    expect(await campaignOf(t, welcome.id)).toMatchObject({ grants: 2, pointsGranted: 200 });

    const theirs = await newMember(other.key);
    expect(await balanceOf(other.key, theirs.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });
    await hook.waitFor(4);
    expect(hook.events().every((e) => [m.id, lead.body.data.memberId].includes(e.data.member_ref))).toBe(true);
  });

  it('a tag newly added grants once, even when two requests add it at the same time; a tag already there grants nothing', async () => {
    const t = await tenant('campaign-tagged');
    const m = await newMember(t.key);
    const tag = (tags: string[]) => call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags } });
    expect((await tag(['vip'])).status).toBe(200);
    await call('DELETE', `/api/v2/members/${m.id}/tags/vip`, { token: t.key });
    const vip = await campaign(t, {
      name: 'Welcome to VIP',
      trigger: { type: 'tag_added' },
      conditions: [{ field: 'member.tags', op: 'contains', value: 'vip' }],
      effect: { type: 'bonus_points', points: 25 },
    });

    const both = await Promise.all([tag(['vip']), tag(['vip'])]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => r.body.data.added).sort()).toEqual([[], ['vip']]);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 25, pending: 0, lifetime: 25 });

    // vip is there already: adding it again, or adding another tag, is no new vip tag.
    expect((await tag(['vip', 'newsletter'])).body.data.added).toEqual(['newsletter']);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 25, pending: 0, lifetime: 25 });
    // Taken off and added again: a new tagging, a new grant.
    await call('DELETE', `/api/v2/members/${m.id}/tags/vip`, { token: t.key });
    await tag(['vip']);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 50, pending: 0, lifetime: 50 });
    expect(await campaignOf(t, vip.id)).toMatchObject({ grants: 2, pointsGranted: 50 });
  });
});
