import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../shared/audit/entities';
import { call, mailsTo, PASSWORD, registerAccount, uniqueEmail, type ApiResponse } from '../support/api';
import { tenant, type Tenant } from '../support/fixtures';
import { addUser, scanItems } from '../support/table';

/**
 * The audit trail, black-box: every recorded action is performed through the API, then read back
 * from GET /api/flash/audit with its actor, target, outcome and the x-request-id of the request
 * that made it. No entry may carry a secret, a password, a token or an e-mail address.
 */

interface Entry {
  id: string;
  occurredAt: string;
  action: string;
  outcome: 'success' | 'failure';
  reason: string | null;
  actor: { type: string; id?: string; name?: string | null; email?: string | null; prefix?: string | null };
  target: { type: string; id: string; href: string | null };
  changes?: unknown[];
  requestId: string;
}

const requestIdOf = (res: ApiResponse): string => {
  const id = res.headers.get('x-request-id');
  expect(id).toBeTruthy();
  return id!;
};

async function trail(token: string, query = ''): Promise<{ data: Entry[]; nextCursor: string | null }> {
  const res = await call('GET', `/api/flash/audit${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The one entry the request with this answer wrote (newest first, so it is near the top). */
async function entryOf(token: string, res: ApiResponse, action: string): Promise<Entry> {
  const requestId = requestIdOf(res);
  const found = (await trail(token, '?limit=200')).data.filter((e) => e.requestId === requestId);
  expect(
    found.map((e) => e.action),
    `entries of request ${requestId}`,
  ).toEqual([action]);
  return found[0]!;
}

/** The entries that carry what changed (configuration changes). */
const WITH_CHANGES = new Set([
  'program.updated',
  'campaign.created',
  'campaign.updated',
  'portal.cors_updated',
  'team.role_changed',
  'reward.created',
  'reward.updated',
]);

/**
 * Nothing of these (nor any e-mail address) appears in the entry as the table stores it, nor in the
 * answer beyond the actor's name, e-mail and key prefix, which are looked up when the trail is read
 * (test/e2e/audit-readable.test.ts) and never stored.
 */
async function expectClean(entry: Entry, secrets: string[]): Promise<void> {
  const { name: _name, email: _email, prefix: _prefix, ...actor } = entry.actor;
  const stored = await scanItems('entity = :e AND id = :id', { ':e': 'auditEntry', ':id': entry.id });
  expect(stored).toHaveLength(1);
  for (const text of [JSON.stringify({ ...entry, actor }), JSON.stringify(stored[0])]) {
    expect(text).not.toContain('@');
    for (const s of secrets) expect(text, `entry contains ${s.slice(0, 12)}...`).not.toContain(s);
    for (const prefix of ['fl_live_', 'fl_sess_', 'fl_reset_', 'whsec_']) expect(text).not.toContain(prefix);
  }
  const keys = ['action', 'actor', 'id', 'occurredAt', 'outcome', 'reason', 'requestId', 'target', ...(WITH_CHANGES.has(entry.action) ? ['changes'] : [])];
  expect(Object.keys(entry).sort()).toEqual(keys.sort());
  expect(entry.id).toMatch(/^aud_[0-9a-hjkmnp-tv-z]{26}$/);
  expect(Date.now() - Date.parse(entry.occurredAt)).toBeLessThan(60_000);
}

const login = (email: string, password: string) => call('POST', '/api/v2/auth/login', { body: { email, password } });

describe('audit trail: auth', () => {
  it('workspace.created: the owner registers the workspace', async () => {
    const email = uniqueEmail('audit-reg');
    const res = await call('POST', '/api/v2/auth/register', { body: { workspaceName: 'Audit reg', email, password: PASSWORD, name: 'Ada Lovelace' } });
    expect(res.status).toBe(201);
    const { workspace, user, session } = res.body.data;
    const entry = await entryOf(session.token, res, 'workspace.created');
    expect(entry).toMatchObject({ outcome: 'success', reason: null, actor: { type: 'user', id: user.id }, target: { type: 'workspace', id: workspace.id } });
    await expectClean(entry, [email, PASSWORD, session.token, 'Ada', 'Lovelace', 'Audit reg']);
  });

  it('auth.login: a sign-in, by the user, on the user', async () => {
    const acc = await registerAccount('audit-login');
    const res = await login(acc.email, acc.password);
    expect(res.status).toBe(200);
    const entry = await entryOf(acc.token, res, 'auth.login');
    expect(entry).toMatchObject({ outcome: 'success', reason: null, actor: { type: 'user', id: acc.userId }, target: { type: 'user', id: acc.userId } });
    await expectClean(entry, [acc.email, acc.password, res.body.data.session.token]);
  });

  it('auth.login_failed: a wrong password is recorded in the account’s workspace, by anonymous, as a failure', async () => {
    const acc = await registerAccount('audit-fail');
    const res = await login(acc.email, 'not the password at all');
    expect(res.status).toBe(401);
    const entry = await entryOf(acc.token, res, 'auth.login_failed');
    expect(entry).toEqual({
      id: entry.id,
      occurredAt: entry.occurredAt,
      action: 'auth.login_failed',
      outcome: 'failure',
      reason: 'wrong_password',
      actor: { type: 'anonymous' },
      target: { type: 'user', id: acc.userId, href: '/console/team' },
      requestId: requestIdOf(res),
    });
    await expectClean(entry, [acc.email, 'not the password at all', acc.token]);
  });

  it('an unknown e-mail belongs to no workspace: the 401 writes no entry anywhere', async () => {
    const res = await login(uniqueEmail('audit-ghost'), 'whatever password');
    expect(res.status).toBe(401);
    expect(await scanItems('entity = :e AND requestId = :r', { ':e': 'auditEntry', ':r': requestIdOf(res) })).toEqual([]);
  });

  it('throttled logins (429) are not recorded: at most the limit of failures per window reaches the trail', async () => {
    const acc = await registerAccount('audit-throttle');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await login(acc.email, 'wrong password here')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const failed = (await trail(acc.token, '?action=auth.login_failed')).data;
    expect(failed).toHaveLength(5);
  });

  it('auth.password_changed and auth.password_reset', async () => {
    const acc = await registerAccount('audit-pw');
    const changed = await call('POST', '/api/v2/auth/change-password', {
      token: acc.token,
      body: { currentPassword: acc.password, newPassword: 'a brand new password' },
    });
    expect(changed.status).toBe(204);
    const change = await entryOf(acc.token, changed, 'auth.password_changed');
    expect(change).toMatchObject({ outcome: 'success', actor: { type: 'user', id: acc.userId }, target: { type: 'user', id: acc.userId } });
    await expectClean(change, [acc.email, acc.password, 'a brand new password', acc.token]);

    // A wrong current password changes nothing and records nothing.
    const refused = await call('POST', '/api/v2/auth/change-password', {
      token: acc.token,
      body: { currentPassword: 'wrong current pw', newPassword: 'another new password' },
    });
    expect(refused.status).toBe(422);
    expect((await trail(acc.token)).data.filter((e) => e.requestId === requestIdOf(refused))).toEqual([]);

    expect((await call('POST', '/api/v2/auth/forgot-password', { body: { email: acc.email } })).status).toBe(202);
    const token = (await mailsTo(acc.email)).at(-1)!.text.match(/fl_reset_[A-Za-z0-9_-]{43}/)![0];
    const reset = await call('POST', '/api/v2/auth/reset-password', { body: { token, newPassword: 'the reset password' } });
    expect(reset.status).toBe(204);
    // The reset signed every session out: read the trail with a new one.
    const relogin = await login(acc.email, 'the reset password');
    const entry = await entryOf(relogin.body.data.session.token, reset, 'auth.password_reset');
    expect(entry).toMatchObject({ outcome: 'success', actor: { type: 'user', id: acc.userId }, target: { type: 'user', id: acc.userId } });
    await expectClean(entry, [acc.email, token, 'the reset password']);
  });

  it('auth.email_changed names the user, never an address; a name change is not recorded', async () => {
    const acc = await registerAccount('audit-mail');
    const fresh = uniqueEmail('audit-mail-new');
    const res = await call('PATCH', '/api/v2/auth/profile', { token: acc.token, body: { email: fresh, name: 'Grace Hopper' } });
    expect(res.status).toBe(200);
    const entry = await entryOf(acc.token, res, 'auth.email_changed');
    expect(entry).toMatchObject({ outcome: 'success', actor: { type: 'user', id: acc.userId }, target: { type: 'user', id: acc.userId } });
    await expectClean(entry, [acc.email, fresh, 'Grace', 'Hopper']);
    const renamed = await call('PATCH', '/api/v2/auth/profile', { token: acc.token, body: { name: 'Someone Else' } });
    expect(renamed.status).toBe(200);
    expect((await trail(acc.token)).data.filter((e) => e.requestId === requestIdOf(renamed))).toEqual([]);
  });
});

describe('audit trail: API keys, webhook endpoints, program, object types', () => {
  it('api_key.created and api_key.revoked, by a session or by a key', async () => {
    const acc = await registerAccount('audit-keys');
    const made = await call('POST', '/api/v2/api-keys', { token: acc.token, body: { name: 'Ops key', scopes: ['api_keys:manage', 'members:read'] } });
    expect(made.status).toBe(201);
    const created = await entryOf(acc.token, made, 'api_key.created');
    expect(created).toMatchObject({ outcome: 'success', actor: { type: 'user', id: acc.userId }, target: { type: 'apiKey', id: made.body.data.id } });
    await expectClean(created, [made.body.data.key, made.body.data.prefix, acc.token, acc.email, 'Ops key']);

    // The key makes a key of its own and revokes it: the key is the actor.
    const child = await call('POST', '/api/v2/api-keys', { token: made.body.data.key, body: { name: 'child', scopes: ['members:read'] } });
    expect(child.status).toBe(201);
    const byKey = await entryOf(acc.token, child, 'api_key.created');
    expect(byKey).toMatchObject({ actor: { type: 'apiKey', id: made.body.data.id }, target: { type: 'apiKey', id: child.body.data.id } });
    await expectClean(byKey, [made.body.data.key, child.body.data.key]);
    const revoked = await call('DELETE', `/api/v2/api-keys/${child.body.data.id}`, { token: made.body.data.key });
    expect(revoked.status).toBe(204);
    const entry = await entryOf(acc.token, revoked, 'api_key.revoked');
    expect(entry).toMatchObject({ outcome: 'success', actor: { type: 'apiKey', id: made.body.data.id }, target: { type: 'apiKey', id: child.body.data.id } });
    await expectClean(entry, [made.body.data.key, child.body.data.key]);

    // Revoking it again is a 404 and records nothing.
    const again = await call('DELETE', `/api/v2/api-keys/${child.body.data.id}`, { token: acc.token });
    expect(again.status).toBe(404);
    expect((await trail(acc.token, '?action=api_key.revoked')).data.map((e) => e.requestId)).toEqual([requestIdOf(revoked)]);
  });

  it('webhook_endpoint.created, .updated, .secret_rotated and .deleted, by the API key', async () => {
    const t = await tenant('audit-hooks');
    const keyId = (await trail(t.token, '?action=api_key.created')).data[0]!.target.id;
    const made = await call('POST', '/api/v2/webhooks', {
      token: t.key,
      body: { url: 'https://hooks.example.com/audit', description: 'Audit hook', eventTypes: ['member.created'] },
    });
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    const secrets = [t.key, made.body.data.secret];
    const created = await entryOf(t.token, made, 'webhook_endpoint.created');
    expect(created).toMatchObject({ outcome: 'success', actor: { type: 'apiKey', id: keyId }, target: { type: 'webhookEndpoint', id } });
    await expectClean(created, [...secrets, 'hooks.example.com', 'Audit hook']);

    const patched = await call('PATCH', `/api/v2/webhooks/${id}`, { token: t.key, body: { url: 'https://other.example.com/x', status: 'disabled' } });
    expect(patched.status).toBe(200);
    const updated = await entryOf(t.token, patched, 'webhook_endpoint.updated');
    expect(updated).toMatchObject({ actor: { type: 'apiKey', id: keyId }, target: { type: 'webhookEndpoint', id } });
    await expectClean(updated, [...secrets, 'other.example.com']);

    const rotated = await call('PATCH', `/api/v2/webhooks/${id}`, { token: t.key, body: { action: 'rotate_secret' } });
    expect(rotated.status).toBe(200);
    const rotation = await entryOf(t.token, rotated, 'webhook_endpoint.secret_rotated');
    expect(rotation).toMatchObject({ actor: { type: 'apiKey', id: keyId }, target: { type: 'webhookEndpoint', id } });
    await expectClean(rotation, [...secrets, rotated.body.data.secret]);

    const deleted = await call('DELETE', `/api/v2/webhooks/${id}`, { token: t.key });
    expect(deleted.status).toBe(204);
    const deletion = await entryOf(t.token, deleted, 'webhook_endpoint.deleted');
    expect(deletion).toMatchObject({ outcome: 'success', actor: { type: 'apiKey', id: keyId }, target: { type: 'webhookEndpoint', id } });
    await expectClean(deletion, secrets);
  });

  it('program.updated: the rules change, by the admin, on the workspace’s program', async () => {
    const t = await tenant('audit-program');
    const body = {
      earn: { pointsPerUnit: 2, rounding: 'floor', currencyOverrides: {} },
      tiers: { metric: 'lifetime_points', levels: [{ key: 'member', name: 'Member', threshold: 0 }] },
    };
    const res = await call('PUT', '/api/flash/program', { token: t.token, body });
    expect(res.status).toBe(200);
    const entry = await entryOf(t.token, res, 'program.updated');
    expect(entry).toMatchObject({ outcome: 'success', actor: { type: 'user', id: t.userId }, target: { type: 'program', id: t.workspaceId } });
    await expectClean(entry, [t.key, t.token, t.email]);
  });

  it('object_type.created, then object_type.updated', async () => {
    const t = await tenant('audit-types');
    const def = { label: 'Repair job', status: 'draft', apiVisible: false, fields: [{ key: 'title', type: 'text', required: true }] };
    const first = await call('PUT', '/api/flash/objects/types/repair_job', { token: t.token, body: def });
    expect(first.status).toBe(200);
    const created = await entryOf(t.token, first, 'object_type.created');
    expect(created).toMatchObject({ outcome: 'success', actor: { type: 'user', id: t.userId }, target: { type: 'objectType', id: 'repair_job' } });
    await expectClean(created, [t.token, t.email]);
    const second = await call('PUT', '/api/flash/objects/types/repair_job', { token: t.token, body: { ...def, status: 'published', apiVisible: true } });
    expect(second.status).toBe(200);
    const updated = await entryOf(t.token, second, 'object_type.updated');
    expect(updated).toMatchObject({ actor: { type: 'user', id: t.userId }, target: { type: 'objectType', id: 'repair_job' } });
    await expectClean(updated, [t.token, t.email]);
  });
});

describe('audit trail: refused changes record nothing', () => {
  it('a 422 on webhook endpoint create writes no entry', async () => {
    const t = await tenant('audit-refused');
    const refused = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: 'https://10.1.2.3/hook', eventTypes: ['member.created'] } });
    expect(refused.status).toBe(422);
    const invalid = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: 'not a url', eventTypes: ['member.created'] } });
    expect(invalid.status).toBe(422);
    const entries = (await trail(t.token)).data;
    expect(entries.filter((e) => e.action.startsWith('webhook_endpoint.'))).toEqual([]);
    expect(entries.filter((e) => [requestIdOf(refused), requestIdOf(invalid)].includes(e.requestId))).toEqual([]);
  });

  it('a delete whose condition fails in the transaction (the endpoint is already gone) leaves no entry', async () => {
    const t = await tenant('audit-cond');
    const made = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: 'https://hooks.example.com/cond', eventTypes: ['member.created'] } });
    const id = made.body.data.id;
    // The service deletes without reading first: the second delete reaches the transaction and its
    // condition (the endpoint exists) fails there, taking the audit item with it.
    const first = await call('DELETE', `/api/v2/webhooks/${id}`, { token: t.key });
    const second = await call('DELETE', `/api/v2/webhooks/${id}`, { token: t.key });
    const unknown = await call('DELETE', '/api/v2/webhooks/whe_01j0000000000000000000000a', { token: t.key });
    expect([first.status, second.status, unknown.status]).toEqual([204, 404, 404]);
    expect((await trail(t.token, '?action=webhook_endpoint.deleted')).data.map((e) => e.requestId)).toEqual([requestIdOf(first)]);
  });

  it('concurrent program changes from one version: one entry per change that committed, none for the refused', async () => {
    const t = await tenant('audit-race');
    const body = (n: number) => ({
      earn: { pointsPerUnit: n, rounding: 'floor', currencyOverrides: {} },
      tiers: { metric: 'lifetime_points', levels: [{ key: 'member', name: 'Member', threshold: 0 }] },
      version: 0,
    });
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => call('PUT', '/api/flash/program', { token: t.token, body: body(n) })));
    const committed = answers.filter((a) => a.status === 200);
    expect(committed).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
    const entries = (await trail(t.token, '?action=program.updated')).data;
    expect(entries.map((e) => e.requestId)).toEqual([requestIdOf(committed[0]!)]);
  });
});

describe('GET /api/flash/audit', () => {
  /** A workspace with a known history: register, key, 3 webhook endpoints, a program change. */
  async function history(): Promise<{ t: Tenant; keyId: string; hookRequests: string[] }> {
    const t = await tenant('audit-list');
    const keyId = (await trail(t.token, '?action=api_key.created')).data[0]!.target.id;
    const hookRequests: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: `https://hooks.example.com/${n}`, eventTypes: ['member.created'] } });
      expect(res.status).toBe(201);
      hookRequests.push(requestIdOf(res));
    }
    return { t, keyId, hookRequests };
  }

  it('lists newest first and pages with a signed cursor', async () => {
    const { t, hookRequests } = await history();
    const all = (await trail(t.token)).data;
    expect(all.map((e) => e.action)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.created',
      'webhook_endpoint.created',
      'api_key.created',
      'workspace.created',
    ]);
    expect(all.slice(0, 3).map((e) => e.requestId)).toEqual([...hookRequests].reverse());
    const ids = all.map((e) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);

    const pages: Entry[][] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Entry[]; nextCursor: string | null } = await trail(t.token, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      pages.push(page.data);
      cursor = page.nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual(pages.length === 3 ? [2, 2, 1] : [2, 2, 1, 0]);
    expect(pages.flat().map((e) => e.id)).toEqual(ids);
  });

  it('filters by action, by actor, by both, and by a time window', async () => {
    const { t, keyId } = await history();
    const byAction = (await trail(t.token, '?action=webhook_endpoint.created')).data;
    expect(byAction).toHaveLength(3);
    expect(byAction.every((e) => e.action === 'webhook_endpoint.created')).toBe(true);

    const byKey = (await trail(t.token, `?actor=${keyId}`)).data;
    expect(byKey.map((e) => e.action)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.created', 'webhook_endpoint.created']);
    const byUser = (await trail(t.token, `?actor=${t.userId}`)).data;
    expect(byUser.map((e) => e.action)).toEqual(['api_key.created', 'workspace.created']);
    expect((await trail(t.token, `?actor=${t.userId}&action=api_key.created`)).data.map((e) => e.action)).toEqual(['api_key.created']);
    expect((await trail(t.token, `?actor=${keyId}&action=api_key.created`)).data).toEqual([]);
    expect((await trail(t.token, '?actor=usr_01j0000000000000000000000a')).data).toEqual([]);

    const all = (await trail(t.token)).data;
    // [from, to): from the oldest hook entry's time up to (not including) the newest one's.
    const oldestHook = all[2]!;
    const newestHook = all[0]!;
    const window = (await trail(t.token, `?from=${encodeURIComponent(oldestHook.occurredAt)}&to=${encodeURIComponent(newestHook.occurredAt)}`)).data;
    expect(window.map((e) => e.id)).toEqual(all.filter((e) => e.occurredAt >= oldestHook.occurredAt && e.occurredAt < newestHook.occurredAt).map((e) => e.id));
    expect(window.map((e) => e.id)).toContain(oldestHook.id);
    expect(window.map((e) => e.id)).not.toContain(newestHook.id);
    // A window in the future, and one given with an offset, on a filtered list.
    expect((await trail(t.token, '?from=2100-01-01T00:00:00Z')).data).toEqual([]);
    const offset = new Date(Date.parse(oldestHook.occurredAt)).toISOString().replace('Z', '+00:00');
    expect((await trail(t.token, `?action=webhook_endpoint.created&from=${encodeURIComponent(offset)}`)).data).toHaveLength(3);
    expect((await trail(t.token, `?action=webhook_endpoint.created&to=${encodeURIComponent(offset)}`)).data).toHaveLength(0);
  });

  it('refuses what is not a filter: 422 naming the parameter', async () => {
    const t = await tenant('audit-422');
    for (const [query, field] of [
      ['?action=auth.impersonated', 'action'],
      ['?action=', 'action'],
      ['?actor=', 'actor'],
      [`?actor=${'x'.repeat(65)}`, 'actor'],
      ['?from=yesterday', 'from'],
      ['?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
      ['?workspaceId=ws_1', 'workspaceId'],
      ['?limit=201', 'limit'],
    ] as const) {
      const res = await call('GET', `/api/flash/audit${query}`, { token: t.token });
      expect(res.status, query).toBe(422);
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field);
    }
  });

  it('every action of the catalog is a valid filter', async () => {
    const t = await registerAccount('audit-catalog');
    for (const action of AUDIT_ACTIONS) expect((await call('GET', `/api/flash/audit?action=${action}`, { token: t.token })).status, action).toBe(200);
  });

  it('needs an owner or admin session: 401 without, 403 for a member session or an API key', async () => {
    const t = await tenant('audit-auth');
    expect((await call('GET', '/api/flash/audit')).status).toBe(401);
    const key = await call('GET', '/api/flash/audit', { token: t.key });
    expect(key.status).toBe(403);
    expect(key.body.error.code).toBe('FORBIDDEN');
    const member = await addUser(t.workspaceId, 'member');
    const memberSession = (await login(member.email, member.password)).body.data.session.token;
    const refused = await call('GET', '/api/flash/audit', { token: memberSession });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const admin = await addUser(t.workspaceId, 'admin');
    const adminLogin = await login(admin.email, admin.password);
    const adminSession = adminLogin.body.data.session.token;
    const seen = (await trail(adminSession)).data;
    expect(seen[0]).toMatchObject({ action: 'auth.login', actor: { type: 'user', id: adminLogin.body.data.user.id }, requestId: requestIdOf(adminLogin) });
  });

  it('one workspace never reads another’s entries, by filter or by cursor', async () => {
    const { t: a, keyId } = await history();
    const b = await tenant('audit-other');
    const aIds = new Set((await trail(a.token)).data.map((e) => e.id));
    const bEntries = (await trail(b.token, '?limit=200')).data;
    expect(bEntries.length).toBeGreaterThan(0);
    expect(bEntries.filter((e) => aIds.has(e.id))).toEqual([]);
    expect((await trail(b.token, `?actor=${a.userId}`)).data).toEqual([]);
    expect((await trail(b.token, `?actor=${keyId}`)).data).toEqual([]);
    expect((await trail(b.token, '?action=webhook_endpoint.created')).data).toEqual([]);
    // A's cursor, presented by B (same filters), is refused rather than continued.
    const page = await trail(a.token, '?limit=1');
    expect(page.nextCursor).toBeTruthy();
    const foreign = await call('GET', `/api/flash/audit?limit=1&cursor=${encodeURIComponent(page.nextCursor!)}`, { token: b.token });
    expect(foreign.status).toBe(400);
    // And a cursor of one filter does not continue another.
    const other = await call('GET', `/api/flash/audit?limit=1&action=api_key.created&cursor=${encodeURIComponent(page.nextCursor!)}`, { token: a.token });
    expect(other.status).toBe(400);
  });

  it('the entries are items that expire by TTL after the retention period', async () => {
    const acc = await registerAccount('audit-ttl');
    const items = await scanItems('entity = :e AND workspaceId = :w', { ':e': 'auditEntry', ':w': acc.workspaceId });
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item.pk).toBe(`WS#${acc.workspaceId}#AUDIT#${item.occurredAt.slice(0, 10)}`);
    expect(item.expiresAt - Math.floor(Date.parse(item.occurredAt) / 1000)).toBe(365 * 24 * 3600);
  });
});
