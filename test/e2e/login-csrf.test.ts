import { describe, expect, inject, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { browserSignIn, call, createKey, PASSWORD, registerAccount } from '../support/api';

/**
 * Login CSRF: a page of another site posting a form to the console's sign-in would sign the
 * visitor's browser in to the attacker's console (a 200 with the session cookie). Such a form can be
 * `text/plain` (a JSON-looking body, `enctype="text/plain"`), urlencoded or multipart, never JSON;
 * a script's fetch can be JSON but carries the page's Origin. Every one of them is refused here
 * without a Set-Cookie, and a JSON route reads no body that does not say it is JSON.
 */

const EVIL = 'https://evil.example';
/** What `<form enctype="text/plain">` with one field named `{"email":"...","password":"...","x":"` and value `"}` sends. */
const formTextBody = (email: string) => `{"email":"${email}","password":"${PASSWORD}","x":"="}`;

async function signInRefused(headers: Record<string, string>, rawBody: string, contentType: string | null, status: number) {
  const res = await call('POST', '/api/flash/session', { rawBody, contentType, headers });
  expect(res.status, JSON.stringify(headers)).toBe(status);
  expect(res.headers.get('set-cookie')).toBeNull();
  return res;
}

describe('login CSRF: the sign-in refuses what another site can make a browser send', () => {
  it('a cross-site form post (text/plain, urlencoded, multipart) gets no session cookie', async () => {
    const attacker = await registerAccount('csrf-attacker');
    const text = await signInRefused({ origin: EVIL }, formTextBody(attacker.email), 'text/plain', 403);
    expect(text.body.error.code).toBe('FORBIDDEN');
    await signInRefused({ origin: EVIL }, `email=${encodeURIComponent(attacker.email)}&password=x`, 'application/x-www-form-urlencoded', 403);
    await signInRefused({ origin: EVIL }, '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx\r\n--b--', 'multipart/form-data; boundary=b', 403);
    // A browser that hides the page (Origin: null), or one that sends only Sec-Fetch-Site.
    await signInRefused({ origin: 'null' }, formTextBody(attacker.email), 'text/plain', 403);
    await signInRefused({ 'sec-fetch-site': 'cross-site' }, formTextBody(attacker.email), 'text/plain', 403);
    // Even from our own origin, a form body is no sign-in: 415, no cookie.
    const ownForm = await signInRefused({ origin: inject('baseUrl') }, formTextBody(attacker.email), 'text/plain', 415);
    expect(ownForm.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('a JSON sign-in from a page of another origin is refused too; from ours, or from no browser, it signs in', async () => {
    const attacker = await registerAccount('csrf-json');
    const body = JSON.stringify({ email: attacker.email, password: attacker.password });
    await signInRefused({ origin: EVIL }, body, 'application/json', 403);
    await signInRefused({ origin: inject('baseUrl').replace('127.0.0.1', 'localhost') }, body, 'application/json', 403);
    await signInRefused({ 'sec-fetch-site': 'same-site' }, body, 'application/json', 403);
    for (const headers of [{ origin: inject('baseUrl') }, { 'sec-fetch-site': 'same-origin' }, {}] as Record<string, string>[]) {
      const res = await call('POST', '/api/flash/session', { rawBody: body, headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${config.browserSession.cookie}=fl_sess_`));
    }
  });

  it('signing out (it clears the cookie) refuses another origin too: the session lives on', async () => {
    const owner = await registerAccount('csrf-signout');
    const signedIn = await browserSignIn(owner.email);
    const foreign = { origin: EVIL, [config.browserSession.csrfHeader]: signedIn.csrf! };
    for (const headers of [
      { ...foreign, cookie: signedIn.cookie },
      { origin: EVIL, authorization: `Bearer ${owner.token}` },
    ] as Record<string, string>[]) {
      const res = await call('DELETE', '/api/flash/session', { headers });
      expect(res.status).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect((await call('GET', '/api/flash/session', { headers: { cookie: signedIn.cookie } })).status).toBe(200);
    expect((await call('GET', '/api/v2/auth/profile', { token: owner.token })).status).toBe(200);
    const out = await call('DELETE', '/api/flash/session', {
      headers: { origin: inject('baseUrl'), [config.browserSession.csrfHeader]: signedIn.csrf!, cookie: signedIn.cookie },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`^${config.browserSession.cookie}=;.*Max-Age=0`));
  });
});

describe('a JSON route and a body that is not JSON', () => {
  it('text/plain or no Content-Type is a 415 that changes nothing; application/json (with a charset) is read', async () => {
    const owner = await registerAccount('csrf-415');
    const { key } = await createKey(owner.token, { name: 'w', preset: 'write' });
    const count = async () => (await call('GET', '/api/v2/members?limit=200', { token: key })).body.data.length;
    const body = JSON.stringify({ email: 'ada@example.com' });
    for (const contentType of ['text/plain', null, 'application/x-www-form-urlencoded']) {
      const res = await call('POST', '/api/v2/members', { token: key, rawBody: body, contentType });
      expect(res.status, String(contentType)).toBe(415);
      expect(res.body.error).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: expect.stringContaining('send it as JSON with Content-Type: application/json'),
        details: [{ in: 'header', field: 'content-type', message: 'must be application/json' }],
      });
    }
    expect(await count()).toBe(0);
    const profile = await call('PATCH', '/api/v2/auth/profile', {
      token: owner.token,
      rawBody: JSON.stringify({ name: 'Mallory' }),
      contentType: 'text/plain',
    });
    expect(profile.status).toBe(415);
    expect((await call('GET', '/api/v2/auth/profile', { token: owner.token })).body.data.user.name).toBeNull();
    expect((await call('POST', '/api/v2/members', { token: key, rawBody: body, contentType: 'application/json; charset=utf-8' })).status).toBe(201);
    expect(await count()).toBe(1);
  });

  it('the MCP endpoint (JSON-RPC over HTTP) is JSON too', async () => {
    const owner = await registerAccount('csrf-mcp');
    const { key } = await createKey(owner.token, { name: 'r', preset: 'read-only' });
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const res = await call('POST', '/api/mcp', {
      token: key,
      rawBody: ping,
      contentType: 'text/plain',
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
