import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/platform/contract/roles';
import { browserSignIn, call, createKey, registerAccount, type Account } from '../support/api';
import { addUser } from '../support/table';

/**
 * Roles by job over HTTP: each built-in role's sessions are admitted exactly on the console routes
 * whose permission the role holds, and refused elsewhere with a 403 naming the missing permission.
 */

const loginAs = async (email: string, password: string) => {
  const res = await call('POST', '/api/v2/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.data as { session: { token: string }; user: { id: string; role: string } };
};

const JOB_ROLES = ['admin', 'marketer', 'support', 'analyst', 'developer', 'member'] as const satisfies readonly Role[];

let owner: Account;
let memberId: string;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  owner = await registerAccount('roles');
  tokens.owner = owner.token;
  for (const role of JOB_ROLES) {
    const { email, password } = await addUser(owner.workspaceId, role);
    tokens[role] = (await loginAs(email, password)).session.token;
  }
  const key = await createKey(owner.token, { name: 'roles', preset: 'write' });
  const created = await call('POST', '/api/v2/members', { token: key.key, body: { email: `ada-${owner.workspaceId}@example.test` } });
  expect(created.status).toBe(201);
  memberId = created.body.data.id;
});

/**
 * A console route and the roles admitted to it. Writes are sent with an empty body: the permission
 * is checked before the body, so a refused role gets 403 and an admitted one the body's 422.
 */
const PROBES: { method: string; path: () => string; body?: unknown; permission: string; admits: readonly Role[] }[] = [
  { method: 'GET', path: () => '/api/flash/overview', permission: 'overview:read', admits: ['owner', 'admin', 'marketer', 'support', 'analyst', 'developer'] },
  { method: 'GET', path: () => '/api/flash/reports/points', permission: 'reports:read', admits: ['owner', 'admin', 'marketer', 'analyst'] },
  { method: 'GET', path: () => '/api/flash/members', permission: 'members:read', admits: ['owner', 'admin', 'support'] },
  { method: 'GET', path: () => `/api/flash/members/${memberId}/points`, permission: 'members:read', admits: ['owner', 'admin', 'support'] },
  { method: 'POST', path: () => `/api/flash/members/${memberId}/points`, body: {}, permission: 'members:adjust_points', admits: ['owner', 'admin', 'support'] },
  // A member of no workspace: an admitted role gets 404, and nobody's data is erased.
  { method: 'POST', path: () => '/api/flash/members/mbr_01m7xhg19ss6d8332hgcph7bx7/erasure', permission: 'members:erase', admits: ['owner', 'admin'] },
  { method: 'GET', path: () => '/api/flash/program', permission: 'program:read', admits: ['owner', 'admin', 'marketer', 'support', 'analyst', 'developer'] },
  { method: 'PUT', path: () => '/api/flash/program', body: {}, permission: 'program:manage', admits: ['owner', 'admin'] },
  { method: 'POST', path: () => '/api/flash/campaigns', body: {}, permission: 'campaigns:manage', admits: ['owner', 'admin', 'marketer'] },
  { method: 'POST', path: () => '/api/flash/campaigns/simulate', body: {}, permission: 'campaigns:simulate', admits: ['owner', 'admin', 'marketer'] },
  { method: 'GET', path: () => '/api/flash/exports', permission: 'exports:run', admits: ['owner', 'admin', 'analyst'] },
  { method: 'GET', path: () => '/api/flash/account/data-export', permission: 'exports:workspace', admits: ['owner', 'admin'] },
  { method: 'GET', path: () => '/api/flash/audit', permission: 'audit:read', admits: ['owner', 'admin', 'analyst'] },
  { method: 'GET', path: () => '/api/v2/api-keys', permission: 'api_keys:manage', admits: ['owner', 'admin', 'developer'] },
  { method: 'GET', path: () => '/api/flash/webhooks', permission: 'webhooks:manage', admits: ['owner', 'admin', 'developer'] },
  { method: 'GET', path: () => '/api/flash/objects/types', permission: 'objects:read', admits: ['owner', 'admin', 'developer'] },
  { method: 'GET', path: () => '/api/flash/settings/cors', permission: 'settings:cors', admits: ['owner', 'admin', 'developer'] },
  { method: 'GET', path: () => '/api/flash/wallet/branding', permission: 'wallet:branding', admits: ['owner', 'admin', 'marketer'] },
  { method: 'GET', path: () => '/api/flash/team/members', permission: 'team:manage', admits: ['owner', 'admin'] },
];

