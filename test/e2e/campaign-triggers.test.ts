import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { startReceiver } from '../support/receiver';

/**
 * Campaign rewards beyond an order's points, over HTTP on the local runtime: the coupon effect,
 * and the triggers other than an order (a new member, a new tag, a birthday, an inactivity spell),
 * each granted once per occurrence, within its own workspace only.
 */
const DAY = 86_400_000;
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
  it("parallel orders race for an uploaded list's last codes: each code goes to one member, every order is recorded; a member at the pool's limit gets no second one", async () => {
    const t = await tenant('campaign-coupon-race');
    const codes = [`RACE-${orderId()}-A`, `RACE-${orderId()}-B`];
    const listed = await call('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'Two codes', discount: { type: 'percent', value: 5 }, codeConfig: { mode: 'list', codes }, perMemberLimit: 1 },
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(201);
    const c = await campaign(t, { name: 'Code with an order', trigger: { type: 'order' }, effect: { type: 'coupon', poolId: listed.body.data.id } });
    const members = await Promise.all(Array.from({ length: 5 }, () => newMember(t.key)));
    await Promise.all(members.map((m) => order(t, m.id, 10)));
    const held = (await Promise.all(members.map((m) => couponsOf(t, m.id)))).flat();
    expect(held.map((x) => x.code).sort()).toEqual([...codes].sort());
    expect(new Set(held.map((x) => x.memberId)).size).toBe(2);
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 2 });
    for (const m of members) expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 10 });

    // A pool with stock but a per-member limit of 1: the holder's next order brings no second coupon.
    await call('PATCH', `/api/flash/campaigns/${c.id}`, { token: t.token, body: { status: 'paused' } });
    const poolLimit = await call('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'One per member', discount: { type: 'percent', value: 5 }, codeConfig: { mode: 'generated' }, stock: 10, perMemberLimit: 1 },
    });
    expect(poolLimit.status).toBe(201);
    const limited = await campaign(t, { name: 'One each', trigger: { type: 'order' }, effect: { type: 'coupon', poolId: poolLimit.body.data.id } });
    const [m] = members;
    await order(t, m!.id, 1);
    await order(t, m!.id, 1);
    expect((await couponsOf(t, m!.id)).filter((x) => x.poolId === poolLimit.body.data.id)).toHaveLength(1);
    expect(await campaignOf(t, limited.id)).toMatchObject({ grants: 1 });
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

describe('birthday and inactivity, through the sandbox clock', () => {
  const sandbox = (label: string) => tenant(label, { sandbox: true });
  const advance = async (t: Tenant, days: number) => {
    const res = await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return Date.parse(res.body.data.now);
  };
  const clockOf = async (t: Tenant) => Date.parse((await call('GET', '/api/flash/clock', { token: t.token })).body.data.now);
  /** A birth date whose birthday is `days` after `now` in UTC (never 29 February, which has its own unit tests). */
  const bornDaysAfter = (now: number, days: number) => {
    const d = new Date(now + days * DAY);
    const md = d.toISOString().slice(5, 10);
    return md === '02-29' ? undefined : `1990-${md}`;
  };

  it('a birthday grants once when the clock passes it, again the next year, never to another workspace', async () => {
    const [t, other] = await Promise.all([sandbox('birthday'), sandbox('birthday-other')]);
    const now = await clockOf(t);
    const birthDate = bornDaysAfter(now, 10) ?? bornDaysAfter(now, 11)!;
    const c = await campaign(t, { name: 'Happy birthday', trigger: { type: 'birthday' }, effect: { type: 'bonus_points', points: 50 } });
    const m = await newMember(t.key, { birthDate });
    const none = await newMember(t.key);
    const theirs = await newMember(other.key, { birthDate });

    await advance(t, 5);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });
    await advance(t, 7);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 50, pending: 0, lifetime: 50 });
    const [entry] = await entriesOf(t, m.id);
    expect(entry).toMatchObject({ type: 'campaign', amount: 50, source: { type: 'campaign', campaignId: c.id } });
    // Granted at the start of the birthday (UTC here).
    expect(entry.createdAt.slice(5)).toBe(`${birthDate.slice(5)}T00:00:00.000Z`);
    // Once: the days after it grant nothing more.
    await advance(t, 3);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 50 });
    await advance(t, 365);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 100 });
    expect(await balanceOf(t.key, none.id)).toMatchObject({ balance: 0 });
    expect(await campaignOf(t, c.id)).toMatchObject({ grants: 2, pointsGranted: 100 });

    await advance(other, 15);
    expect(await balanceOf(other.key, theirs.id)).toMatchObject({ balance: 0 });
  });

  it('inactivity grants the win-back once per spell: again only after new activity and another spell', async () => {
    const t = await sandbox('win-back');
    const c = await campaign(t, { name: 'We miss you', trigger: { type: 'inactivity', days: 90 }, effect: { type: 'bonus_points', points: 30 } });
    const m = await newMember(t.key);
    const never = await newMember(t.key);
    await order(t, m.id, 20);

    await advance(t, 89);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 20 });
    await advance(t, 2);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 50 });
    // The reward is no activity of the member's: no second spell starts from it.
    await advance(t, 200);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 50 });
    // A spend is activity: another 90 days later, the second win-back.
    const spent = await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'deduct', amount: 10, reason: 'spend' } });
    expect(spent.status).toBe(201);
    await advance(t, 60);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 40 });
    await advance(t, 31);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 70 });
    const grants = (await entriesOf(t, m.id)).filter((e) => e.type === 'campaign');
    expect(grants.map((e) => [e.amount, e.source.campaignId])).toEqual([
      [30, c.id],
      [30, c.id],
    ]);
    // A member who never earned or spent has no spell to end.
    expect(await balanceOf(t.key, never.id)).toMatchObject({ balance: 0 });
  });

  it('what occurred before a campaign was set up (in the sandbox time) is not granted: a past birthday, a spell that reached its days earlier', async () => {
    const t = await sandbox('set-up');
    const start = await clockOf(t);
    const birthDate = bornDaysAfter(start, 50) ?? bornDaysAfter(start, 51)!;
    const born = await newMember(t.key, { birthDate });
    const dormant = await newMember(t.key);
    await order(t, dormant.id, 10);
    await advance(t, 100);

    const party = await campaign(t, { name: 'Birthday', trigger: { type: 'birthday' }, effect: { type: 'bonus_points', points: 50 } });
    const winBack = await campaign(t, { name: 'Win-back', trigger: { type: 'inactivity', days: 90 }, effect: { type: 'bonus_points', points: 30 } });
    expect(Date.parse(party.createdAt)).toBeGreaterThanOrEqual(start + 100 * DAY);
    const fresh = await newMember(t.key);
    await order(t, fresh.id, 10);
    await advance(t, 91);
    // The positive control: a spell that started after the set-up is rewarded.
    expect(await balanceOf(t.key, fresh.id)).toMatchObject({ balance: 40 });
    expect(await balanceOf(t.key, born.id)).toMatchObject({ balance: 0 });
    expect(await balanceOf(t.key, dormant.id)).toMatchObject({ balance: 10 });
    expect(await campaignOf(t, winBack.id)).toMatchObject({ grants: 1 });
  });
});
