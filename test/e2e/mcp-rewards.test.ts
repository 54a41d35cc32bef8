import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { call, createKey } from '../support/api';
import { balanceOf, tenant, type Tenant } from '../support/fixtures';
import { mcpClient, outputChecker, toolError, type McpClient } from '../support/mcp';
import { memberWith } from '../support/rewards';

/**
 * The rewards catalog as MCP tools, with the SDK's own client over HTTP against the local runtime:
 * each tool's structured output checked against the schema `tools/list` declares, the scopes
 * `rewards:read`, `rewards:manage` and `rewards:redeem` (as their REST routes), another workspace's
 * reward not found, and the audit entry of a change made with a key.
 */

const base = () => inject('baseUrl');

let t: Tenant;
let all: McpClient;
let check: ReturnType<typeof outputChecker>;

beforeAll(async () => {
  t = await tenant('mcp-rewards');
  ({ client: all } = await mcpClient(base(), t.key));
  check = outputChecker((await all.listTools()).tools);
});

const fiveOff = { name: '5 € off', pointsCost: 100, benefit: { type: 'fixed_discount', amount: 500, currency: 'EUR' }, stock: 3 };

describe('reward tools', () => {
  it('create (idempotent), list, update, redeem (idempotent) and void: the same services as /api/v2/rewards', async () => {
    const args = { reward: fiveOff, idempotencyKey: `rwd-${Date.now()}` };
    const created = check('create_reward', await all.callTool({ name: 'create_reward', arguments: args }));
    expect(created).toMatchObject({ name: '5 € off', status: 'draft', remaining: 3, version: 1 });
    expect(check('create_reward', await all.callTool({ name: 'create_reward', arguments: args })).id).toBe(created.id);
    const drafts = check('list_rewards', await all.callTool({ name: 'list_rewards', arguments: { status: 'draft' } }));
    expect(drafts.items.map((r: { id: string }) => r.id)).toEqual([created.id]);

    const active = check(
      'update_reward',
      await all.callTool({ name: 'update_reward', arguments: { rewardId: created.id, changes: { status: 'active', version: 1 } } }),
    );
    expect(active).toMatchObject({ status: 'active', version: 2 });
    const stale = toolError(await all.callTool({ name: 'update_reward', arguments: { rewardId: created.id, changes: { stock: 9, version: 1 } } }));
    expect(stale.code).toBe('CONFLICT');

    const member = await memberWith(t, 250);
    const redeemArgs = { rewardId: created.id, memberId: member.id, idempotencyKey: `rdm-${Date.now()}` };
    const redemption = check('redeem_reward', await all.callTool({ name: 'redeem_reward', arguments: redeemArgs }));
    expect(redemption).toMatchObject({ rewardId: created.id, memberId: member.id, pointsSpent: 100, status: 'issued' });
    expect(check('redeem_reward', await all.callTool({ name: 'redeem_reward', arguments: redeemArgs })).id).toBe(redemption.id);
    expect((await balanceOf(t.key, member.id)).balance).toBe(150);

    const voided = check('void_redemption', await all.callTool({ name: 'void_redemption', arguments: { redemptionId: redemption.id } }));
    expect(voided.status).toBe('voided');
    expect((await balanceOf(t.key, member.id)).balance).toBe(250);
    const short = toolError(await all.callTool({ name: 'redeem_reward', arguments: { rewardId: created.id, memberId: (await memberWith(t, 10)).id } }));
    expect(short.code).toBe('INSUFFICIENT_POINTS');

    const audit = await call('GET', '/api/flash/audit?action=reward.updated', { token: t.token });
    expect(audit.body.data[0]).toMatchObject({ actor: { type: 'apiKey' }, target: { type: 'reward', id: created.id } });
  });

  it('shows each tool only to a key with its scope, and refuses one called by name without it', async () => {
    const reader = await createKey(t.token, { name: 'rewards-read', scopes: ['rewards:read'] });
    const redeemer = await createKey(t.token, { name: 'rewards-redeem', scopes: ['rewards:read', 'rewards:redeem'] });
    const names = async (key: string) =>
      (await (await mcpClient(base(), key)).client.listTools()).tools.map((x) => x.name).filter((n) => /reward|redemption/.test(n));
    expect(await names(reader.key)).toEqual(['list_rewards']);
    expect((await names(redeemer.key)).sort()).toEqual(['list_rewards', 'redeem_reward']);
    expect((await names(t.key)).sort()).toEqual(['create_reward', 'list_rewards', 'redeem_reward', 'update_reward', 'void_redemption']);

    const { client } = await mcpClient(base(), redeemer.key);
    const refused = toolError(await client.callTool({ name: 'create_reward', arguments: { reward: fiveOff } }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toContain('rewards:manage');
  });

  it("another workspace's reward is simply not found", async () => {
    const other = await tenant('mcp-rewards-other');
    const theirs = await call('POST', '/api/v2/rewards', { token: other.key, body: { ...fiveOff, status: 'active' } });
    const member = await memberWith(t, 500);
    expect(toolError(await all.callTool({ name: 'update_reward', arguments: { rewardId: theirs.body.data.id, changes: { status: 'paused' } } })).code).toBe(
      'NOT_FOUND',
    );
    expect(toolError(await all.callTool({ name: 'redeem_reward', arguments: { rewardId: theirs.body.data.id, memberId: member.id } })).code).toBe('NOT_FOUND');
    expect((await call('GET', `/api/v2/rewards/${theirs.body.data.id}`, { token: other.key })).body.data.status).toBe('active');
  });
});