describe('console routes by role', () => {
  it('admits each role exactly where its permissions reach, and names the missing permission where not', async () => {
    for (const probe of PROBES) {
      for (const role of ['owner', ...JOB_ROLES] as const) {
        const res = await call(probe.method, probe.path(), { token: tokens[role], body: probe.body });
        const where = `${role} ${probe.method} ${probe.path()}`;
        if (probe.admits.includes(role)) {
          expect(res.status, where).not.toBe(403);
          expect(res.status, where).toBeLessThan(500);
          continue;
        }
        expect(res.status, where).toBe(403);
        expect(res.body.error.code, where).toBe('FORBIDDEN');
        expect(res.body.error.message, where).toContain(`Your role (${role}) lacks the permission ${probe.permission}`);
        expect(res.body.error.details, where).toEqual([{ in: 'header', field: 'authorization', message: `missing permission ${probe.permission}` }]);
      }
    }
  });

  it('keeps user sessions working on the routes every user has', async () => {
    for (const role of JOB_ROLES) expect((await call('GET', '/api/v2/auth/profile', { token: tokens[role] })).status, role).toBe(200);
  });
});

describe('the support ceiling on points adjustments', () => {
  const adjust = (token: string, amount: number) =>
    call('POST', `/api/flash/members/${memberId}/points`, { token, body: { type: 'earn', amount, reason: 'goodwill' } });

  it('lets support move up to 1000 points at once, by adjustment or reversal; an owner any amount', async () => {
    const within = await adjust(tokens.support, 1000);
    expect(within.status).toBe(201);
    const above = await adjust(tokens.support, 1001);
    expect(above.status).toBe(403);
    expect(above.body.error.message).toBe('Your role (support) may adjust at most 1000 points at once, not 1001: ask an owner or admin');
    expect(above.body.error.details).toEqual([{ in: 'body', field: 'amount', message: 'above the support ceiling of 1000 points' }]);

    const large = await adjust(tokens.owner, 5000);
    expect(large.status).toBe(201);
    const reverse = (token: string, entryId: string) =>
      call('POST', `/api/flash/members/${memberId}/ledger/${entryId}/reverse`, { token, body: { reason: 'granted by mistake' } });
    const refused = await reverse(tokens.support, large.body.data.entry.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual([{ in: 'path', field: 'entryId', message: 'above the support ceiling of 1000 points' }]);
    expect((await reverse(tokens.support, within.body.data.entry.id)).status).toBe(201);

    const points = await call('GET', `/api/flash/members/${memberId}/points`, { token: tokens.support });
    expect(points.body.data.balance).toBe(5000);
  });
});

describe('exports by what they hold', () => {
  it('lets an analyst export orders but not the members’ personal data', async () => {
    const orders = await call('POST', '/api/flash/exports', { token: tokens.analyst, body: { entity: 'orders', format: 'csv' } });
    expect(orders.status).toBe(202);
    const members = await call('POST', '/api/flash/exports', { token: tokens.analyst, body: { entity: 'members', format: 'csv' } });
    expect(members.status).toBe(403);
    expect(members.body.error.message).toContain('lacks the permission members:read');
  });
});

describe('API keys from a developer session', () => {
  it('mints integration keys, but none that erases members or hands out all of one member’s data', async () => {
    const made = await call('POST', '/api/v2/api-keys', { token: tokens.developer, body: { name: 'shop', preset: 'write' } });
    expect(made.status).toBe(201);
    const refused = await call('POST', '/api/v2/api-keys', { token: tokens.developer, body: { name: 'dpo', scopes: ['members:read', 'privacy:write'] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Your role (developer) cannot grant these scopes: privacy:write (needs members:erase)');
    expect((await call('POST', '/api/v2/api-keys', { token: tokens.admin, body: { name: 'dpo', scopes: ['privacy:write'] } })).status).toBe(201);
    expect((await call('DELETE', `/api/v2/api-keys/${made.body.data.id}`, { token: tokens.developer })).status).toBe(204);
  });
});

describe('changing roles', () => {
  it('an owner gives a job role, which applies from the next request; a support agent may change no role', async () => {
    const { email, password } = await addUser(owner.workspaceId, 'member');
    const user = await loginAs(email, password);
    expect((await call('GET', '/api/flash/members', { token: user.session.token })).status).toBe(403);
    const changed = await call('PATCH', `/api/flash/team/members/${user.user.id}`, { token: owner.token, body: { role: 'support' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.role).toBe('support');
    expect((await call('GET', '/api/flash/members', { token: user.session.token })).status).toBe(200);

    const refused = await call('PATCH', `/api/flash/team/members/${user.user.id}`, { token: user.session.token, body: { role: 'admin' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('lacks the permission team:manage');
  });

  it('tells the console the role’s permissions with its session', async () => {
    const { email, password } = await addUser(owner.workspaceId, 'analyst');
    const signedIn = await browserSignIn(email, password);
    expect(signedIn.res.body.data.permissions).toEqual([
      'overview:read',
      'reports:read',
      'exports:run',
      'audit:read',
      'program:read',
      'campaigns:read',
      'rewards:read',
    ]);
    const again = await call('GET', '/api/flash/session', { headers: { cookie: signedIn.cookie } });
    expect(again.body.data.permissions).toEqual(signedIn.res.body.data.permissions);
  });
});
