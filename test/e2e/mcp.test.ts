import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { call, createKey } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';
import { mcpClient, outputChecker, toolError, type McpClient } from '../support/mcp';

/**
 * The MCP server with the SDK's own client over HTTP against the local runtime: the handshake, the
 * tool list per scope, a call of every tool with its structured output checked against the output
 * schema it declares, refusals (domain errors, bad arguments, hidden tools, other workspaces),
 * idempotency, the resources, the 401/405 shapes and the audit entry of every call.
 */

const base = () => inject('baseUrl');

const repairJob = {
  label: 'Repair job',
  status: 'published',
  apiVisible: true,
  titleField: 'title',
  fields: [
    { key: 'title', type: 'text', required: true },
    { key: 'state', type: 'enum', required: true, options: ['open', 'done'] },
    { key: 'customer', type: 'member_ref' },
  ],
};

let t: Tenant;
let other: Tenant;
let all: McpClient;
let check: ReturnType<typeof outputChecker>;

beforeAll(async () => {
  [t, other] = await Promise.all([tenant('mcp'), tenant('mcp-other')]);
  expect((await call('PUT', '/api/flash/objects/types/repair_job', { token: t.token, body: repairJob })).status).toBe(200);
  ({ client: all } = await mcpClient(base(), t.key));
  check = outputChecker((await all.listTools()).tools);
});

const balance = async (key: string, memberId: string) => (await call('GET', `/api/v2/members/${memberId}`, { token: key })).body.data.points.balance as number;

