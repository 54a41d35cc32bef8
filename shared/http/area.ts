import middy from '@middy/core';
import { routeKey, routesOf, type AreaDeclaration, type Endpoint } from '../contracts/endpoint';
import { authenticate } from './authenticate';
import { errorMapper } from './error-mapper';
import { idempotency } from './idempotency';
import { jsonBody } from './json-body';
import { runOperation, type Operation } from './operation';
import { requestContext } from './request-context';
import { toHttpResult } from './responses';
import type { AppContext, HttpEvent, HttpResult } from './types';

export type AreaHandlers<E extends Record<string, Endpoint>> = { [K in keyof E]: Operation<E[K]> };

/**
 * The Lambda handler of one area: the middy chain of the HTTP layer, dispatching API Gateway's
 * routeKey to the handler of the operation declared with that method and path. Handlers are keyed
 * by operationId, so the compiler insists on exactly one per declared endpoint.
 */
export function defineArea<N extends string, E extends Record<string, Endpoint>>(
  declaration: AreaDeclaration<N, E>,
  handlers: AreaHandlers<E>,
  /** Answers API Gateway's `$default` route (requests no declared endpoint matches). */
  fallback?: (event: HttpEvent) => Promise<never>,
) {
  const table = new Map(routesOf(declaration).map((r) => [routeKey(r), r]));
  const replyOf = (operationId: string) => {
    const op = handlers[operationId as keyof E] as Operation<Endpoint> | undefined;
    return op && typeof op !== 'function' ? op.reply : undefined;
  };
  const handler = middy<HttpEvent, HttpResult, Error, AppContext>()
    .use(requestContext(declaration.area))
    .use(errorMapper())
    .use(authenticate(table, fallback !== undefined))
    .use(jsonBody())
    .use(idempotency(replyOf))
    .handler(async (event, context) => {
      if (event.routeKey === '$default' && fallback) return fallback(event);
      // authenticate() has resolved the route (an unknown routeKey never gets here).
      const operationId = context.route!.operationId as keyof E & string;
      const reply = await runOperation(declaration.endpoints[operationId]!, handlers[operationId], event, context);
      return toHttpResult(reply, context.requestId);
    });
  return Object.assign(handler, { declaration, operations: Object.keys(handlers) });
}
