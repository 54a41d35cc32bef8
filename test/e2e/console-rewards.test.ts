import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/platform/contract/roles';
import { call } from '../support/api';
import { balanceOf, tenant, type Tenant } from '../support/fixtures';
import { fiveOff, memberWith, newReward, redeemed } from '../support/rewards';
import { addUser } from '../support/table';

/**
 * The rewards catalog from the console, over HTTP: the `/api/flash` twins of the reward routes run
 * the API-key routes' handlers under a session, each admitted by its permission (support voids but
 * does not create, an analyst reads), and stay inside the session's workspace.
 */

let t: Tenant;
const tokens = {} as Record<Role, string>;

const signIn = async (workspaceId: string, role: Role): Promise<string> => {
  const user = await addUser(workspaceId, role);
  const res = await call('POST', '/api/v2/auth/login', { body: user });
  expect(res.status).toBe(200);
  return res.body.data.session.token;
};

beforeAll(async () => {
  t = await tenant('console-rewards');
  tokens.owner = t.token;
  for (const role of ['marketer', 'support', 'analyst', 'developer'] as const) tokens[role] = await signIn(t.workspaceId, role);
});

const flash = (role: Role, method: string, path: string, body?: unknown) => call(method, `/api/flash${path}`, { token: tokens[role], body });

describe('the rewards catalog in the console', () => {
  it('a marketer creates, reads, lists and changes a reward under its version, audited as the user', async () => {
    const made = await flash('marketer', 'POST', '/rewards', fiveOff({ name: 'Mug', status: 'draft', stock: 10 }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const reward = made.body.data;
    expect(reward).toMatchObject({ name: 'Mug', status: 'draft', stock: 10, remaining: 10, version: 1 });
    expect((await flash('marketer', 'GET', `/rewards/${reward.id}`)).body.data).toEqual(reward);
    const drafts = await flash('marketer', 'GET', '/rewards?status=draft');
    expect(drafts.body.data.map((r: { id: string }) => r.id)).toContain(reward.id);

    const active = await flash('marketer', 'PATCH', `/rewards/${reward.id}`, { status: 'active', version: 1 });
    expect(active.status, JSON.stringify(active.body)).toBe(200);
    expect(active.body.data).toMatchObject({ status: 'active', version: 2 });
    const stale = await flash('marketer', 'PATCH', `/rewards/${reward.id}`, { stock: 20, version: 1 });
    expect(stale.status).toBe(409);

    const audit = await call('GET', `/api/flash/audit?action=reward.updated`, { token: t.token });
    expect(audit.body.data[0]).toMatchObject({ actor: { type: 'user' }, target: { type: 'reward', id: reward.id } });
  });

  it('support reads the catalog and a member’s redemptions and voids one, but neither creates nor changes a reward', async () => {
    const reward = await newReward(t, { name: 'Support' });
    const member = await memberWith(t, 300);
    const redemption = await redeemed(t, reward.id, member.id);

    expect((await flash('support', 'GET', '/rewards')).status).toBe(200);
    const theirs = await flash('support', 'GET', `/members/${member.id}/redemptions`);
    expect(theirs.body.data.map((r: { id: string }) => r.id)).toEqual([redemption.id]);

    const create = await flash('support', 'POST', '/rewards', fiveOff());
    expect(create.status).toBe(403);
    expect(create.body.error.message).toContain('rewards:manage');
    expect((await flash('support', 'PATCH', `/rewards/${reward.id}`, { status: 'paused' })).status).toBe(403);

    const voided = await flash('support', 'POST', `/redemptions/${redemption.id}/void`);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.data.status).toBe('voided');
    expect((await balanceOf(t.key, member.id)).balance).toBe(300);
  });

  it('an analyst reads but neither creates nor voids; a developer does not see the catalog', async () => {
    const reward = await newReward(t, { name: 'Analyst' });
    const member = await memberWith(t, 100);
    const redemption = await redeemed(t, reward.id, member.id);

    expect((await flash('analyst', 'GET', `/rewards/${reward.id}`)).body.data.id).toBe(reward.id);
    expect((await flash('analyst', 'GET', `/members/${member.id}/redemptions`)).status).toBe(200);
    expect((await flash('analyst', 'POST', '/rewards', fiveOff())).status).toBe(403);
    const voiding = await flash('analyst', 'POST', `/redemptions/${redemption.id}/void`);
    expect(voiding.status).toBe(403);
    expect(voiding.body.error.message).toContain('rewards:redeem');

    const dev = await flash('developer', 'GET', '/rewards');
    expect(dev.status).toBe(403);
    expect(dev.body.error.message).toContain('rewards:read');
  });

  it('a session sees and changes only its own workspace’s rewards and redemptions', async () => {
    const reward = await newReward(t, { name: 'Ours' });
    const member = await memberWith(t, 100);
    const redemption = await redeemed(t, reward.id, member.id);
    const other = await tenant('console-rewards-other');

    const theirs = (path: string, method = 'GET', body?: unknown) => call(method, `/api/flash${path}`, { token: other.token, body });
    expect((await theirs('/rewards')).body.data).toEqual([]);
    expect((await theirs(`/rewards/${reward.id}`)).status).toBe(404);
    expect((await theirs(`/rewards/${reward.id}`, 'PATCH', { status: 'archived' })).status).toBe(404);
    expect((await theirs(`/redemptions/${redemption.id}/void`, 'POST')).status).toBe(404);
    expect((await theirs(`/members/${member.id}/redemptions`)).body.data ?? []).toEqual([]);
    expect((await flash('owner', 'GET', `/rewards/${reward.id}`)).body.data.status).toBe('active');
  });

  it('an API key does not reach the console twins', async () => {
    expect((await call('GET', '/api/flash/rewards', { token: t.key })).status).toBe(403);
  });
});
