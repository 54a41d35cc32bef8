import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENTS, STAGES } from '../../shared/platform/events/registry';
import { call } from '../support/api';
import { newMember, newOrder, tenant, type Tenant } from '../support/fixtures';
import { eventually, startReceiver } from '../support/receiver';

/**
 * The global platform runs with shrunk webhook numbers (test/support/global-setup.ts): 4 attempts,
 * backoff base 1 s and cap 2 s, a 4 s rotation overlap, a 2 s delivery time-out.
 */
const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

async function subscribe(t: Tenant, url: string, eventTypes: string[] = Object.keys(EVENTS)) {
  const res = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url, description: 'test receiver', eventTypes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
}

const attemptsOf = async (t: Tenant, endpointId: string) =>
  (await call('GET', `/api/v2/webhooks/${endpointId}/deliveries?limit=200`, { token: t.key })).body.data as any[];

const verify = (secret: string, r: { body: string; headers: Record<string, unknown> }) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

/**
 * Waits until a later event, sent through the whole pipeline (outbox, stream, fan-out, queue,
 * delivery) after everything the test did, has reached `r`: whatever the earlier events still had
 * on its way has been handled by then, so the test can assert that nothing more arrived.
 */
async function drained(t: Tenant, r: { received: { body: string }[] }) {
  const later = await newMember(t.key);
  await eventually(async () => (r.received.some((x) => JSON.parse(x.body).data?.resource_id === later.id) ? true : undefined), 20_000, 'a later event');
  return later.id as string;
}

// Each test has a workspace and receivers of its own, and mostly waits on the delivery pipeline's
// retries (1-2 s apart): side by side, those waits overlap instead of adding up.
describe.concurrent('webhook endpoints', () => {
  it('create returns the secret once; list and patch never show it; delete removes', async () => {
    const t = await tenant('wh-crud');
    const r = await receiver();
    const created = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: r.url, description: 'CRM', eventTypes: ['member.created'] } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ url: r.url, description: 'CRM', eventTypes: ['member.created'], status: 'active' });
    expect(created.body.data.id).toMatch(/^whe_/);
    expect(created.body.data.secret).toMatch(/^whsec_/);
    const list = await call('GET', '/api/v2/webhooks', { token: t.key });
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([created.body.data.id]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const patched = await call('PATCH', `/api/v2/webhooks/${created.body.data.id}`, {
      token: t.key,
      body: { eventTypes: ['member.created', 'order.created'], status: 'disabled' },
    });
    expect(patched.body.data).toMatchObject({ eventTypes: ['member.created', 'order.created'], status: 'disabled' });
    expect(JSON.stringify(patched.body)).not.toContain('whsec_');
    expect((await call('DELETE', `/api/v2/webhooks/${created.body.data.id}`, { token: t.key })).status).toBe(204);
    expect((await call('GET', '/api/v2/webhooks', { token: t.key })).body.data).toEqual([]);
    expect((await call('DELETE', `/api/v2/webhooks/${created.body.data.id}`, { token: t.key })).status).toBe(404);
  });

  it('refuses events outside the catalog and literal private or metadata addresses with 422', async () => {
    const t = await tenant('wh-val');
    const bad = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: 'https://example.com/hook', eventTypes: ['member.exploded'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toMatch(/^eventTypes/);
    for (const url of [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/x',
      'ftp://example.com/x',
      'not a url',
      'https://user:pw@example.com/x',
    ]) {
      const res = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url, eventTypes: ['member.created'] } });
      expect(res.status, url).toBe(422);
      expect(res.body.error.details[0].field).toBe('url');
    }
  });

  it('["*"] subscribes to every event; "*" next to named events is a 422', async () => {
    const t = await tenant('wh-star');
    const all = await receiver();
    const some = await receiver();
    const star = await subscribe(t, all.url, ['*']);
    await subscribe(t, some.url, ['order.created']);
    const listed = (await call('GET', '/api/v2/webhooks', { token: t.key })).body.data as { id: string; eventTypes: string[] }[];
    expect(listed.find((e) => e.id === star.id)?.eventTypes).toEqual(['*']);
    const m = await newMember(t.key);
    await newOrder(t.key, m.id, { total: 50 });
    await some.waitFor(1);
    await all.waitFor(3); // member.created, order.created, loyalty.points_earned
    const types = all.received.map((x) => JSON.parse(x.body).type);
    expect(types).toEqual(expect.arrayContaining(['member.created', 'order.created', 'loyalty.points_earned']));
    expect(some.received.map((x) => JSON.parse(x.body).type)).toEqual(['order.created']);
    const mixed = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: all.url, eventTypes: ['*', 'member.created'] } });
    expect(mixed.status).toBe(422);
    expect(mixed.body.error.details[0]).toMatchObject({ field: 'eventTypes', message: expect.stringContaining('list it alone') });
  });

  it('the catalog lists every registered event with a spec stage, example payload and the signature headers', async () => {
    const t = await tenant('wh-catalog');
    const res = await call('GET', '/api/v2/events/catalog', { token: t.key });
    expect(res.status).toBe(200);
    expect(res.body.data.events.map((e: { event: string }) => e.event).sort()).toEqual(Object.keys(EVENTS).sort());
    for (const e of res.body.data.events) {
      expect(STAGES).toContain(e.stage);
      expect(e.examplePayload).toMatchObject({ type: e.event, data: { resource_id: expect.any(String) } });
    }
    expect(Object.keys(res.body.data.payload.headers)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type']);
    expect(res.body.data.payload.schema.properties).toHaveProperty('data');
  });
});

