import middy from '@middy/core';
import { routeKey, routesOfArea, type Area } from '../../infra/routes';
import type { AreaContract } from '../contracts/contract';
import { authenticate } from './authenticate';
import { errorMapper } from './error-mapper';
import { idempotency } from './idempotency';
import { jsonBody } from './json-body';
import { runOperation, type OperationHandler } from './operation';
import { requestContext } from './request-context';
import { toHttpResult } from './responses';
import type { AppContext, HttpEvent, HttpResult } from './types';

export type AreaHandlers<A extends AreaContract> = { [K in keyof A]: OperationHandler<A[K]> };

/**
 * The Lambda handler of one area: the middy chain of ARCHITECTURE.md section 4, dispatching on
 * API Gateway's routeKey. The contract must name exactly the route table's entries for the area;
 * a mismatch fails at cold start (and in the unit tests), never at request time.
 */
export function defineArea<A extends AreaContract>(
  area: Area,
  contract: A,
  handlers: AreaHandlers<A>,
  /** Answers API Gateway's `$default` route (requests no route-table entry matches). */
  fallback?: (event: HttpEvent) => Promise<never>,
) {
  const table = new Map(routesOfArea(area).map((r) => [routeKey(r), r]));
  const keys = Object.keys(contract);
  const missing = [...table.keys()].filter((k) => !keys.includes(k) || !handlers[k]);
  const extra = keys.filter((k) => !table.has(k));
  if (missing.length || extra.length) {
    throw new Error(`area ${area} disagrees with the route table: missing ${missing.join(', ') || '-'}; extra ${extra.join(', ') || '-'}`);
  }
  const handler = middy<HttpEvent, HttpResult, Error, AppContext>()
    .use(requestContext(area))
    .use(errorMapper())
    .use(authenticate(table, fallback !== undefined))
    .use(jsonBody())
    .use(idempotency())
    .handler(async (event, context) => {
      if (event.routeKey === '$default' && fallback) return fallback(event);
      const key = event.routeKey as keyof A & string;
      const reply = await runOperation(contract[key]!, handlers[key], event, context);
      return toHttpResult(reply, context.requestId);
    });
  return Object.assign(handler, { contract });
}
