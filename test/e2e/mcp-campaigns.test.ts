import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { call, createKey } from '../support/api';
import { newMember, newOrder, tenant, type Tenant } from '../support/fixtures';
import { mcpClient, outputChecker, toolError, type McpClient } from '../support/mcp';

/**
 * Campaigns and the tier explanation as MCP tools, with the SDK's own client over HTTP against the
 * local runtime: each tool's structured output checked against the schema `tools/list` declares,
 * the scopes `campaigns:read` / `campaigns:manage` (no preset carries manage; the REST routes take the same), and the audit entry
 * of a change made with a key.
 */

const base = () => inject('baseUrl');

let t: Tenant;
let all: McpClient;
let check: ReturnType<typeof outputChecker>;

beforeAll(async () => {
  t = await tenant('mcp-campaigns');
  ({ client: all } = await mcpClient(base(), t.key));
  check = outputChecker((await all.listTools()).tools);
});

const double = { name: 'Double points', trigger: { type: 'order' }, effect: { type: 'multiplier', factor: 2 } };

describe('campaign tools', () => {
  it('create (idempotent), get, list, simulate, activate, grant, delete: the same services as /api/flash/campaigns', async () => {
    const args = { campaign: double, idempotencyKey: `cmp-${Date.now()}` };
    const created = check('create_campaign', await all.callTool({ name: 'create_campaign', arguments: args }));
    expect(created).toMatchObject({ name: 'Double points', status: 'draft', grants: 0, version: 1 });
    expect(check('create_campaign', await all.callTool({ name: 'create_campaign', arguments: args })).id).toBe(created.id);
    expect(check('get_campaign', await all.callTool({ name: 'get_campaign', arguments: { campaignId: created.id } })).id).toBe(created.id);
    const listed = check('list_campaigns', await all.callTool({ name: 'list_campaigns', arguments: { status: 'draft' } }));
    expect(listed.items.map((c: { id: string }) => c.id)).toEqual([created.id]);

    const active = check(
      'update_campaign',
      await all.callTool({ name: 'update_campaign', arguments: { campaignId: created.id, changes: { status: 'active', version: 1 } } }),
    );
    expect(active).toMatchObject({ status: 'active', version: 2 });
    const stale = toolError(await all.callTool({ name: 'update_campaign', arguments: { campaignId: created.id, changes: { priority: 5, version: 1 } } }));
    expect(stale.code).toBe('CONFLICT');
    const sim = check('simulate_campaigns', await all.callTool({ name: 'simulate_campaigns', arguments: { order: { total: 40, currency: 'EUR' } } }));
    expect(sim).toMatchObject({ basePoints: 40, totalPoints: 80, memberId: null });
    expect(sim.campaigns).toEqual([expect.objectContaining({ campaignId: created.id, outcome: 'granted', granted: true, points: 40 })]);
    // The order as POST /api/v2/orders takes it, placed a month ago: why the campaign does not grant.
    const late = { externalOrderId: 'MCP-1', total: 40, currency: 'EUR', status: 'completed', items: [{ sku: 'A', quantity: 1, brand: 'Acme' }] };
    const old = { ...late, occurredAt: new Date(Date.now() - 30 * 86_400_000).toISOString() };
    const why = check('simulate_campaigns', await all.callTool({ name: 'simulate_campaigns', arguments: { order: old } }));
    expect(why.campaigns).toEqual([expect.objectContaining({ campaignId: created.id, outcome: 'backdated', granted: false, points: 0 })]);

    const m = await newMember(t.key);
    expect((await newOrder(t.key, m.id, { total: 30 })).points.earned).toBe(30);
    expect(check('get_campaign', await all.callTool({ name: 'get_campaign', arguments: { campaignId: created.id } }))).toMatchObject({
      grants: 1,
      pointsGranted: 30,
    });

    expect(check('delete_campaign', await all.callTool({ name: 'delete_campaign', arguments: { campaignId: created.id } }))).toEqual({
      campaignId: created.id,
      deleted: true,
    });
    expect(toolError(await all.callTool({ name: 'get_campaign', arguments: { campaignId: created.id } })).code).toBe('NOT_FOUND');
    // The REST routes take the same scopes.
    expect((await call('GET', '/api/flash/campaigns', { token: t.key })).status).toBe(200);

    const audit = await call('GET', '/api/flash/audit?action=campaign.created', { token: t.token });
    expect(audit.body.data.map((e: { target: { id: string }; actor: { type: string } }) => [e.target.id, e.actor.type])).toEqual([[created.id, 'apiKey']]);
  });

  it('a refused campaign is the REST validation error, one detail per field, and creates nothing', async () => {
    const bad = toolError(
      await all.callTool({
        name: 'create_campaign',
        arguments: { campaign: { ...double, effect: { type: 'coupon', poolId: 'cpl_01j9z3k4m5n6p7q8r9s0t1v2w3' } } },
      }),
    );
    expect(bad.code).toBe('VALIDATION_FAILED');
    expect(check('list_campaigns', await all.callTool({ name: 'list_campaigns', arguments: {} })).items).toEqual([]);
  });

  it('campaigns:read shows the read tools; campaigns:manage is named only: no preset carries it', async () => {
    const readOnly = await createKey(t.token, { name: 'ro', preset: 'read-only' });
    const writer = await createKey(t.token, { name: 'rw', preset: 'write' });
    const ro = (await (await mcpClient(base(), readOnly.key)).client.listTools()).tools.map((x) => x.name);
    const rw = (await (await mcpClient(base(), writer.key)).client.listTools()).tools.map((x) => x.name);
    expect(ro).toEqual(expect.arrayContaining(['list_campaigns', 'get_campaign', 'simulate_campaigns']));
    for (const name of ['create_campaign', 'update_campaign', 'delete_campaign']) {
      expect(ro).not.toContain(name);
      expect(rw).not.toContain(name);
    }
    const { client } = await mcpClient(base(), readOnly.key);
    const refused = toolError(await client.callTool({ name: 'create_campaign', arguments: { campaign: double } }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toContain('campaigns:manage');
    const rest = await call('POST', '/api/flash/campaigns', { token: readOnly.key, body: double });
    expect(rest.status).toBe(403);
    expect(rest.body.error.message).toContain('campaigns:manage');
    const manager = await createKey(t.token, { name: 'campaigns', scopes: ['campaigns:manage'] });
    const tools = (await (await mcpClient(base(), manager.key)).client.listTools()).tools.map((x) => x.name);
    expect(tools.sort()).toEqual(['create_campaign', 'delete_campaign', 'update_campaign']);
  });
});

describe('tier explanation tool', () => {
  it('get_tier_status answers what GET /api/v2/members/{id}/tier answers: window, value, what the next tier needs, retainedUntil', async () => {
    const m = await newMember(t.key);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 600, reason: 'welcome' } });
    const tool = check('get_tier_status', await all.callTool({ name: 'get_tier_status', arguments: { memberId: m.id } }));
    const rest = (await call('GET', `/api/v2/members/${m.id}/tier`, { token: t.key })).body.data;
    expect(tool).toEqual(rest);
    expect(tool).toMatchObject({ current: { key: 'silver' }, next: { key: 'gold' }, window: 'lifetime', value: 600, remaining: 1400, retainedUntil: null });
  });

  it('explain_points answers what GET /api/v2/members/{id}/explain answers, now and at a past moment', async () => {
    const m = await newMember(t.key);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 40, reason: 'welcome' } });
    const between = new Date().toISOString();
    await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 600, reason: 'goodwill' } });
    const now = check('explain_points', await all.callTool({ name: 'explain_points', arguments: { memberId: m.id } }));
    expect(now).toMatchObject({ points: { balance: 640, pending: 0, lifetime: 640 }, tier: { key: 'silver', value: 640 } });
    const past = check('explain_points', await all.callTool({ name: 'explain_points', arguments: { memberId: m.id, at: between } }));
    const rest = (await call('GET', `/api/v2/members/${m.id}/explain?at=${encodeURIComponent(between)}`, { token: t.key })).body.data;
    expect(past).toEqual(rest);
    expect(past).toMatchObject({ points: { balance: 40, lifetime: 40 }, tier: { key: 'bronze' }, lots: [{ points: 40, expiresAt: null }] });
  });
});