describe.concurrent('webhook delivery', () => {
  it('every catalog event fires: each arrives signed (standardwebhooks verifies), thin, with no personal data', async () => {
    // A sandbox, so its clock can bring the program's timed events (activation, warning, expiry).
    const t = await tenant('wh-all', { sandbox: true });
    const r = await receiver();
    const { secret } = await subscribe(t, r.url);
    const m = await newMember(t.key, { firstName: 'Secretive', lastName: 'Person', phone: '+49 30 5550123' });
    const campaign = { name: 'Bonus', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 5 } };
    expect((await call('POST', '/api/flash/campaigns', { token: t.token, body: campaign })).status).toBe(201);
    const o = await newOrder(t.key, m.id, { total: 700 });
    // Below silver again (705 - 250 points): without retention (the default) the tier drops at once.
    await call('POST', `/api/v2/orders/${o.externalOrderId}/refund`, { token: t.key, body: { amount: 250 } });
    const type = {
      label: 'Visit',
      status: 'published',
      apiVisible: true,
      fields: [
        { key: 'note', type: 'text', required: true },
        { key: 'guest', type: 'member_ref' },
      ],
    };
    expect((await call('PUT', '/api/flash/objects/types/visit', { token: t.token, body: type })).status).toBe(200);
    const rec = await call('POST', '/api/v2/objects/visit/records', { token: t.key, body: { data: { note: 'Secretive Person visited', guest: m.id } } });
    await call('PATCH', `/api/v2/objects/visit/records/${rec.body.data.id}`, { token: t.key, body: { data: { note: 'again' } } });
    await call('DELETE', `/api/v2/objects/visit/records/${rec.body.data.id}`, { token: t.key });
    const pool = await call('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'Welcome', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 5 },
    });
    const coupon = await call('POST', '/api/v2/coupons/issue', { token: t.key, body: { poolId: pool.body.data.id, memberId: m.id } });
    await call('POST', `/api/v2/coupons/${coupon.body.data.id}/redeem`, { token: t.key, body: {} });
    const reward = await call('POST', '/api/v2/rewards', {
      token: t.key,
      body: { name: 'Free shipping', pointsCost: 5, benefit: { type: 'free_shipping' }, status: 'active' },
    });
    const redemption = await call('POST', `/api/v2/rewards/${reward.body.data.id}/redemptions`, { token: t.key, body: { memberId: m.id } });
    expect((await call('POST', `/api/v2/redemptions/${redemption.body.data.id}/void`, { token: t.key })).status).toBe(200);
    await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['vip'] } });
    await call('POST', `/api/v2/ambassador/members/${m.id}/issue-code`, { token: t.key, body: {} });
    await call('POST', '/api/v2/captures', { token: t.key, body: { email: 'lead@example.test', source: 'footer-form', consents: { marketingEmail: true } } });
    // Points that wait a day, then expire two days later (warned a day before): the clock runs them.
    const rules = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    const points = { expiry: { policy: 'fixed_days', days: 2 }, warnDays: [1], pendingDays: 1 };
    expect((await call('PUT', '/api/flash/program', { token: t.token, body: { earn: rules.earn, tiers: rules.tiers, points } })).status).toBe(200);
    await newOrder(t.key, m.id, { total: 10 });
    expect((await call('POST', '/api/flash/clock/advance', { token: t.token, body: { days: 5 } })).status).toBe(200);
    expect((await call('POST', `/api/v2/members/${m.id}/erasure`, { token: t.key })).status).toBe(200);
    // Every type arrives (some more than once: the capture creates a member too, two orders...).
    await eventually(async () => (new Set(r.received.map((x) => JSON.parse(x.body).type)).size >= Object.keys(EVENTS).length ? true : undefined));
    const bodies = r.received.map((x) => JSON.parse(x.body));
    expect(new Set(bodies.map((b) => b.type))).toEqual(new Set(Object.keys(EVENTS)));
    for (const x of r.received) {
      const payload = verify(secret, x as never) as { id: string };
      expect(payload.id).toBe(x.headers['webhook-id']);
      expect(x.headers['content-type']).toBe('application/json');
      expect(x.body).not.toMatch(new RegExp([m.email, 'Secretive', 'Person', '5550123', 'lead@example', coupon.body.data.code].join('|')));
    }
    const created = bodies.find((b) => b.type === 'member.created');
    expect(created).toMatchObject({ id: expect.stringMatching(/^evt_/), data: { resource_id: m.id, member_ref: m.id } });
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.keys(created)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(bodies.find((b) => b.type === 'loyalty.tier_upgraded').data).toEqual({ resource_id: m.id, member_ref: m.id, tier: 'silver' });
    expect(bodies.find((b) => b.type === 'loyalty.tier_downgraded').data).toEqual({ resource_id: m.id, member_ref: m.id, tier: 'bronze' });
    expect(bodies.find((b) => b.type === 'order.created').data.amount_band).toBe('500-1000 EUR');
    expect(bodies.find((b) => b.type === 'object.record_created').data).toEqual({ resource_id: rec.body.data.id, object_type: 'visit', member_ref: m.id });
    const thin = { resource_id: redemption.body.data.id, member_ref: m.id, reward_id: reward.body.data.id };
    expect(bodies.filter((b) => b.type === 'reward.redeemed').map((b) => b.data)).toEqual([thin]);
    expect(bodies.filter((b) => b.type === 'reward.voided').map((b) => b.data)).toEqual([thin]);
  });

  it('a tampered body or a timestamp outside 300 s fails verification', async () => {
    const t = await tenant('wh-tamper');
    const r = await receiver();
    const { secret } = await subscribe(t, r.url, ['member.created']);
    await newMember(t.key);
    const [x] = await r.waitFor(1);
    expect(() => verify(secret, x as never)).not.toThrow();
    expect(() => verify(secret, { ...x!, body: x!.body.replace('member.created', 'member.deleted') } as never)).toThrow();
    const old = { ...x!, headers: { ...x!.headers, 'webhook-timestamp': String(Number(x!.headers['webhook-timestamp']) - 301) } };
    expect(() => verify(secret, old as never)).toThrow();
  });

  it('503 twice then 200: three attempts logged, one delivered, one webhook-id', async () => {
    const t = await tenant('wh-retry');
    const r = await receiver((n) => ({ status: n <= 2 ? 503 : 200 }));
    const { id } = await subscribe(t, r.url, ['member.created']);
    await newMember(t.key);
    await r.waitFor(3);
    const log = await eventually(async () => {
      const a = await attemptsOf(t, id);
      return a.length >= 3 ? a : undefined;
    });
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
    const ordered = [...log].reverse();
    expect(ordered.map((a) => [a.attempt, a.statusCode, a.state])).toEqual([
      [1, 503, 'retrying'],
      [2, 503, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    expect(ordered[0].nextRetryAt).not.toBeNull();
    expect(ordered[2].nextRetryAt).toBeNull();
    expect(new Set(log.map((a) => a.deliveryId)).size).toBe(1);
    expect(log[0].eventId).toBe(r.received[0]!.headers['webhook-id']);
    await drained(t, r);
    expect(r.received.filter((x) => x.headers['webhook-id'] === log[0].eventId)).toHaveLength(3);
    expect(r.received).toHaveLength(4);
  });

  it('410 and 400 fail permanently after one attempt', async () => {
    for (const status of [410, 400]) {
      const t = await tenant(`wh-${status}`);
      const r = await receiver(() => ({ status, body: 'x'.repeat(5000) }));
      const { id } = await subscribe(t, r.url, ['member.created']);
      await newMember(t.key);
      await r.waitFor(1);
      const [entry] = await eventually(async () => {
        const a = await attemptsOf(t, id);
        return a.length ? a : undefined;
      });
      expect(entry).toMatchObject({ attempt: 1, statusCode: status, state: 'failed', nextRetryAt: null });
      expect(entry.responseExcerpt.length).toBe(1024);
      await drained(t, r);
      expect(r.received.filter((x) => x.headers['webhook-id'] === entry.eventId)).toHaveLength(1);
      expect(r.received).toHaveLength(2);
    }
  });

  it('always 500: attempts up to the limit, then dead; a replay succeeds once the receiver recovers', async () => {
    const t = await tenant('wh-dead');
    let healthy = false;
    const r = await receiver(() => ({ status: healthy ? 200 : 500 }));
    const { id } = await subscribe(t, r.url, ['member.created']);
    await newMember(t.key);
    await r.waitFor(4);
    const log = await eventually(
      async () => {
        const a = await attemptsOf(t, id);
        return a.some((x) => x.state === 'dead') ? a : undefined;
      },
      20_000,
      'the delivery to be dead',
    );
    const ordered = [...log].reverse();
    expect(ordered.map((a) => a.state)).toEqual(['retrying', 'retrying', 'retrying', 'failed', 'dead']);
    expect(ordered[3].error).toMatch(/dead-letter/);
    expect(r.received).toHaveLength(4);

    healthy = true;
    const replay = await call('POST', `/api/v2/webhooks/${id}/deliveries/${ordered[0].deliveryId}/replay`, { token: t.key });
    expect(replay.status).toBe(202);
    await r.waitFor(5);
    expect(r.received[4]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    expect(r.received[4]!.body).toBe(r.received[0]!.body);
    const after = await eventually(async () => {
      const a = await attemptsOf(t, id);
      return a[0]?.state === 'delivered' ? a : undefined;
    });
    expect(after[0]).toMatchObject({ trigger: 'replay', attempt: 1, statusCode: 200 });
  });

  it("a replay is refused with 409 DELIVERY_IN_PROGRESS while a retry chain is live, its own or an earlier replay's", async () => {
    const t = await tenant('wh-replay-live');
    let healthy = false;
    const r = await receiver(() => ({ status: healthy ? 200 : 500 }));
    const { id } = await subscribe(t, r.url, ['member.created']);
    await newMember(t.key);
    const replay = (deliveryId: string) => call('POST', `/api/v2/webhooks/${id}/deliveries/${deliveryId}/replay`, { token: t.key });
    const stateOf = async (wanted: string) => eventually(async () => (await attemptsOf(t, id)).find((a) => a.state === wanted), 20_000, `a ${wanted} entry`);
    const { deliveryId } = await stateOf('retrying');
    const live = await replay(deliveryId);
    expect(live.status).toBe(409);
    expect(live.body.error.code).toBe('DELIVERY_IN_PROGRESS');
    await stateOf('dead');
    const sent = r.received.length;

    // Dead: two replays at once start one chain; the other, and any while that chain retries, is 409.
    const both = await Promise.all([replay(deliveryId), replay(deliveryId)]);
    expect(both.map((x) => x.status).sort()).toEqual([202, 409]);
    expect((await replay(deliveryId)).status).toBe(409);
    await eventually(async () => ((await attemptsOf(t, id)).filter((a) => a.state === 'dead').length === 2 ? true : undefined), 20_000, 'dead again');
    expect(r.received.length - sent).toBe(4); // one chain of 4 attempts, not two

    healthy = true;
    expect((await replay(deliveryId)).status).toBe(202);
    await eventually(async () => ((await attemptsOf(t, id))[0]?.state === 'delivered' ? true : undefined), 20_000, 'delivered');
    // Delivered is final too: it may be sent again.
    expect((await replay(deliveryId)).status).toBe(202);
  });

  it('a test ping goes through the same pipeline; disabled and deleted endpoints get nothing', async () => {
    const t = await tenant('wh-ping');
    const r = await receiver();
    const { id, secret } = await subscribe(t, r.url, ['member.created']);
    const witness = await receiver();
    await subscribe(t, witness.url, ['member.created']);
    const ping = await call('POST', `/api/v2/webhooks/${id}/test`, { token: t.key });
    expect(ping.status).toBe(202);
    const [x] = await r.waitFor(1);
    expect(JSON.parse(x!.body)).toMatchObject({ type: 'webhook.ping', data: { resource_id: id } });
    expect(() => verify(secret, x as never)).not.toThrow();

    await call('PATCH', `/api/v2/webhooks/${id}`, { token: t.key, body: { status: 'disabled' } });
    expect((await call('POST', `/api/v2/webhooks/${id}/test`, { token: t.key })).status).toBe(409);
    const whileDisabled = await newMember(t.key);
    await call('DELETE', `/api/v2/webhooks/${id}`, { token: t.key });
    const afterDelete = await newMember(t.key);
    // The other endpoint of the workspace got both events and a later one: their fan-out is done.
    const later = await drained(t, witness);
    expect(witness.received.map((x) => JSON.parse(x.body).data.resource_id).sort()).toEqual([whileDisabled.id, afterDelete.id, later].sort());
    expect(r.received).toHaveLength(1);
  });

  // Alone, after the others: its first event must arrive within the 4 s overlap, a margin the
  // other tests' deliveries would take from it.
  it.sequential('a rotation signs with both secrets during the overlap, then only with the new one', async () => {
    const t = await tenant('wh-rotate');
    const r = await receiver();
    const { id, secret: oldSecret } = await subscribe(t, r.url, ['member.created']);
    const rotated = await call('PATCH', `/api/v2/webhooks/${id}`, { token: t.key, body: { action: 'rotate_secret' } });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    await newMember(t.key);
    const [during] = await r.waitFor(1);
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => verify(oldSecret, during as never)).not.toThrow();
    expect(() => verify(newSecret, during as never)).not.toThrow();
    await new Promise((res) => setTimeout(res, 4500)); // the overlap of the test platform is 4 s
    await newMember(t.key);
    const after = (await r.waitFor(2))[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => verify(newSecret, after as never)).not.toThrow();
    expect(() => verify(oldSecret, after as never)).toThrow();
  });
});

describe('the request id of the change, in the delivery log', () => {
  it('an event caused by a request carries that request id (x-request-id) into its delivery log entry; a replay carries its own', async () => {
    const t = await tenant('wh-request-id');
    const r = await receiver();
    const { id } = await subscribe(t, r.url, ['member.created']);
    const requestId = `e2e-corr-${Date.now().toString(36)}`;
    const created = await call('POST', '/api/v2/members', {
      token: t.key,
      body: { email: `corr-${requestId}@example.com` },
      headers: { 'x-request-id': requestId },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe(requestId);
    const [entry] = await eventually(async () => {
      const list = await attemptsOf(t, id);
      return list.length ? list : undefined;
    });
    expect(entry).toMatchObject({ eventType: 'member.created', state: 'delivered', trigger: 'event', requestId });
    expect(JSON.parse(r.received[0]!.body).data.resource_id).toBe(created.body.data.id);

    const replayId = `e2e-replay-${Date.now().toString(36)}`;
    const replay = await call('POST', `/api/v2/webhooks/${id}/deliveries/${entry.deliveryId}/replay`, { token: t.key, headers: { 'x-request-id': replayId } });
    expect(replay.status).toBe(202);
    const replayed = await eventually(async () => (await attemptsOf(t, id)).find((a) => a.trigger === 'replay'));
    expect(replayed).toMatchObject({ state: 'delivered', requestId: replayId });
  });
});
