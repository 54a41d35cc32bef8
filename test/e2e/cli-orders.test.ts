import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { cli, startCli } from '../support/cli';
import { newMember, newOrder, orderId, tenant, type Tenant } from '../support/fixtures';
import { eventually, startReceiver } from '../support/receiver';

/**
 * `loyalty orders` against the test platform, and the walkthrough a newcomer follows (README "First
 * order in five minutes"): the documented order, a member, a webhook, an order from the tool, its
 * delivery in the followed log. Its own workspace, so the order events here reach no other file's endpoints.
 */
let t: Tenant;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => Promise.all(closers.map((c) => c())));
beforeAll(async () => {
  t = await tenant('cli-orders');
});

const run = (args: string[], env: Record<string, string | undefined> = {}) => cli(args, { env: { LOYALTY_API_KEY: t.key, ...env } });
const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe.concurrent('loyalty orders', { timeout: 180_000 }, () => {
  it('first order in five minutes: documented request, member, webhook, orders create, its delivery followed', async () => {
    const doc = (await call('GET', '/api/v2/openapi.json', { token: t.key })).body;
    const createOrder = doc.paths['/api/v2/orders'].post;
    expect(createOrder.operationId).toBe('createOrder');
    const example = Object.values(createOrder.requestBody.content['application/json'].examples as Record<string, { value: Record<string, unknown> }>)[0]!.value;
    expect(example).toMatchObject({ externalOrderId: expect.any(String), currency: 'EUR', total: 59.9, occurredAt: expect.any(String) });

    const member = await newMember(t.key, { firstName: 'Grace' });
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const endpoint = (await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['order.created'] } })).body.data;

    const created = await run([
      'orders',
      'create',
      '--member',
      member.id,
      '--total',
      '59.90',
      '--currency',
      'EUR',
      '--item',
      'BEAN-ETH-250:2:14.95',
      '--item',
      'MUG-BLK:1:30.00',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.match(/^Recorded order (ord_\S+)$/m)?.[1];
    expect(id, created.stdout).toBeDefined();
    const earned = Number(created.stdout.match(/^ {2}points +(\d+) earned$/m)?.[1]);
    expect(earned).toBeGreaterThan(0);
    expect(created.stdout).toMatch(new RegExp(`^ {2}member +${member.id}$`, 'm'));
    expect(created.stdout).toMatch(/^ {2}total +59\.90 EUR$/m);
    expect(created.stdout).toMatch(new RegExp(`^ {2}balance +${earned} \\(pending 0\\)$`, 'm'));
    expect(created.stdout).toMatch(/^Idempotency-Key: [0-9a-f-]{36}$/m);

    // The event names the order; the delivery log names the event (its webhook-id).
    const delivered = await eventually(
      async () => receiver.received.find((r) => JSON.parse(r.body).data.resource_id === id),
      30_000,
      'the order.created delivery',
    );
    const eventId = String(delivered.headers['webhook-id']);
    expect(JSON.parse(delivered.body).type).toBe('order.created');

    const follow = startCli(['webhooks', 'deliveries', endpoint.id, '--follow', '--interval', '200', '--json'], { env: { LOYALTY_API_KEY: t.key } });
    const line = await follow.waitForOutput(new RegExp(`^\\{.*"eventId":"${eventId}".*\\}$`, 'm'));
    expect(JSON.parse(line[0])).toMatchObject({ eventId, eventType: 'order.created', attempt: 1, statusCode: 200, state: 'delivered' });
    const stopped = await follow.stop('SIGINT');
    expect(stopped.code, stopped.stderr).toBe(0);
  });

  it('create --json: the order, its points, the member balance and the Idempotency-Key; a replayed key is the same order', async () => {
    const member = await newMember(t.key);
    const externalId = orderId('CLI');
    const args = [
      'orders',
      'create',
      '--member',
      member.id,
      '--total',
      '100',
      '--currency',
      'EUR',
      '--external-id',
      externalId,
      '--occurred-at',
      '2026-11-01T10:00:00+01:00',
      '--idempotency-key',
      `key-${externalId}`,
      '--item',
      'GIFT:BOX:2:3.50',
      '--item',
      'CARD:1',
      '--json',
    ];
    const first = await run(args);
    expect(first.code, first.stderr).toBe(0);
    const order = json(first);
    expect(order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      externalOrderId: externalId,
      memberId: member.id,
      total: 100,
      currency: 'EUR',
      duplicate: false,
      idempotencyKey: `key-${externalId}`,
    });
    expect(order.occurredAt).toBe('2026-11-01T09:00:00.000Z');
    expect(order.items).toEqual([
      { sku: 'GIFT:BOX', quantity: 2, unitPrice: 3.5 },
      { sku: 'CARD', quantity: 1 },
    ]);
    expect(order.memberPoints.balance).toBe(order.points.earned);
    const again = json(await run(args));
    expect(again.id).toBe(order.id);
    expect(again.memberPoints.balance).toBe(order.points.earned);

    // Without members:read the order is still recorded; the balance is left out.
    const ordersOnly = (await call('POST', '/api/v2/api-keys', { token: t.token, body: { name: 'orders-only', scopes: ['orders:write'] } })).body.data.key;
    const noBalance = await run(['orders', 'create', '--member', member.id, '--total', '5', '--currency', 'EUR'], { LOYALTY_API_KEY: ordersOnly });
    expect(noBalance.code, noBalance.stderr).toBe(0);
    expect(noBalance.stdout).toMatch(/^ {2}balance +- \(the key lacks members:read\)$/m);
    const noBalanceJson = json(
      await run(['orders', 'create', '--member', member.id, '--total', '5', '--currency', 'EUR', '--json'], { LOYALTY_API_KEY: ordersOnly }),
    );
    expect(noBalanceJson).toMatchObject({ memberId: member.id, total: 5, duplicate: false, memberPoints: null });
  });

  it("lists orders, a member's with --member", async () => {
    const member = await newMember(t.key);
    const other = await newMember(t.key);
    const a = await newOrder(t.key, member.id, { total: 20 });
    const b = await newOrder(t.key, member.id, { total: 30, occurredAt: '2026-11-02T10:00:00Z' });
    const c = await newOrder(t.key, other.id);

    const mine = json(await run(['orders', 'list', '--member', member.id, '--json']));
    expect(mine.map((o: { id: string }) => o.id).sort()).toEqual([a.id, b.id].sort());
    const table = await run(['orders', 'list', '--member', member.id]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+EXTERNAL ORDER ID\s+MEMBER ID\s+TOTAL\s+CURRENCY\s+STATUS\s+REFUND STATUS\s+POINTS\s+OCCURRED AT$/m);
    expect(table.stdout).toMatch(
      new RegExp(`^${b.id}\\s+${b.externalOrderId}\\s+${member.id}\\s+30\\.00\\s+EUR\\s+completed\\s+none\\s+${b.points.net}\\s`, 'm'),
    );
    expect(table.stdout).not.toContain(c.id);
    expect(json(await run(['orders', 'list', '--json'])).map((o: { id: string }) => o.id)).toContain(c.id);
    const none = await newMember(t.key);
    expect((await run(['orders', 'list', '--member', none.id])).stdout.trim()).toBe('No orders.');
  });

  it('refunds part of an order, then the rest; more than is left is the API error, exit 1', async () => {
    const member = await newMember(t.key);
    const order = await newOrder(t.key, member.id, { total: 59.9 });

    const part = await run(['orders', 'refund', order.externalOrderId, '--amount', '30.00', '--reason', 'broken mug']);
    expect(part.code, part.stderr).toBe(0);
    expect(part.stdout).toMatch(new RegExp(`^Refunded 30\\.00 EUR of ${order.externalOrderId} \\(${order.id}\\): \\d+ points reversed, refund rfd_\\S+$`, 'm'));
    expect(part.stdout).toMatch(/^ {2}total +59\.90 EUR \(refunded 30\.00 EUR, partial\)$/m);

    const tooMuch = await run(['orders', 'refund', order.externalOrderId, '--amount', '30']);
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toMatch(/^Error: REFUND_EXCEEDS_REMAINING: .+ \(HTTP 409, request id req_\S+\)$/m);

    const rest = json(await run(['orders', 'refund', order.externalOrderId, '--json']));
    expect(rest.refund.amount).toBeCloseTo(29.9);
    expect(rest.order).toMatchObject({ refundStatus: 'full', refundedTotal: 59.9, points: { net: 0 } });
    expect(rest.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("an unknown member is the API's error (exit 1); bad arguments are usage errors (exit 2)", async () => {
    const unknown = await run(['orders', 'create', '--member', 'mbr_doesnotexist', '--total', '10', '--currency', 'EUR', '--json']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(JSON.parse(unknown.stderr).error).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Member not found',
      requestId: expect.stringMatching(/^req_/),
    });

    for (const args of [
      ['orders', 'create', '--total', '10', '--currency', 'EUR'],
      ['orders', 'create', '--member', 'mbr_x', '--total', 'ten', '--currency', 'EUR'],
      ['orders', 'create', '--member', 'mbr_x', '--total', '10', '--currency', 'EUR', '--item', 'MUG'],
      ['orders', 'refund', 'WEB-1', '--amount', '-5'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).not.toBe('');
    }
  });
});
