import { describe, expect, it } from 'vitest';
import { config } from '../../../../shared/platform/config';
import type { Principal } from '../../../../shared/platform/contract/principal';
import { idleState } from '../../../../shared/http/credentials';
import {
  acceptsBrowserSession,
  checkBrowserRequest,
  clearedSessionCookie,
  overHttps,
  sessionCookie,
  sessionCookieName,
  sessionCookieOf,
} from '../../../../shared/http/browser-session';
import { originOf } from '../../../../shared/http/origin';
import type { HttpEvent } from '../../../../shared/http/types';

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
  it('over https: __Host-, Secure, HttpOnly, SameSite=Strict, on Path=/, no Domain, for the absolute lifetime', () => {
    expect(sessionCookie('fl_sess_x', true)).toBe(
      `__Host-${COOKIE}=fl_sess_x; Path=/; HttpOnly; SameSite=Strict; Max-Age=${config.browserSession.absoluteSeconds}; Secure`,
    );
    expect(clearedSessionCookie(true)).toBe(`__Host-${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure`);
    expect(sessionCookie('fl_sess_x', true)).not.toMatch(/Domain/i);
  });

  it('over plain http (the local runtime): the bare name, not Secure (a __Host- cookie must be)', () => {
    expect(sessionCookie('fl_sess_x', false)).toBe(`${COOKIE}=fl_sess_x; Path=/; HttpOnly; SameSite=Strict; Max-Age=${config.browserSession.absoluteSeconds}`);
    expect(clearedSessionCookie(false)).toBe(`${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
    expect(sessionCookieName(false)).toBe(COOKIE);
    expect(sessionCookieName(true)).toBe(`__Host-${COOKIE}`);
  });

  it('is Secure unless the caller came over plain http', () => {
    expect(overHttps({ headers: {} })).toBe(true);
    expect(overHttps({ headers: { 'x-forwarded-proto': 'https' } })).toBe(true);
    expect(overHttps({ headers: { 'x-forwarded-proto': 'http' } })).toBe(false);
    expect(overHttps({ headers: { 'x-forwarded-proto': 'http, https' } })).toBe(false);
  });

  it('is read from API Gateway v2 cookies or the Cookie header, by the exact name of the scheme', () => {
    const HOST = `__Host-${COOKIE}`;
    expect(sessionCookieOf({ cookies: ['a=1', `${HOST}=fl_sess_y`], headers: {} })).toBe('fl_sess_y');
    expect(sessionCookieOf({ headers: { cookie: `x${HOST}=no; ${HOST}=fl_sess_z` } })).toBe('fl_sess_z');
    expect(sessionCookieOf({ headers: { cookie: `${HOST}=` } })).toBeUndefined();
    expect(sessionCookieOf({ headers: {} })).toBeUndefined();
    // Over https a bare cookie (which a sibling host could plant) is not the session.
    expect(sessionCookieOf({ headers: { cookie: `${COOKIE}=fl_sess_planted` } })).toBeUndefined();
    expect(sessionCookieOf({ headers: { cookie: `${COOKIE}=fl_sess_planted; ${HOST}=fl_sess_mine` } })).toBe('fl_sess_mine');
    // Over plain http only the bare name exists.
    const http = { 'x-forwarded-proto': 'http' };
    expect(sessionCookieOf({ headers: { ...http, cookie: `${COOKIE}=fl_sess_l` } })).toBe('fl_sess_l');
    expect(sessionCookieOf({ headers: { ...http, cookie: `${HOST}=fl_sess_h` } })).toBeUndefined();
  });

  it('stands in only on routes a user session may call', () => {
    expect(acceptsBrowserSession({ auth: ['adminSession', 'apiKey'] })).toBe(true);
    expect(acceptsBrowserSession({ auth: ['session'] })).toBe(true);
    expect(acceptsBrowserSession({ auth: ['apiKey'] })).toBe(false);
    expect(acceptsBrowserSession({ auth: ['consumer'] })).toBe(false);
  });
});

describe('a cookie-authenticated request', () => {
  // Against the request's own origin, as the HTTP layer works it out once per request.
  const check = (e: HttpEvent, p: Principal) => checkBrowserRequest(e, p, originOf(e));
  it('reads freely; a write needs our own Origin and the exact CSRF token', () => {
    expect(() => check(event('GET'), browser)).not.toThrow();
    const good = { origin: 'https://console.example.com', [CSRF]: 'c'.repeat(43) };
    expect(() => check(event('POST', good), browser)).not.toThrow();
    expect(() => check(event('POST', { ...good, origin: 'https://evil.example' }), browser)).toThrow(/Origin/);
    expect(() => check(event('PATCH', { [CSRF]: good[CSRF] }), browser)).toThrow(/Origin/);
    expect(() => check(event('DELETE', { origin: good.origin }), browser)).toThrow(/CSRF/);
    expect(() => check(event('PUT', { ...good, [CSRF]: 'c'.repeat(42) }), browser)).toThrow(/CSRF/);
    expect(() => check(event('POST', { ...good, [CSRF]: `${'c'.repeat(42)}d` }), browser)).toThrow(/CSRF/);
  });

  it('must be a browser session (a bearer session or an API key in the cookie is refused)', () => {
    const { browser: _b, ...bearer } = browser as Extract<Principal, { kind: 'session' }>;
    expect(() => check(event('GET'), bearer)).toThrow(/credential/);
    expect(() => check(event('GET'), { kind: 'apiKey', workspaceId: 'ws', keyId: 'k', scopes: [] })).toThrow(/credential/);
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
