import { describe, expect, it } from 'vitest';
import { call, createKey, mailsTo, PASSWORD, registerAccount, uniqueEmail } from '../support/api';
import { scanItems } from '../support/table';

describe('auth: register, login, profile', () => {
  it('register -> login -> profile -> create API key -> use it', async () => {
    const email = uniqueEmail('flow');
    const reg = await call('POST', '/api/v2/auth/register', {
      body: { workspaceName: 'Flow Coffee', email: email.toUpperCase(), password: PASSWORD, name: 'Flo' },
    });
    expect(reg.status).toBe(201);
    const { workspace, user, session } = reg.body.data;
    expect(workspace).toMatchObject({ id: expect.stringMatching(/^ws_/), name: 'Flow Coffee' });
    expect(user).toMatchObject({ email, name: 'Flo', role: 'owner', workspaceId: workspace.id });
    expect(user).not.toHaveProperty('passwordHash');
    expect(session.token).toMatch(/^fl_sess_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now());

    const login = await call('POST', '/api/v2/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body.data.user.id).toBe(user.id);
    expect(login.body.data.workspace.id).toBe(workspace.id);
    const token = login.body.data.session.token;
    expect(token).not.toBe(session.token);

    const profile = await call('GET', '/api/v2/auth/profile', { token });
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({ user: { id: user.id, email }, workspace: { id: workspace.id } });

    const key = await call('POST', '/api/v2/api-keys', { token, body: { name: 'backend', scopes: ['api_keys:manage', 'members:read'] } });
    expect(key.status).toBe(201);
    expect(key.body.data).toMatchObject({ name: 'backend', scopes: ['members:read', 'api_keys:manage'] });
    expect(key.body.data.key).toMatch(/^fl_live_[A-Za-z0-9_-]{43}$/);
    expect(key.body.data.key.startsWith(key.body.data.prefix)).toBe(true);

    const listed = await call('GET', '/api/v2/api-keys', { token: key.body.data.key });
    expect(listed.status).toBe(200);
    const mine = listed.body.data.find((k: { id: string }) => k.id === key.body.data.id);
    expect(mine).toMatchObject({ name: 'backend', prefix: key.body.data.prefix });
    expect(mine.lastUsedAt).not.toBeNull();
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(key.body.data.key);
    expect(text).not.toMatch(/hash/i);
  });

  it('refuses a duplicate e-mail with 409, whatever its case', async () => {
    const acc = await registerAccount('dup');
    const again = await call('POST', '/api/v2/auth/register', { body: { workspaceName: 'Other', email: ` ${acc.email.toUpperCase()} `, password: PASSWORD } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('20 parallel registrations of one e-mail create exactly one account', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call('POST', '/api/v2/auth/register', { body: { workspaceName: `Race ${i} ${email}`, email, password: PASSWORD } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    // One user and one workspace in the table: the refused registrations left nothing behind.
    const winner = results.find((r) => r.status === 201)!.body.data;
    const users = await scanItems('entity = :e AND email = :m', { ':e': 'user', ':m': email });
    expect(users.map((u) => [u.id, u.workspaceId])).toEqual([[winner.user.id, winner.workspace.id]]);
    const workspaces = await scanItems('entity = :e AND contains(#n, :m)', { ':e': 'workspace', ':m': email }, { '#n': 'name' });
    expect(workspaces.map((w) => w.id)).toEqual([winner.workspace.id]);
    const login = await call('POST', '/api/v2/auth/login', { body: { email, password: PASSWORD } });
    expect(login.body.data.workspace.id).toBe(winner.workspace.id);
  });

  it('enforces the password policy with a 422 naming the field', async () => {
    const res = await call('POST', '/api/v2/auth/register', { body: { workspaceName: 'W', email: uniqueEmail(), password: 'short' } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([expect.objectContaining({ in: 'body', field: 'password', message: expect.stringContaining('10') })]);
  });

  it('gives one detail per offending field, unknown fields included', async () => {
    const res = await call('POST', '/api/v2/auth/register', { body: { email: 'not-an-email', password: 'x', admin: true } });
    expect(res.status).toBe(422);
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['admin', 'email', 'password', 'workspaceName']);
  });

  it('answers unknown e-mail and wrong password with the same 401', async () => {
    const acc = await registerAccount('creds');
    const wrong = await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: 'wrong password!' } });
    const unknown = await call('POST', '/api/v2/auth/login', { body: { email: uniqueEmail('ghost'), password: 'wrong password!' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    expect(wrong.body.error.code).toBe(unknown.body.error.code);
  });

  it('throttles repeated failures for one e-mail with 429 and Retry-After', async () => {
    const acc = await registerAccount('throttle');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: `wrong-${i}-password` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Even the right password waits out the window: the throttle is checked before the password.
    const right = await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: PASSWORD } });
    expect(right.status).toBe(429);
    expect(right.body.error.code).toBe('RATE_LIMITED');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another e-mail is not affected.
    const other = await registerAccount('unthrottled');
    expect((await call('POST', '/api/v2/auth/login', { body: { email: other.email, password: PASSWORD } })).status).toBe(200);
  });

  it('24 parallel wrong-password logins get at most the allowance of password checks; the rest 429 with Retry-After', async () => {
    const acc = await registerAccount('throttle-race');
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: `wrong-${i}-password` } })),
    );
    // Each non-429 answer is one password check; the allowance is 5 per window (config.auth.loginFailureLimit).
    const checked = results.filter((r) => r.status !== 429);
    expect(checked.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    for (const r of results.filter((r) => r.status === 429)) {
      expect(r.body.error.code).toBe('RATE_LIMITED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The window is full: the right password waits it out too.
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: PASSWORD } })).status).toBe(429);
  });

  it('a successful login resets the failure count', async () => {
    const acc = await registerAccount('throttle-reset');
    const wrong = () => call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: 'not the password' } });
    for (let i = 0; i < 4; i++) expect((await wrong()).status).toBe(401);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: PASSWORD } })).status).toBe(200);
    const after: number[] = [];
    for (let i = 0; i < 6; i++) after.push((await wrong()).status);
    expect(after).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('updates the profile name and e-mail; the new e-mail logs in, the old no longer does', async () => {
    const acc = await registerAccount('profile');
    const newEmail = uniqueEmail('renamed');
    const patch = await call('PATCH', '/api/v2/auth/profile', { token: acc.token, body: { name: 'Renamed', email: newEmail } });
    expect(patch.status).toBe(200);
    expect(patch.body.data.user).toMatchObject({ name: 'Renamed', email: newEmail });
    expect((await call('POST', '/api/v2/auth/login', { body: { email: newEmail, password: PASSWORD } })).status).toBe(200);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: PASSWORD } })).status).toBe(401);
    // The released e-mail can be registered again; a taken one cannot be claimed.
    const other = await registerAccount('other');
    const steal = await call('PATCH', '/api/v2/auth/profile', { token: other.token, body: { email: newEmail } });
    expect(steal.status).toBe(409);
    expect((await call('PATCH', '/api/v2/auth/profile', { token: acc.token, body: {} })).status).toBe(422);
  });

  it('profile needs a session: no credential 401, an API key 403', async () => {
    const acc = await registerAccount('profile-auth');
    expect((await call('GET', '/api/v2/auth/profile')).status).toBe(401);
    const key = await createKey(acc.token, { name: 'k', preset: 'write' });
    const withKey = await call('GET', '/api/v2/auth/profile', { token: key.key });
    expect(withKey.status).toBe(403);
    expect(withKey.body.error.message).toMatch(/session/);
  });
});

