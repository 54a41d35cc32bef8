import middy from '@middy/core';
import { routeKey, routesOfArea, type Area } from '../../infra/routes';
import { authenticate } from './authenticate';
import { errorMapper } from './error-mapper';
import { jsonBody } from './json-body';
import type { Operation } from './operation';
import { requestContext } from './request-context';
import { toHttpResult } from './responses';
import type { AppContext, HttpEvent, HttpResult } from './types';

export type AreaOperations = Record<string, Operation<any>>;

/**
 * The Lambda handler of one area: the middy chain of ARCHITECTURE.md section 4, dispatching on
 * API Gateway's routeKey. The operations must match the route table's entries for the area
 * exactly; a mismatch fails at cold start (and in the unit tests), never at request time.
 */
export function defineArea(area: Area, operations: AreaOperations) {
  const table = new Map(routesOfArea(area).map((r) => [routeKey(r), r]));
  const missing = [...table.keys()].filter((k) => !operations[k]);
  const extra = Object.keys(operations).filter((k) => !table.has(k));
  if (missing.length || extra.length) {
    throw new Error(`area ${area} disagrees with the route table: missing ${missing.join(', ') || '-'}; extra ${extra.join(', ') || '-'}`);
  }
  const handler = middy<HttpEvent, HttpResult, Error, AppContext>()
    .use(requestContext(area))
    .use(errorMapper())
    .use(authenticate(table))
    .use(jsonBody())
    .handler(async (event, context) => {
      const reply = await operations[event.routeKey]!.run(event, context);
      return toHttpResult(reply, context.requestId);
    });
  return Object.assign(handler, { operations });
}
