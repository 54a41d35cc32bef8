import type { MiddlewareObj, Request } from '@middy/core';
import { config } from '../platform/config';
import type { RouteDef } from '../platform/contract/endpoint';
import { anyWorkspaceAllowsOrigin, workspaceAllowsOrigin } from '../portal';
import { isCorsRoute, preflightRouteKey } from './cors-routes';
import { toHttpResult } from './responses';
import type { AppContext, HttpEvent, HttpResult } from './types';

/** What the member portal embed sends on a consumer route besides simple headers. */
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key'] as const;
/** What its script may read of an answer beyond the simple response headers. */
// The request budget's headers too, so the embed can slow down before it is refused.
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'] as const;

/** The methods of each CORS path of a route table, by the route key of its preflight. */
export function preflightTable(routes: readonly Pick<RouteDef, 'auth' | 'method' | 'path'>[]): ReadonlyMap<string, readonly string[]> {
  const table = new Map<string, string[]>();
  for (const r of routes.filter(isCorsRoute)) table.set(preflightRouteKey(r.path), [...(table.get(preflightRouteKey(r.path)) ?? []), r.method]);
  return table;
}

const originHeader = (event: HttpEvent): string | undefined => event.headers?.origin;

/**
 * CORS for the consumer routes only (docs/security.md). A preflight carries no credential, so it is
 * answered for an origin that any workspace allows; the actual answer carries
 * `Access-Control-Allow-Origin` only when the workspace of its consumer session allows the origin.
 * Anything else gets no CORS header, and the browser keeps the answer from the page.
 */
export function cors(preflights: ReadonlyMap<string, readonly string[]>): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  const allowOnAnswer = async ({ event, context, response }: Request<HttpEvent, HttpResult, Error, AppContext>) => {
    const origin = originHeader(event);
    if (!origin || !response || !context.consumer || !context.route || !isCorsRoute(context.route)) return;
    if (!(await workspaceAllowsOrigin(context.consumer.workspaceId, origin).catch(() => false))) return;
    response.headers = {
      ...response.headers,
      'access-control-allow-origin': origin,
      'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
      vary: 'Origin',
    };
  };
  return {
    before: async ({ event, context }) => {
      const methods = preflights.get(event.routeKey);
      if (!methods) return undefined;
      return preflightAnswer(event, methods, context.requestId);
    },
    after: allowOnAnswer,
    onError: allowOnAnswer,
  };
}

async function preflightAnswer(event: HttpEvent, methods: readonly string[], requestId: string): Promise<HttpResult> {
  const origin = originHeader(event);
  const allowed = origin !== undefined && (await anyWorkspaceAllowsOrigin(origin));
  const headers: Record<string, string> = { vary: 'Origin' };
  if (allowed) {
    Object.assign(headers, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': methods.join(', '),
      'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
      'access-control-max-age': String(config.portal.cors.preflightMaxAgeSeconds),
    });
  }
  return toHttpResult({ status: 204, headers }, requestId);
}
