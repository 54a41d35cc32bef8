import type { MiddlewareObj } from '@middy/core';
import type { AuthKind, RouteDef } from '../platform/contract/endpoint';
import { resolveBearer } from './credentials';
import type { Principal } from '../platform/contract/principal';
import { missingPermission, roleMay } from '../platform/contract/permissions';
import { AppError, forbidden, mfaEnrolmentRequired, unauthenticated } from '../platform/errors';
import { isConsumerToken, resolveConsumerSession } from '../portal';
import { acceptsBrowserSession, checkBrowserRequest, sessionCookieOf } from './browser-session';
import type { AppContext, HttpEvent, HttpResult } from './types';

/**
 * Several Authorization headers, as they arrive joined with commas (API Gateway and the local server
 * alike): a comma followed by another `<scheme> <credential>`. A comma inside one credential
 * (`Bearer a,b`) is no such thing: that is a malformed credential, a 401 like any other.
 */
const SEVERAL = /,\s*[A-Za-z][\w.+-]*\s+\S/;

/** The request's one Authorization header; several are a 400 (which one to use would be a guess). */
export function authorizationOf(event: HttpEvent): string | undefined {
  const header = event.headers?.authorization;
  if (header !== undefined && SEVERAL.test(header)) {
    throw new AppError('BAD_REQUEST', 'Send one Authorization header, not several', [{ in: 'header', field: 'authorization', message: 'sent more than once' }]);
  }
  return header;
}

const bearerOf = (event: HttpEvent): string | undefined => authorizationOf(event)?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];

const CREDENTIAL_NAMES: Record<AuthKind, string> = {
  apiKey: 'an API key',
  apiKeyPerTool: 'an API key',
  session: 'a user session',
  adminSession: 'a user session',
  consumer: 'a consumer session',
  applePass: 'an ApplePass token',
  public: 'nothing',
};

/**
 * Applies the route table's auth kinds, scope and permission to the resolved principal. A route
 * for console sessions that declares no permission admits no session at all.
 */
export function authorize(route: RouteDef, principal: Principal): void {
  const accepts = route.auth;
  if (principal.kind === 'apiKey') {
    // Any key passes here; the operation checks the scope of each tool it runs.
    if (accepts.includes('apiKeyPerTool')) return;
    if (!accepts.includes('apiKey')) {
      throw forbidden(`This endpoint needs ${accepts.map((k) => CREDENTIAL_NAMES[k]).join(' or ')}, not an API key`);
    }
    if (route.scope && !principal.scopes.includes(route.scope)) {
      throw new AppError('FORBIDDEN', `This API key lacks the scope ${route.scope}`, [
        { in: 'header', field: 'authorization', message: `missing scope ${route.scope}` },
      ]);
    }
    return;
  }
  if (principal.mustEnrolMfa && !route.enrolment) throw mfaEnrolmentRequired();
  if (accepts.includes('session')) return;
  if (accepts.includes('adminSession')) {
    if (!route.permission) throw forbidden('This endpoint declares no permission a role could hold');
    if (!roleMay(principal.role, route.permission)) throw missingPermission(principal.role, route.permission);
    return;
  }
  throw forbidden(`This endpoint needs ${accepts.map((k) => CREDENTIAL_NAMES[k]).join(' or ')}, not a user session`);
}

/** Resolves the bearer credential for routes that need one and enforces kind, role and scope. */
export function authenticate(
  routes: ReadonlyMap<string, RouteDef>,
  hasFallback = false,
  /** Whether the area may write the table: a read-only area (the audit trail) stamps no key's lastUsedAt. */
  writes = true,
): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    before: async (request) => {
      if (hasFallback && request.event.routeKey === '$default') return;
      const route = routes.get(request.event.routeKey);
      if (!route) throw new Error(`route ${request.event.routeKey} is not in the route table`);
      request.context.route = route;
      authorizationOf(request.event);
      if (route.auth.includes('public')) return;
      // The pass web service checks `Authorization: ApplePass <token>` against the pass it names.
      if (route.auth.includes('applePass')) return;
      const bearer = bearerOf(request.event);
      const cookie = bearer || !acceptsBrowserSession(route) ? undefined : sessionCookieOf(request.event);
      const token = bearer ?? cookie;
      if (!token) throw unauthenticated('Missing credential: send Authorization: Bearer <token>');
      if (isConsumerToken(token)) {
        // Resolved first either way: an invalid one is a 401, a valid one on another route a 403.
        const consumer = await resolveConsumerSession(token, new Date(), route.auth.includes('consumer'));
        if (!route.auth.includes('consumer')) {
          throw forbidden(`This endpoint needs ${route.auth.map((k) => CREDENTIAL_NAMES[k]).join(' or ')}, not a consumer session`);
        }
        request.context.consumer = consumer;
        return;
      }
      const principal = await resolveBearer(token, new Date(), { stampLastUsed: writes });
      if (cookie) checkBrowserRequest(request.event, principal, request.context.origin);
      request.context.principal = principal;
      authorize(route, principal);
    },
  };
}
