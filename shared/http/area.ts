import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { config } from '../platform/config/index';
import { secretStoreFromConfig } from '../platform/adapters/secret-store';
import { withStoreDeadline, type StoreScope } from '../platform/data/client';
import { useSecretStore } from '../platform/ports/secrets';
import { outcomeUnknownMessage, RETRY_AFTER_SECONDS } from '../platform/errors/index';
import { withCorrelation } from '../platform/observability/correlation';
import { logger } from '../platform/observability/logger';
import { traced } from '../platform/observability/tracing';
import { routeKey, routesOf, type AreaDeclaration, type Endpoint, type RouteContract } from '../platform/contract/endpoint';
import { authenticate } from './authenticate';
import { sameOriginForCookies } from './browser-session';
import { cors, preflightTable } from './cors';
import { errorBodyOf } from './error-body';
import { errorMapper, sentIdempotencyKey } from './error-mapper';
import { idempotency } from './idempotency';
import { jsonBody } from './json-body';
import { knownOverBudget, requestBudget } from './request-budget';
import { runOperation, type Operation } from './operation';
import { holdAccessLine, requestContext, requestIdOf } from './request-context';
import { toHttpResult, type Reply } from './responses';
import type { AppContext, HttpEvent, HttpResult } from './types';

// Every area function (the MCP server's too) signs the page cursors of its lists with the store's key.
useSecretStore(secretStoreFromConfig);

/** What a handler sees of its endpoint: the schemas, not the path or credentials (twins share a handler). */
type ContractOf<C> = Pick<C, Extract<keyof C, 'body' | 'query' | 'params' | 'responses'>> & RouteContract;

export type AreaHandlers<E extends Record<string, RouteContract>> = { [K in keyof E]: Operation<ContractOf<E[K]>> };

/**
 * The Lambda handler of one area: the middy chain of the HTTP layer, dispatching API Gateway's
 * routeKey to the handler of the operation declared with that method and path. Handlers are keyed
 * by operationId, so the compiler insists on exactly one per declared endpoint.
 */
export function defineArea<N extends string, E extends Record<string, Endpoint>>(
  declaration: AreaDeclaration<N, E>,
  handlers: AreaHandlers<E>,
  /**
   * Answers API Gateway's `$default` route (requests no declared endpoint matches): mostly by
   * throwing (404/405), or with a reply for a path no route can be declared for (a trailing slash).
   */
  fallback?: (event: HttpEvent, context: AppContext) => Promise<Reply>,
) {
  const table = new Map(routesOf(declaration).map((r) => [routeKey(r), r]));
  const replyOf = (operationId: string) => {
    const op = handlers[operationId as keyof E] as Operation<RouteContract> | undefined;
    return op && typeof op !== 'function' ? op.reply : undefined;
  };
  const chain = middy<HttpEvent, HttpResult, Error, AppContext>()
    .use(requestContext(declaration.area))
    // Before the error mapper, so that its onError runs after the mapper made the error answer.
    .use(cors(preflightTable(routesOf(declaration))))
    .use(errorMapper())
    // A credential known here whose workspace already used up this window: refused before it is read.
    .use(knownOverBudget())
    .use(authenticate(table, fallback !== undefined, declaration.access.table === 'readWrite'))
    .use(sameOriginForCookies())
    // A request no endpoint matches is answered (404/405) before its body is read: what the body
    // holds, malformed, too large or too deep, is no business of a route that does not exist.
    .use({
      before: async ({ event, context }) =>
        event.routeKey === '$default' && fallback ? toHttpResult(await fallback(event, context), context.requestId) : undefined,
    })
    // The workspace's request budget: a request over it is refused before its body is read.
    .use(requestBudget(declaration.access.table === 'readWrite'))
    .use(jsonBody())
    .use(idempotency(replyOf))
    .handler(async (event, context) => {
      // authenticate() has resolved the route (an unknown routeKey never gets here).
      const operationId = context.route!.operationId as keyof E & string;
      const reply = await runOperation(declaration.endpoints[operationId]!, handlers[operationId], event, context);
      return toHttpResult(reply, context.requestId);
    });
  // middy's own third argument (its abort signal) is made by middy itself, so only event and context pass.
  const handler = traced((event: HttpEvent, context: Context, _opts?: unknown) => withinDeadline(event, context as AppContext, chain));
  return Object.assign(handler, { declaration, operations: Object.keys(handlers) });
}

