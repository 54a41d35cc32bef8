import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { config } from '../../shared/platform/config';
import { keyOf } from '../../shared/platform/data/keys';
import { sha256Hex } from '../../shared/platform/tokens';
import { browserSignIn, call, PASSWORD, registerAccount } from '../support/api';
import { platformTable } from '../support/table';

/**
 * The console's browser session over HTTP: an HttpOnly cookie that stands in for the bearer token on
 * user-session routes only, writes that must prove their origin and carry the CSRF token, sign-out
 * that revokes server-side, and the idle limit.
 */

const { cookie: COOKIE, csrfHeader: CSRF } = config.browserSession;
const origin = () => inject('baseUrl');

const signIn = browserSignIn;

const keysOf = async (bearer: string) => (await call('GET', '/api/v2/api-keys', { token: bearer })).body.data.length as number;

describe('browser sessions', () => {
  it('sign-in sets an HttpOnly, SameSite=Strict cookie on Path=/ (no Secure over local http) and answers the CSRF token, never the session token', async () => {
    const owner = await registerAccount('console');
    const { res, setCookie, token, csrf } = await signIn(owner.email);
    expect(res.status).toBe(200);
    expect(token).toMatch(/^fl_sess_/);
    expect(setCookie).toMatch(/; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(setCookie).not.toContain('Secure');
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(res.body)).not.toContain(token!);
    expect(res.body.data).toMatchObject({ user: { email: owner.email, role: 'owner' }, workspace: { id: owner.workspaceId } });
    const { expiresAt, idleExpiresAt } = res.body.data.session;
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(12 * 3600_000 - 60_000);
    expect(Date.parse(idleExpiresAt) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(Date.parse(idleExpiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
  });

  it('the cookie works on user-session routes and reads; an API-key route does not take it', async () => {
    const owner = await registerAccount('console-read');
    const { cookie, csrf } = await signIn(owner.email);
    const session = await call('GET', '/api/flash/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.body.data.session.csrfToken).toBe(csrf);
    expect((await call('GET', '/api/flash/audit', { headers: { cookie } })).status).toBe(200);
    expect((await call('GET', '/api/v2/api-keys', { headers: { cookie } })).status).toBe(200);
    // Members are API-key routes: the cookie is not a credential there.
    const members = await call('GET', '/api/v2/members', { headers: { cookie } });
    expect(members.status).toBe(401);
    // Without the cookie, nothing.
    expect((await call('GET', '/api/flash/session')).status).toBe(401);
  });

  it('a write with the cookie needs our Origin and the CSRF token; refused ones change nothing', async () => {
    const owner = await registerAccount('console-csrf');
    const { cookie, csrf } = await signIn(owner.email);
    const body = { name: 'from the console', preset: 'read-only' };
    const attempts: Record<string, string>[] = [
      { cookie },
      { cookie, origin: 'https://evil.example', [CSRF]: csrf! },
      { cookie, origin: origin() },
      { cookie, origin: origin(), [CSRF]: 'x'.repeat(43) },
    ];
    for (const headers of attempts) {
      const refused = await call('POST', '/api/v2/api-keys', { headers, body });
      expect(refused.status, JSON.stringify(Object.keys(headers))).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    expect(await keysOf(owner.token)).toBe(0);
    const made = await call('POST', '/api/v2/api-keys', { headers: { cookie, origin: origin(), [CSRF]: csrf! }, body });
    expect(made.status).toBe(201);
    expect(await keysOf(owner.token)).toBe(1);
  });

  it('a bearer session put in the cookie is refused (it has no CSRF token)', async () => {
    const owner = await registerAccount('console-bearer');
    const res = await call('GET', '/api/flash/session', { headers: { cookie: `${COOKIE}=${owner.token}` } });
    expect(res.status).toBe(401);
  });

  it('a wrong password is the same 401 as /auth/login and is throttled the same way (429)', async () => {
    const owner = await registerAccount('console-throttle');
    const statuses: number[] = [];
    for (let i = 0; i < config.auth.loginFailureLimit + 1; i++) statuses.push((await signIn(owner.email, 'not the password')).res.status);
    expect(statuses).toEqual([...Array(config.auth.loginFailureLimit).fill(401), 429]);
    // The login route shares the count: the e-mail is throttled there too.
    expect((await call('POST', '/api/v2/auth/login', { body: { email: owner.email, password: PASSWORD } })).status).toBe(429);
  });

  it('signing out revokes the session server-side, clears the cookie and is audited', async () => {
    const owner = await registerAccount('console-out');
    const { cookie, csrf } = await signIn(owner.email);
    // A sign-out is a write: without the CSRF token it is refused and the session lives on.
    expect((await call('DELETE', '/api/flash/session', { headers: { cookie, origin: origin() } })).status).toBe(403);
    expect((await call('GET', '/api/flash/session', { headers: { cookie } })).status).toBe(200);
    const out = await call('DELETE', '/api/flash/session', { headers: { cookie, origin: origin(), [CSRF]: csrf! } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`^${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`));
    expect((await call('GET', '/api/flash/session', { headers: { cookie } })).status).toBe(401);
    const audit = await call('GET', '/api/flash/audit?action=auth.logout', { token: owner.token });
    expect(audit.body.data).toEqual([expect.objectContaining({ action: 'auth.logout', actor: expect.objectContaining({ type: 'user', id: owner.userId }) })]);
  });

  it('a bearer session can sign out too (its token is refused afterwards)', async () => {
    const owner = await registerAccount('bearer-out');
    expect((await call('DELETE', '/api/flash/session', { token: owner.token })).status).toBe(204);
    expect((await call('GET', '/api/v2/auth/profile', { token: owner.token })).status).toBe(401);
  });

  it('ends after the idle limit without a request, and a request within it moves the limit on', async () => {
    const owner = await registerAccount('console-idle');
    const { cookie, token } = await signIn(owner.email);
    const { doc, tableName } = await platformTable();
    const lastSeen = (secondsAgo: number) =>
      doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keyOf('session', { tokenHash: sha256Hex(token!) }),
          UpdateExpression: 'SET browser.lastSeenAt = :t',
          ExpressionAttributeValues: { ':t': Math.floor(Date.now() / 1000) - secondsAgo },
        }),
      );
    // Seen 29 minutes ago: still valid, and this request stamps a new last-seen time.
    await lastSeen(config.browserSession.idleSeconds - 60);
    const alive = await call('GET', '/api/flash/session', { headers: { cookie } });
    expect(alive.status).toBe(200);
    expect(Date.parse(alive.body.data.session.idleExpiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    // Seen 30 minutes ago: over.
    await lastSeen(config.browserSession.idleSeconds);
    const idle = await call('GET', '/api/flash/session', { headers: { cookie } });
    expect(idle.status).toBe(401);
    expect(idle.body.error.message).toMatch(/without use/);
  });
});