describe('MCP transport and handshake', () => {
  it('initializes statelessly (2025 handshake) and announces tools and resources', async () => {
    const { client } = await mcpClient(base(), t.key);
    expect(client.getServerVersion()).toMatchObject({ name: 'loyalty-platform' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain('idempotencyKey');
  });

  it('serves a 2026-07-28 client (per-request envelope) from the same registry', async () => {
    const { client } = await mcpClient(base(), t.key, { modern: true });
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).toEqual((await all.listTools()).tools.map((x) => x.name));
    const member = await newMember(t.key);
    check('get_member', await client.callTool({ name: 'get_member', arguments: { memberId: member.id } }));
  });

  it('refuses subscriptions/listen in JSON at once instead of answering with a stream', async () => {
    const listen = {
      jsonrpc: '2.0',
      id: 7,
      method: 'subscriptions/listen',
      params: {
        notifications: { toolsListChanged: true },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const started = Date.now();
    const res = await call('POST', '/api/mcp', {
      token: t.key,
      body: listen,
      headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('answers GET and DELETE with 405 at once (no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await call(method, '/api/mcp', { token: t.key, headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('answers a bare request without any handshake (stateless), with one JSON body; a notification with 202', async () => {
    const list = await call('POST', '/api/mcp', { token: t.key, body: { jsonrpc: '2.0', id: 'x-1', method: 'tools/list' } });
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    expect(list.headers.get('mcp-session-id')).toBeNull();
    expect(list.body).toMatchObject({ jsonrpc: '2.0', id: 'x-1', result: { tools: expect.any(Array) } });
    const batch = await call('POST', '/api/mcp', {
      token: t.key,
      body: [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ],
    });
    expect(batch.body).toEqual([expect.objectContaining({ id: 1, result: {} }), expect.objectContaining({ id: 2, result: {} })]);
    const notification = await call('POST', '/api/mcp', { token: t.key, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    expect(notification.status).toBe(202);
    expect(notification.body).toBeUndefined();
  });

  it('keeps the API conventions: request id echoed, malformed JSON and oversized bodies in the error shape', async () => {
    const malformed = await call('POST', '/api/mcp', {
      token: t.key,
      rawBody: '{"jsonrpc":',
      headers: { 'x-request-id': 'mcp-conv-1', 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'BAD_REQUEST', requestId: 'mcp-conv-1' });
    expect(malformed.headers.get('x-request-id')).toBe('mcp-conv-1');
    const big = await call('POST', '/api/mcp', {
      token: t.key,
      rawBody: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1_100_000) } }),
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const notRpc = await call('POST', '/api/mcp', { token: t.key, body: { hello: 'world' } });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body.error.code).toBe('BAD_REQUEST');
  });
});

describe('MCP authentication', () => {
  const expect401 = async (authorization: string | undefined, invalidToken: boolean) => {
    const res = await call('POST', '/api/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: authorization ? { authorization } : {},
    });
    expect(res.status, authorization).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${base()}/.well-known/oauth-protected-resource/api/mcp"`);
    if (invalidToken) expect(challenge).toContain('error="invalid_token"');
    else expect(challenge).not.toContain('error=');
  };

  it('no, malformed, unknown and revoked keys get 401 with the Bearer challenge', async () => {
    await expect401(undefined, false);
    await expect401('Bearer fl_live_short', true);
    await expect401(`Bearer fl_live_${'A'.repeat(43)}`, true);
    const key = await createKey(t.token, { name: 'to revoke', preset: 'read-only' });
    expect((await call('POST', '/api/mcp', { token: key.key, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })).status).toBe(200);
    expect((await call('DELETE', `/api/v2/api-keys/${key.id}`, { token: t.token })).status).toBe(204);
    await expect401(`Bearer ${key.key}`, true);
  });

  it('a user session or a consumer token is not an API key: 401 as well', async () => {
    await expect401(`Bearer ${t.token}`, true);
    await expect401('Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtYnJfMSJ9.c2lnbmF0dXJl', true);
  });

  it('the SDK client fails to connect without a valid key', async () => {
    await expect(mcpClient(base(), `fl_live_${'B'.repeat(43)}`)).rejects.toThrow();
  });

  it('serves the protected-resource metadata (RFC 9728) with the scopes the tools use', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp']) {
      const res = await call('GET', path);
      expect(res.status).toBe(200);
      expect(res.body.resource).toBe(`${base()}/api/mcp`);
      expect(res.body.bearer_methods_supported).toEqual(['header']);
      expect(res.body.scopes_supported).toEqual(expect.arrayContaining(['members:read', 'members:write', 'objects:write', 'webhooks:manage']));
      for (const s of res.body.scopes_supported) expect(SCOPES).toContain(s);
    }
  });
});

describe('MCP tool list per scope', () => {
  it('a read-only key sees only read-only tools; a write key also the writes; every hint is explicit', async () => {
    const readOnly = await createKey(t.token, { name: 'ro', preset: 'read-only' });
    const writer = await createKey(t.token, { name: 'rw', preset: 'write' });
    const ro = (await (await mcpClient(base(), readOnly.key)).client.listTools()).tools;
    const rw = (await (await mcpClient(base(), writer.key)).client.listTools()).tools;
    for (const tool of [...ro, ...rw]) {
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
        expect(typeof (tool.annotations as Record<string, unknown>)[hint], `${tool.name} ${hint}`).toBe('boolean');
      expect(tool.description!.length).toBeGreaterThan(30);
      expect(tool.outputSchema?.type).toBe('object');
    }
    expect(ro.length).toBeGreaterThan(15);
    expect(ro.every((x) => x.annotations?.readOnlyHint === true)).toBe(true);
    expect(ro.map((x) => x.name)).toEqual(expect.arrayContaining(['get_member', 'find_members', 'get_points', 'list_orders', 'search_products']));
    expect(ro.map((x) => x.name)).not.toContain('earn_points');
    // The presets hold no webhooks:manage: those tools stay hidden from both.
    expect(rw.map((x) => x.name)).not.toContain('list_webhook_endpoints');
    const writes = rw.filter((x) => !x.annotations?.readOnlyHint).map((x) => x.name);
    expect(writes).toEqual(
      expect.arrayContaining(['earn_points', 'deduct_points', 'create_order', 'refund_order', 'issue_coupon', 'redeem_coupon', 'delete_object_record']),
    );
    const byName = new Map(rw.map((x) => [x.name, x.annotations!]));
    expect(byName.get('earn_points')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(byName.get('redeem_coupon')).toMatchObject({ idempotentHint: false });
    expect(byName.get('delete_object_record')).toMatchObject({ destructiveHint: true });
    expect(byName.get('get_member')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });
});

describe('MCP tools, one call of each', () => {
  it('members, points, tiers and tags', async () => {
    const email = `mcp-${Date.now()}@example.test`;
    const member = check(
      'create_member',
      await all.callTool({ name: 'create_member', arguments: { member: { email, firstName: 'Ada', externalId: `ext-${Date.now()}` } } }),
    );
    expect(member.email).toBe(email);
    const found = check('find_members', await all.callTool({ name: 'find_members', arguments: { email } }));
    expect(found.items.map((m: { id: string }) => m.id)).toEqual([member.id]);
    check('find_members', await all.callTool({ name: 'find_members', arguments: { externalId: member.externalId } }));
    check('get_member', await all.callTool({ name: 'get_member', arguments: { memberId: member.id } }));
    expect(
      check('update_member', await all.callTool({ name: 'update_member', arguments: { memberId: member.id, changes: { lastName: 'Lovelace' } } })).lastName,
    ).toBe('Lovelace');
    const earned = check('earn_points', await all.callTool({ name: 'earn_points', arguments: { memberId: member.id, amount: 120, reason: 'Welcome gift' } }));
    expect(earned.points.balance).toBe(120);
    expect(
      check('deduct_points', await all.callTool({ name: 'deduct_points', arguments: { memberId: member.id, amount: 20, reason: 'Correction' } })).points
        .balance,
    ).toBe(100);
    // A goodwill gesture kept out of the tier: spendable, lifetime stays.
    const gift = check(
      'earn_points',
      await all.callTool({ name: 'earn_points', arguments: { memberId: member.id, amount: 30, reason: 'Late parcel', countTowardTier: false } }),
    );
    expect(gift).toMatchObject({ entry: { outsideTier: true }, points: { balance: 130, lifetime: 120 } });
    const points = check('get_points', await all.callTool({ name: 'get_points', arguments: { memberId: member.id } }));
    expect(points.entries.map((e: { type: string }) => e.type)).toEqual(['earn', 'deduct', 'earn']);
    expect(await balance(t.key, member.id)).toBe(130);
    check('get_tier_status', await all.callTool({ name: 'get_tier_status', arguments: { memberId: member.id } }));
    expect(check('tag_member', await all.callTool({ name: 'tag_member', arguments: { memberId: member.id, tags: ['vip', 'mcp'] } })).added.sort()).toEqual([
      'mcp',
      'vip',
    ]);
    check('get_member_tags', await all.callTool({ name: 'get_member_tags', arguments: { memberId: member.id } }));
    check('list_tags', await all.callTool({ name: 'list_tags', arguments: { prefix: 'vi' } }));
    check('untag_member', await all.callTool({ name: 'untag_member', arguments: { memberId: member.id, tag: 'vip' } }));
    expect((await call('GET', `/api/v2/members/${member.id}/tags`, { token: t.key })).body.data.tags.map((x: { key: string }) => x.key)).toEqual(['mcp']);
    expect(check('unenroll_member', await all.callTool({ name: 'unenroll_member', arguments: { memberId: member.id } })).status).toBe('unenrolled');
  });

  it('orders, stores and the catalog', async () => {
    const member = await newMember(t.key);
    const store = await call('POST', '/api/v2/stores', { token: t.key, body: { name: 'MCP store' } });
    const externalOrderId = orderId('MCP');
    const order = { externalOrderId, memberId: member.id, currency: 'EUR', total: 80, occurredAt: '2026-11-01T10:00:00Z', storeId: store.body.data.id };
    const created = check('create_order', await all.callTool({ name: 'create_order', arguments: { order } }));
    expect(created.duplicate).toBe(false);
    expect(check('create_order', await all.callTool({ name: 'create_order', arguments: { order } })).duplicate).toBe(true);
    const listed = check('list_orders', await all.callTool({ name: 'list_orders', arguments: { memberId: member.id } }));
    expect(listed.items.map((o: { externalOrderId: string }) => o.externalOrderId)).toEqual([externalOrderId]);
    const refund = check('refund_order', await all.callTool({ name: 'refund_order', arguments: { externalOrderId, amount: 20, reason: 'damaged' } }));
    expect(refund.refund.amount).toBe(20);
    const tooMuch = toolError(await all.callTool({ name: 'refund_order', arguments: { externalOrderId, amount: 500 } }));
    expect(tooMuch.code).toBe('REFUND_EXCEEDS_REMAINING');
    check('list_stores', await all.callTool({ name: 'list_stores', arguments: {} }));
    expect(check('get_store', await all.callTool({ name: 'get_store', arguments: { storeId: store.body.data.id } })).name).toBe('MCP store');
    const imported = await call('POST', '/api/v2/catalog/import', {
      token: t.key,
      body: { products: [{ sku: `MCP-${Date.now()}`, name: 'Espresso machine', price: { amount: 199, currency: 'EUR' } }] },
    });
    const productId = imported.body.data.results[0].productId;
    expect(
      check('search_products', await all.callTool({ name: 'search_products', arguments: { q: 'espresso' } })).items.map((p: { id: string }) => p.id),
    ).toContain(productId);
    check('get_product', await all.callTool({ name: 'get_product', arguments: { productId } }));
  });

  it('coupons', async () => {
    const member = await newMember(t.key);
    const pool = await call('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'MCP pool', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 5 },
    });
    expect(check('list_coupon_pools', await all.callTool({ name: 'list_coupon_pools', arguments: {} })).items.map((p: { id: string }) => p.id)).toContain(
      pool.body.data.id,
    );
    const first = check('issue_coupon', await all.callTool({ name: 'issue_coupon', arguments: { poolId: pool.body.data.id, memberId: member.id } }));
    const second = check('issue_coupon', await all.callTool({ name: 'issue_coupon', arguments: { poolId: pool.body.data.id, memberId: member.id } }));
    expect(check('list_member_coupons', await all.callTool({ name: 'list_member_coupons', arguments: { memberId: member.id } })).items).toHaveLength(2);
    expect(check('redeem_coupon', await all.callTool({ name: 'redeem_coupon', arguments: { couponId: first.id } })).status).toBe('redeemed');
    expect(toolError(await all.callTool({ name: 'redeem_coupon', arguments: { couponId: first.id } })).code).toBe('COUPON_ALREADY_REDEEMED');
    expect(
      check('redeem_member_coupon', await all.callTool({ name: 'redeem_member_coupon', arguments: { memberId: member.id, code: second.code.toLowerCase() } }))
        .status,
    ).toBe('redeemed');
  });

  it('custom objects', async () => {
    const member = await newMember(t.key);
    expect(check('list_object_types', await all.callTool({ name: 'list_object_types', arguments: {} })).types.map((x: { type: string }) => x.type)).toContain(
      'repair_job',
    );
    expect(check('get_object_type', await all.callTool({ name: 'get_object_type', arguments: { type: 'repair_job' } })).fields).toHaveLength(3);
    const record = check(
      'create_object_record',
      await all.callTool({
        name: 'create_object_record',
        arguments: { type: 'repair_job', data: { title: 'Broken grinder', state: 'open', customer: member.id } },
      }),
    );
    const invalid = toolError(await all.callTool({ name: 'create_object_record', arguments: { type: 'repair_job', data: { title: 'x', state: 'lost' } } }));
    expect(invalid.code).toBe('VALIDATION_FAILED');
    const list = check(
      'list_object_records',
      await all.callTool({ name: 'list_object_records', arguments: { type: 'repair_job', filters: { state: 'open' }, memberId: member.id } }),
    );
    expect(list).toMatchObject({ total: 1, data: [{ id: record.id }] });
    check('get_object_record', await all.callTool({ name: 'get_object_record', arguments: { type: 'repair_job', recordId: record.id } }));
    expect(
      check(
        'update_object_record',
        await all.callTool({ name: 'update_object_record', arguments: { type: 'repair_job', recordId: record.id, data: { state: 'done' } } }),
      ).data.state,
    ).toBe('done');
    check('delete_object_record', await all.callTool({ name: 'delete_object_record', arguments: { type: 'repair_job', recordId: record.id } }));
    expect((await call('GET', `/api/v2/objects/repair_job/records/${record.id}`, { token: t.key })).status).toBe(404);
  });

  it('webhooks, tracking and the ambassador program', async () => {
    const endpoint = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: 'https://hooks.example.com/mcp', eventTypes: ['member.created'] } });
    expect(
      check('list_webhook_endpoints', await all.callTool({ name: 'list_webhook_endpoints', arguments: {} })).items.map((e: { id: string }) => e.id),
    ).toContain(endpoint.body.data.id);
    expect(
      check('get_event_catalog', await all.callTool({ name: 'get_event_catalog', arguments: {} })).events.map((e: { event: string }) => e.event),
    ).toContain('member.created');
    check('list_webhook_deliveries', await all.callTool({ name: 'list_webhook_deliveries', arguments: { endpointId: endpoint.body.data.id } }));
    const member = await newMember(t.key);
    await call('POST', '/api/v2/tracking/events', {
      token: t.key,
      body: { events: [{ eventId: `e-${Date.now()}`, memberId: member.id, type: 'page.viewed', occurredAt: new Date().toISOString() }] },
    });
    expect(check('get_tracking_stats', await all.callTool({ name: 'get_tracking_stats', arguments: {} })).total).toBeGreaterThanOrEqual(1);
    const code = check('issue_referral_code', await all.callTool({ name: 'issue_referral_code', arguments: { memberId: member.id } }));
    expect(code.issued).toBe(true);
    expect(check('issue_referral_code', await all.callTool({ name: 'issue_referral_code', arguments: { memberId: member.id } }))).toEqual({
      ...code,
      issued: false,
    });
    expect(check('get_ambassador_metrics', await all.callTool({ name: 'get_ambassador_metrics', arguments: {} })).codesIssued).toBeGreaterThanOrEqual(1);
    check('list_ambassador_candidates', await all.callTool({ name: 'list_ambassador_candidates', arguments: { minLifetimePoints: 0 } }));
  });

  it("resources: the object types' schemas and the event catalog, behind their scopes", async () => {
    const { resources } = await all.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['events://catalog', 'objects://types/repair_job']));
    const type = await all.readResource({ uri: 'objects://types/repair_job' });
    expect(JSON.parse((type.contents[0] as { text: string }).text)).toMatchObject({ type: 'repair_job', fields: expect.any(Array) });
    const catalog = await all.readResource({ uri: 'events://catalog' });
    expect(JSON.parse((catalog.contents[0] as { text: string }).text).events.length).toBeGreaterThan(3);
    await expect(all.readResource({ uri: 'objects://types/nope' })).rejects.toThrow(/not found/i);
    const readOnly = await createKey(t.token, { name: 'ro-res', preset: 'read-only' });
    const { client } = await mcpClient(base(), readOnly.key);
    expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain('events://catalog');
    await expect(client.readResource({ uri: 'events://catalog' })).rejects.toThrow(/webhooks:manage/);
    const audit = await call('GET', `/api/flash/audit?actor=${readOnly.id}&action=mcp.method_called`, { token: t.token });
    expect(audit.body.data.find((e: any) => e.mcp.method === 'resources/read')).toMatchObject({
      outcome: 'failure',
      reason: 'refused',
      mcp: { errorCode: 'FORBIDDEN' },
    });
  });
});

