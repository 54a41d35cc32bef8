import { describe, expect, it } from 'vitest';
import { config } from '../../shared/config';
import type { Principal } from '../../shared/domain/auth/principal';
import { idleState } from '../../shared/domain/auth/credentials';
import { acceptsBrowserSession, checkBrowserRequest, clearedSessionCookie, overHttps, sessionCookie, sessionCookieOf } from '../../shared/http/browser-session';
import type { HttpEvent } from '../../shared/http/types';

const { cookie: COOKIE, csrfHeader: CSRF, idleSeconds, seenResolutionSeconds } = config.browserSession;
const browser: Principal = {
  kind: 'session',
  workspaceId: 'ws',
  userId: 'usr',
  role: 'owner',
  tokenHash: 'h',
  expiresAt: 1,
  browser: { csrfToken: 'c'.repeat(43), idleExpiresAt: 1 },
};
const event = (method: string, headers: Record<string, string> = {}): HttpEvent =>
  ({ headers: { host: 'console.example.com', ...headers }, requestContext: { http: { method } } }) as unknown as HttpEvent;

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict, on Path=/, for the absolute lifetime; Secure only when asked', () => {
    expect(sessionCookie('fl_sess_x', true)).toBe(
      `${COOKIE}=fl_sess_x; Path=/; HttpOnly; SameSite=Strict; Max-Age=${config.browserSession.absoluteSeconds}; Secure`,
    );
    expect(sessionCookie('fl_sess_x', false)).not.toContain('Secure');
    expect(clearedSessionCookie(true)).toBe(`${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure`);
  });

  it('is Secure unless the caller came over plain http', () => {
    expect(overHttps({ headers: {} })).toBe(true);
    expect(overHttps({ headers: { 'x-forwarded-proto': 'https' } })).toBe(true);
    expect(overHttps({ headers: { 'x-forwarded-proto': 'http' } })).toBe(false);
    expect(overHttps({ headers: { 'x-forwarded-proto': 'http, https' } })).toBe(false);
  });

  it('is read from API Gateway v2 cookies or the Cookie header, by exact name', () => {
    expect(sessionCookieOf({ cookies: ['a=1', `${COOKIE}=fl_sess_y`], headers: {} })).toBe('fl_sess_y');
    expect(sessionCookieOf({ headers: { cookie: `x${COOKIE}=no; ${COOKIE}=fl_sess_z` } })).toBe('fl_sess_z');
    expect(sessionCookieOf({ headers: { cookie: `${COOKIE}=` } })).toBeUndefined();
    expect(sessionCookieOf({ headers: {} })).toBeUndefined();
  });

  it('stands in only on routes a user session may call', () => {
    expect(acceptsBrowserSession({ auth: ['adminSession', 'apiKey'] })).toBe(true);
    expect(acceptsBrowserSession({ auth: ['session'] })).toBe(true);
    expect(acceptsBrowserSession({ auth: ['apiKey'] })).toBe(false);
    expect(acceptsBrowserSession({ auth: ['consumer'] })).toBe(false);
  });
});

describe('a cookie-authenticated request', () => {
  it('reads freely; a write needs our own Origin and the exact CSRF token', () => {
    expect(() => checkBrowserRequest(event('GET'), browser)).not.toThrow();
    const good = { origin: 'https://console.example.com', [CSRF]: 'c'.repeat(43) };
    expect(() => checkBrowserRequest(event('POST', good), browser)).not.toThrow();
    expect(() => checkBrowserRequest(event('POST', { ...good, origin: 'https://evil.example' }), browser)).toThrow(/Origin/);
    expect(() => checkBrowserRequest(event('PATCH', { [CSRF]: good[CSRF] }), browser)).toThrow(/Origin/);
    expect(() => checkBrowserRequest(event('DELETE', { origin: good.origin }), browser)).toThrow(/CSRF/);
    expect(() => checkBrowserRequest(event('PUT', { ...good, [CSRF]: 'c'.repeat(42) }), browser)).toThrow(/CSRF/);
    expect(() => checkBrowserRequest(event('POST', { ...good, [CSRF]: `${'c'.repeat(42)}d` }), browser)).toThrow(/CSRF/);
  });

  it('must be a browser session (a bearer session or an API key in the cookie is refused)', () => {
    const { browser: _b, ...bearer } = browser as Extract<Principal, { kind: 'session' }>;
    expect(() => checkBrowserRequest(event('GET'), bearer)).toThrow(/credential/);
    expect(() => checkBrowserRequest(event('GET'), { kind: 'apiKey', workspaceId: 'ws', keyId: 'k', scopes: [] })).toThrow(/credential/);
  });
});

describe('the idle limit', () => {
  const at = (s: number) => new Date(s * 1000);
  it('ends the session once no request came for idleSeconds', () => {
    expect(idleState({ csrfToken: 'c', lastSeenAt: 1000 }, at(1000 + idleSeconds - 1)).expired).toBe(false);
    expect(idleState({ csrfToken: 'c', lastSeenAt: 1000 }, at(1000 + idleSeconds)).expired).toBe(true);
  });

  it('stamps the last-seen time at most once per resolution, and the limit counts from what is stored', () => {
    expect(idleState({ csrfToken: 'c', lastSeenAt: 1000 }, at(1000 + seenResolutionSeconds - 1))).toEqual({
      expired: false,
      stamp: false,
      seenAt: 1000 + seenResolutionSeconds - 1,
      lastSeenAt: 1000,
    });
    expect(idleState({ csrfToken: 'c', lastSeenAt: 1000 }, at(1000 + seenResolutionSeconds))).toEqual({
      expired: false,
      stamp: true,
      seenAt: 1000 + seenResolutionSeconds,
      lastSeenAt: 1000 + seenResolutionSeconds,
    });
  });
});
