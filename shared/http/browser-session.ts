import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { config } from '../platform/config/index';
import type { AuthKind, RouteDef } from '../platform/contract/endpoint';
import type { Principal } from '../platform/contract/principal';
import { forbidden, unauthenticated } from '../platform/errors/index';
import { fromForeignPage, schemeOf } from './origin';
import type { AppContext, HttpEvent, HttpResult } from './types';

/**
 * The console's browser session: an HttpOnly cookie rather than a bearer token in browser storage.
 * Only routes a user session may call accept it (never an API-key route), and a write made with it
 * must also prove it comes from our own pages: the `Origin` the browser sets, and the session's CSRF
 * token in a header that a page of another origin cannot send without a CORS grant we never give.
 */

const { cookie: COOKIE, csrfHeader: CSRF_HEADER } = config.browserSession;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SESSION_KINDS: readonly AuthKind[] = ['session', 'adminSession'];

/**
 * The cookie's name: over https `__Host-` + the name, which a browser keeps only when it is Secure,
 * on Path=/ and without a Domain, so no sibling subdomain or plain-http page can set or overwrite
 * it; over plain http (the local runtime) the bare name, as such a cookie cannot be Secure.
 */
export const sessionCookieName = (secure: boolean): string => (secure ? `__Host-${COOKIE}` : COOKIE);

/**
 * The session cookie's token, when the request carries one (API Gateway v2 moves cookies out of the
 * headers). Only the name of the scheme the request came over counts: over https a bare
 * `loyalty_session` is ignored, as anyone on a sibling host could have planted it.
 */
export function sessionCookieOf(event: Pick<HttpEvent, 'cookies' | 'headers'>): string | undefined {
  const name = sessionCookieName(overHttps(event));
  const pairs = event.cookies ?? event.headers?.cookie?.split(/;\s*/) ?? [];
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/** Whether the route takes a user session, so that the cookie may stand in for the bearer token. */
export const acceptsBrowserSession = (route: Pick<RouteDef, 'auth'>): boolean => route.auth.some((k) => SESSION_KINDS.includes(k));

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A cookie-authenticated request: a browser session, and for a write our own origin (`own`, the request's `originOf`) and the session's CSRF token. */
export function checkBrowserRequest(event: HttpEvent, principal: Principal, own: string | undefined): void {
  if (principal.kind !== 'session' || !principal.browser) throw unauthenticated('Missing or invalid credential');
  if (SAFE_METHODS.has(event.requestContext.http.method)) return;
  const origin = event.headers?.origin;
  if (!origin || origin !== own) {
    throw forbidden('A write with the session cookie must come from the console: its Origin header is missing or another site');
  }
  const token = event.headers?.[CSRF_HEADER];
  if (!token || !sameText(token, principal.browser.csrfToken)) {
    throw forbidden(`A write with the session cookie needs the session's CSRF token in ${CSRF_HEADER}`);
  }
}

/**
 * Set-Cookie for a new browser session: HttpOnly, SameSite=Strict, Path=/, never a Domain; over
 * https `__Host-`-named and Secure, over plain http (local) neither.
 */
export function sessionCookie(token: string, secure: boolean): string {
  return `${sessionCookieName(secure)}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${config.browserSession.absoluteSeconds}${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the session cookie (signing out). */
export const clearedSessionCookie = (secure: boolean): string =>
  `${sessionCookieName(secure)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;

/**
 * Refuses a request to a route that sets the session cookie (`setsCookie`) when a browser sends it
 * from a page of another origin: otherwise any site could post its own credentials to the sign-in
 * and have the visitor work in the attacker's console (login CSRF), or sign the visitor out.
 * After authenticate(), which resolves the route; before the body is read.
 */
export function sameOriginForCookies(): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    before: ({ event, context }) => {
      if (context.route?.setsCookie && fromForeignPage(event, context.origin)) {
        throw forbidden('This request comes from a page of another site: sign in to the console from its own page');
      }
    },
  };
}

/** Whether the caller reached us over https (API Gateway and CloudFront always; the local server says http). */
export const overHttps = (event: Pick<HttpEvent, 'headers'>): boolean => schemeOf(event) === 'https';