/** Time the request still has: the platform's deadline, or less when Lambda's own timeout is nearer. */
export function requestBudgetMs(context: Pick<Context, 'getRemainingTimeInMillis'>): number {
  const lambdaLeft = typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() - 1000 : Infinity;
  return Math.max(0, Math.min(config.http.requestDeadlineMs, lambdaLeft));
}

/** After the deadline the chain gets this long to answer by itself before the last-resort 503. */
const DEADLINE_GRACE_MS = 500;

/** A 503 made here rather than by the error mapper: OUTCOME_UNKNOWN when a write may have been applied. */
function unavailable(unknown: boolean, requestId: string, origin: string | undefined, event: HttpEvent): HttpResult {
  const body = unknown
    ? errorBodyOf({ code: 'OUTCOME_UNKNOWN', message: outcomeUnknownMessage(sentIdempotencyKey(event)), requestId, origin })
    : errorBodyOf({ code: 'SERVICE_UNAVAILABLE', message: 'Temporarily unavailable; retry shortly', requestId, origin });
  const result = toHttpResult({ status: 503, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) }, body }, requestId);
  result.headers = { ...result.headers, 'x-request-id': requestId };
  return result;
}

/**
 * A store whose commit hooks left work for the end of the request (shared/platform/data/commit-hooks.ts:
 * never DynamoDB) gets it done before the answer, so an answer never reports a write the store could
 * still lose. If that fails, what the request wrote is in doubt.
 */
async function settleBeforeAnswer(scope: StoreScope, result: HttpResult, context: AppContext, event: HttpEvent): Promise<HttpResult> {
  const settle = scope.beforeAnswer;
  if (!settle) return result;
  try {
    await settle();
    scope.beforeAnswer = undefined;
    return result;
  } catch (error) {
    logger.warn('the commits of the request could not be confirmed; answering 503 OUTCOME_UNKNOWN', {
      requestId: context.requestId,
      routeKey: event.routeKey,
      status: result.statusCode,
      error: error as Error,
    });
    return unavailable(true, context.requestId, context.origin, event);
  }
}

/**
 * Runs the whole chain, authentication and idempotency lookups included, under the request's
 * deadline: when it passes, every store call still in flight is aborted (the chain then answers 503
 * through the error mapper, or `OUTCOME_UNKNOWN` for an unconfirmed write). Should anything else
 * still hold the chain, a bare 503 answers `DEADLINE_GRACE_MS` later; the caller never waits longer.
 */
export async function withinDeadline(
  event: HttpEvent,
  context: AppContext,
  chain: (event: HttpEvent, context: AppContext) => Promise<HttpResult>,
): Promise<HttpResult> {
  const budget = requestBudgetMs(context);
  const controller = new AbortController();
  const scope: StoreScope = { signal: controller.signal, unsettledWrites: 0, deadlineAt: Date.now() + budget };
  const abortTimer = setTimeout(
    () => controller.abort(Object.assign(new Error(`The request deadline of ${budget} ms passed`), { name: 'TimeoutError' })),
    budget,
  );
  let lastResort: NodeJS.Timeout | undefined;
  const late = new Promise<HttpResult>((resolve) => {
    lastResort = setTimeout(() => {
      // A write still unsettled (or a commit not yet confirmed) may have been applied: say so rather than "not applied".
      const unknown = scope.unsettledWrites > 0 || scope.beforeAnswer !== undefined;
      logger.warn('request deadline passed; answering 503', {
        requestId: context.requestId,
        routeKey: event.routeKey,
        budgetMs: budget,
        unsettledWrites: scope.unsettledWrites,
      });
      resolve(unavailable(unknown, context.requestId, context.origin, event));
    }, budget + DEADLINE_GRACE_MS);
  });
  // The request id is settled here, before the chain, so everything the request causes (outbox
  // items, queue messages, member changes) can carry it as the correlation id.
  context.requestId = requestIdOf(event);
  // The access line is written here, once, for the answer the caller gets: the chain's answer may
  // yet be replaced (an unconfirmed commit, the last-resort 503).
  const access = holdAccessLine(context, event);
  try {
    const answered = withCorrelation(context.requestId, () =>
      withStoreDeadline(scope, async () => settleBeforeAnswer(scope, await chain(event, context), context, event)),
    );
    const result = await Promise.race([answered, late]);
    access.write(result);
    return result;
  } finally {
    clearTimeout(abortTimer);
    clearTimeout(lastResort);
  }
}