describe('auth: passwords and sessions', () => {
  it('change-password revokes the other sessions and keeps the current one', async () => {
    const acc = await registerAccount('change');
    const second = (await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: PASSWORD } })).body.data.session.token;
    const wrong = await call('POST', '/api/v2/auth/change-password', {
      token: acc.token,
      body: { currentPassword: 'not it at all', newPassword: 'a brand new password' },
    });
    expect(wrong.status).toBe(422);
    expect((await call('GET', '/api/v2/auth/profile', { token: second })).status).toBe(200);

    const res = await call('POST', '/api/v2/auth/change-password', {
      token: acc.token,
      body: { currentPassword: PASSWORD, newPassword: 'a brand new password' },
    });
    expect(res.status).toBe(204);
    expect((await call('GET', '/api/v2/auth/profile', { token: acc.token })).status).toBe(200);
    expect((await call('GET', '/api/v2/auth/profile', { token: second })).status).toBe(401);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: PASSWORD } })).status).toBe(401);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: 'a brand new password' } })).status).toBe(200);
  });

  it('forgot-password is 202 for any e-mail and mails a token only to real accounts', async () => {
    const ghost = uniqueEmail('ghost');
    const res = await call('POST', '/api/v2/auth/forgot-password', { body: { email: ghost } });
    expect(res.status).toBe(202);
    expect(await mailsTo(ghost)).toHaveLength(0);
    const acc = await registerAccount('forgot');
    const real = await call('POST', '/api/v2/auth/forgot-password', { body: { email: acc.email } });
    expect(real.status).toBe(202);
    expect(real.body).toEqual(res.body);
    const mails = await mailsTo(acc.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.template).toBe('password_reset');
    expect(mails[0]!.text).toMatch(/fl_reset_[A-Za-z0-9_-]{43}/);
  });

  it('a reset token works once, then 410; it revokes all sessions', async () => {
    const acc = await registerAccount('reset');
    await call('POST', '/api/v2/auth/forgot-password', { body: { email: acc.email } });
    const token = (await mailsTo(acc.email))[0]!.text.match(/fl_reset_[A-Za-z0-9_-]{43}/)![0];

    const weak = await call('POST', '/api/v2/auth/reset-password', { body: { token, newPassword: 'short' } });
    expect(weak.status).toBe(422);

    const first = await call('POST', '/api/v2/auth/reset-password', { body: { token, newPassword: 'reset password 123' } });
    expect(first.status).toBe(204);
    const second = await call('POST', '/api/v2/auth/reset-password', { body: { token, newPassword: 'another password 456' } });
    expect(second.status).toBe(410);
    expect(second.body.error.code).toBe('GONE');

    expect((await call('GET', '/api/v2/auth/profile', { token: acc.token })).status).toBe(401);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: 'reset password 123' } })).status).toBe(200);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: 'another password 456' } })).status).toBe(401);
  });

  it('using one reset token voids the other outstanding ones', async () => {
    const acc = await registerAccount('reset-two');
    await call('POST', '/api/v2/auth/forgot-password', { body: { email: acc.email } });
    await call('POST', '/api/v2/auth/forgot-password', { body: { email: acc.email } });
    const [first, second] = (await mailsTo(acc.email)).map((m) => m.text.match(/fl_reset_[A-Za-z0-9_-]{43}/)![0]);
    expect((await call('POST', '/api/v2/auth/reset-password', { body: { token: second, newPassword: 'second token password' } })).status).toBe(204);
    const stale = await call('POST', '/api/v2/auth/reset-password', { body: { token: first, newPassword: 'first token password' } });
    expect(stale.status).toBe(410);
    expect(stale.body.error.code).toBe('GONE');
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: 'second token password' } })).status).toBe(200);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: 'first token password' } })).status).toBe(401);
  });

  it('a password change voids outstanding reset tokens and ends the other sessions, not its own', async () => {
    const acc = await registerAccount('reset-change');
    const other = (await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: PASSWORD } })).body.data.session.token;
    await call('POST', '/api/v2/auth/forgot-password', { body: { email: acc.email } });
    const token = (await mailsTo(acc.email))[0]!.text.match(/fl_reset_[A-Za-z0-9_-]{43}/)![0];
    const changed = await call('POST', '/api/v2/auth/change-password', {
      token: acc.token,
      body: { currentPassword: PASSWORD, newPassword: 'changed password 789' },
    });
    expect(changed.status).toBe(204);
    expect((await call('GET', '/api/v2/auth/profile', { token: acc.token })).status).toBe(200);
    expect((await call('GET', '/api/v2/auth/profile', { token: other })).status).toBe(401);
    const stale = await call('POST', '/api/v2/auth/reset-password', { body: { token, newPassword: 'attacker password 1' } });
    expect(stale.status).toBe(410);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: acc.email, password: 'changed password 789' } })).status).toBe(200);
  });

  it('an e-mail change voids the reset tokens mailed to the old address', async () => {
    const acc = await registerAccount('reset-email');
    await call('POST', '/api/v2/auth/forgot-password', { body: { email: acc.email } });
    const token = (await mailsTo(acc.email))[0]!.text.match(/fl_reset_[A-Za-z0-9_-]{43}/)![0];
    const newEmail = uniqueEmail('moved');
    expect((await call('PATCH', '/api/v2/auth/profile', { token: acc.token, body: { email: newEmail } })).status).toBe(200);
    // The old mailbox can no longer take the account over.
    const stale = await call('POST', '/api/v2/auth/reset-password', { body: { token, newPassword: 'old mailbox password' } });
    expect(stale.status).toBe(410);
    expect((await call('GET', '/api/v2/auth/profile', { token: acc.token })).status).toBe(200);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: newEmail, password: PASSWORD } })).status).toBe(200);
    // A name-only change does not void a token mailed to the current address.
    await call('POST', '/api/v2/auth/forgot-password', { body: { email: newEmail } });
    const fresh = (await mailsTo(newEmail))[0]!.text.match(/fl_reset_[A-Za-z0-9_-]{43}/)![0];
    expect((await call('PATCH', '/api/v2/auth/profile', { token: acc.token, body: { name: 'Renamed' } })).status).toBe(200);
    expect((await call('POST', '/api/v2/auth/reset-password', { body: { token: fresh, newPassword: 'new mailbox password' } })).status).toBe(204);
  });

  it('an unknown reset token is a 400', async () => {
    const res = await call('POST', '/api/v2/auth/reset-password', { body: { token: `fl_reset_${'x'.repeat(43)}`, newPassword: 'whatever password' } });
    expect(res.status).toBe(400);
  });

  it('treats malformed, unknown and expired-looking session tokens alike', async () => {
    for (const token of ['fl_sess_short', `fl_sess_${'A'.repeat(43)}`, 'garbage', `fl_live_${'B'.repeat(43)}`]) {
      const res = await call('GET', '/api/v2/auth/profile', { token });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe('Missing or invalid credential');
    }
  });
});