describe('MCP refusals', () => {
  it('a domain error is a tool result with isError and the REST error body (INSUFFICIENT_POINTS, same message and docUrl); nothing changes', async () => {
    const member = await newMember(t.key);
    const rest = await call('POST', `/api/v2/members/${member.id}/points`, { token: t.key, body: { type: 'deduct', amount: 5, reason: 'x' } });
    const error = toolError(await all.callTool({ name: 'deduct_points', arguments: { memberId: member.id, amount: 5, reason: 'x' } }));
    expect(error).toEqual({ code: 'INSUFFICIENT_POINTS', message: rest.body.error.message, requestId: expect.any(String), docUrl: rest.body.error.docUrl });
    expect(await balance(t.key, member.id)).toBe(0);
  });

  it("bad arguments are the protocol's invalid-params error, naming the fields, never a stack", async () => {
    const member = await newMember(t.key);
    const failure = await all.callTool({ name: 'earn_points', arguments: { memberId: member.id, amount: -3, extra: true } }).then(
      () => undefined,
      (e: { code: number; message: string; data?: { details: { field: string }[] } }) => e,
    );
    expect(failure).toMatchObject({ code: -32602 });
    expect(failure!.message).toContain('amount');
    expect(failure!.data!.details.map((d) => d.field).sort()).toEqual(['amount', 'extra', 'reason']);
    expect(failure!.message).not.toMatch(/at .*\.ts|node_modules/);
    await expect(all.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(await balance(t.key, member.id)).toBe(0);
  });

  it('a hidden tool called by name is refused (FORBIDDEN naming the scope) and changes nothing', async () => {
    const member = await newMember(t.key);
    const readOnly = await createKey(t.token, { name: 'hidden', preset: 'read-only' });
    const { client } = await mcpClient(base(), readOnly.key);
    const error = toolError(await client.callTool({ name: 'earn_points', arguments: { memberId: member.id, amount: 50, reason: 'sneaky' } }));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain('members:write');
    expect(await balance(t.key, member.id)).toBe(0);
  });

  it("another workspace's member id is simply not found", async () => {
    const foreign = await newMember(other.key);
    for (const [name, args] of [
      ['get_member', { memberId: foreign.id }],
      ['earn_points', { memberId: foreign.id, amount: 10, reason: 'x' }],
      ['get_points', { memberId: foreign.id }],
    ] as const) {
      expect(toolError(await all.callTool({ name, arguments: args })).code, name).toBe('NOT_FOUND');
    }
    expect(await balance(other.key, foreign.id)).toBe(0);
  });

  it('an earn replayed with its idempotencyKey is applied once; the key with other arguments is refused', async () => {
    const member = await newMember(t.key);
    const args = { memberId: member.id, amount: 40, reason: 'Retry-safe', idempotencyKey: `mcp-earn-${member.id}` };
    const first = check('earn_points', await all.callTool({ name: 'earn_points', arguments: args }));
    const again = await Promise.all([1, 2, 3].map(() => all.callTool({ name: 'earn_points', arguments: args })));
    for (const r of again) expect(check('earn_points', r)).toEqual(first);
    expect(await balance(t.key, member.id)).toBe(40);
    const ledger = await call('GET', `/api/v2/members/${member.id}/points`, { token: t.key });
    expect(ledger.body.data.entries).toHaveLength(1);
    expect(toolError(await all.callTool({ name: 'earn_points', arguments: { ...args, amount: 41 } })).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await balance(t.key, member.id)).toBe(40);
  });
});

describe('MCP audit', () => {
  it('writes an entry for every call, refused ones included, with no argument values', async () => {
    const key = await createKey(t.token, { name: 'audited', scopes: ['members:read', 'members:write'] });
    const member = await newMember(t.key);
    const { client, requestIds } = await mcpClient(base(), key.key);
    await client.listTools();
    check('earn_points', await client.callTool({ name: 'earn_points', arguments: { memberId: member.id, amount: 7, reason: 'SECRET-REASON-TEXT' } }));
    toolError(await client.callTool({ name: 'deduct_points', arguments: { memberId: member.id, amount: 999, reason: 'x' } }));
    await client.callTool({ name: 'earn_points', arguments: { memberId: member.id, amount: 'many' } }).catch(() => undefined);
    toolError(await client.callTool({ name: 'create_order', arguments: { order: {} } }));
    await client.callTool({ name: 'made_up_tool', arguments: {} }).catch(() => undefined);
    const foreign = await newMember(other.key);
    expect(toolError(await client.callTool({ name: 'get_member', arguments: { memberId: foreign.id } })).code).toBe('NOT_FOUND');
    const replayed = { memberId: member.id, amount: 2, reason: 'again', idempotencyKey: `audit-${member.id}` };
    check('earn_points', await client.callTool({ name: 'earn_points', arguments: replayed }));
    check('earn_points', await client.callTool({ name: 'earn_points', arguments: replayed }));

    const res = await call('GET', `/api/flash/audit?actor=${key.id}&limit=50`, { token: t.token });
    expect(res.status).toBe(200);
    const all = [...res.body.data].reverse();
    // A points change made through a tool is also in the trail as what it changed, like the REST route's.
    const pointsChanges = all.filter((e: any) => e.action === 'member.points_adjusted');
    expect(pointsChanges.map((e: any) => e.target)).toEqual([
      { type: 'member', id: member.id, href: `/console/members/${member.id}` },
      { type: 'member', id: member.id, href: `/console/members/${member.id}` },
    ]);
    const entries = all.filter((e: any) => e.action.startsWith('mcp.'));
    const summary = entries.map((e: any) => [e.action, e.mcp.method, e.mcp.tool, e.outcome, e.reason, e.mcp.errorCode]);
    expect(summary).toEqual([
      ['mcp.method_called', 'initialize', null, 'success', null, null],
      ['mcp.method_called', 'notifications/initialized', null, 'success', null, null],
      ['mcp.method_called', 'tools/list', null, 'success', null, null],
      ['mcp.tool_called', 'tools/call', 'earn_points', 'success', null, null],
      ['mcp.tool_called', 'tools/call', 'deduct_points', 'failure', 'tool_error', 'INSUFFICIENT_POINTS'],
      ['mcp.tool_called', 'tools/call', 'earn_points', 'failure', 'invalid', null],
      ['mcp.tool_called', 'tools/call', 'create_order', 'failure', 'refused', 'FORBIDDEN'],
      ['mcp.tool_called', 'tools/call', 'made_up_tool', 'failure', 'invalid', null],
      ['mcp.tool_called', 'tools/call', 'get_member', 'failure', 'tool_error', 'NOT_FOUND'],
      ['mcp.tool_called', 'tools/call', 'earn_points', 'success', null, null],
      ['mcp.tool_called', 'tools/call', 'earn_points', 'success', null, null],
    ]);
    for (const e of entries) {
      expect(e.actor).toMatchObject({ type: 'apiKey', id: key.id, name: 'audited' });
      expect(requestIds).toContain(e.requestId);
      expect(e.mcp.durationMs).toBeGreaterThanOrEqual(0);
      expect(e.target).toEqual(
        e.action === 'mcp.tool_called' ? { type: 'mcpTool', id: e.mcp.tool, href: null } : { type: 'mcpServer', id: t.workspaceId, href: null },
      );
    }
    const text = JSON.stringify(entries);
    for (const leak of ['SECRET-REASON-TEXT', member.id, member.email, foreign.id, 'many', 'audit-']) expect(text).not.toContain(leak);
    // Admins filter them like any action; another workspace sees none.
    expect((await call('GET', '/api/flash/audit?action=mcp.tool_called', { token: t.token })).body.data.length).toBeGreaterThanOrEqual(5);
    expect((await call('GET', `/api/flash/audit?actor=${key.id}`, { token: other.token })).body.data).toEqual([]);
  });
});
