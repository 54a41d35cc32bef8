import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { mcpArea } from './contract';
import { routeKey, routesOf, type RouteDef } from '../platform/contract/endpoint';
import { SCOPES } from '../platform/contract/scopes';
import { resolveBearer } from '../http/credentials';
import { AppError, badRequest } from '../platform/errors';
import { requestBudgetMs, withinDeadline } from '../http/area';
import { authorizationOf } from '../http/authenticate';
import { errorMapper } from '../http/error-mapper';
import { jsonBody } from '../http/json-body';
import { knownOverBudget, requestBudget } from '../http/request-budget';
import { requestContext } from '../http/request-context';
import { toHttpResult } from '../http/responses';
import { traced } from '../platform/observability/tracing';
import type { AppContext, HttpEvent, HttpResult } from '../http/types';
import { config } from '../platform/config';
import { storeScope } from '../platform/data/client';
import { auditMessages, auditRefusedBatch, messagesOf } from './audit';
import { refuseTooManyWrites, withinBudget } from './batch';
import type { ApiKeyPrincipal } from './registry';
import { toolScopes } from './server';
import type { McpRequestState } from './state';
import { sdkRequest, serveMcp, toResult } from './transport';

/**
 * The `mcp` area's Lambda handler: the HTTP conventions of the API (request id, body limit and
 * depth, error shape, deadline) around the MCP transport. Authentication is its own step: the MCP
 * authorization spec wants a 401 with a `WWW-Authenticate: Bearer` challenge pointing at the
 * protected-resource metadata for anything that is not a valid API key (sessions included).
 */

/** Both paths from the declaration (shared/mcp/contract.ts), like every route. */
const MCP_PATH = mcpArea.endpoints.callMcp.path;
const METADATA_PATH = mcpArea.endpoints.getMcpProtectedResourceMetadata.path;

/** Scheme and host the caller used (the request's `originOf`, `context.origin`); API Gateway's own domain when the Host header is unusable. */
export const baseUrlOf = (event: HttpEvent, context: Pick<AppContext, 'origin'>): string => context.origin ?? `https://${event.requestContext.domainName}`;

export function protectedResourceMetadata(base: string) {
  return {
    resource: `${base}${MCP_PATH}`,
    resource_name: 'Loyalty platform MCP server',
    bearer_methods_supported: ['header'],
    scopes_supported: SCOPES.filter((s) => toolScopes().includes(s)),
    resource_documentation: `${base}/api/v2/openapi.json`,
  };
}

const bearerOf = (event: HttpEvent): string | undefined => authorizationOf(event)?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];

function challenged(event: HttpEvent, context: AppContext, message: string, invalidToken: boolean): AppError {
  const params = [`resource_metadata="${baseUrlOf(event, context)}${METADATA_PATH}"`];
  // RFC 6750: no error code when the request carried no credential at all.
  if (invalidToken) params.unshift('error="invalid_token"', `error_description="${message}"`);
  return new AppError('UNAUTHENTICATED', message, undefined, { 'www-authenticate': `Bearer ${params.join(', ')}` });
}

/** API keys only; everything else, sessions included, is a 401 with the challenge. */
function mcpAuthentication(routes: ReadonlyMap<string, RouteDef>): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    before: async ({ event, context }) => {
      const route = routes.get(event.routeKey);
      if (!route) throw new Error(`route ${event.routeKey} is not in the route table`);
      context.route = route;
      if (route.auth.includes('public')) return;
      const token = bearerOf(event);
      if (!token) throw challenged(event, context, 'Missing credential: send Authorization: Bearer <API key>', false);
      let principal: Awaited<ReturnType<typeof resolveBearer>>;
      try {
        principal = await resolveBearer(token);
      } catch (error) {
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') throw challenged(event, context, 'Missing or invalid credential', true);
        throw error;
      }
      if (principal.kind !== 'apiKey')
        throw challenged(event, context, 'The MCP server takes a workspace API key (fl_live_... or fl_test_...), not a session', true);
      context.principal = principal;
    },
  };
}

async function callMcp(event: HttpEvent, context: AppContext): Promise<HttpResult> {
  if (!context.hasBody) throw badRequest('A JSON body is required');
  const principal = context.principal as ApiKeyPrincipal;
  const state: McpRequestState = {
    ctx: { principal, workspaceId: principal.workspaceId, requestId: context.requestId, origin: context.origin },
    outcomes: new Map(),
  };
  const body = context.body;
  if (Array.isArray(body) && body.length > config.mcp.maxBatchMessages) {
    await auditRefusedBatch(state, Date.now() - context.startedAt);
    throw badRequest(`MCP: Invalid Request: a batch may carry at most ${config.mcp.maxBatchMessages} messages`);
  }
  const messages = messagesOf(body);
  // Calls still running when only the audit's reserve is left answer OUTCOME_UNKNOWN, so that every
  // call is audited before the deadline aborts the request's store calls.
  const deadlineAt = storeScope()?.deadlineAt ?? context.startedAt + requestBudgetMs(context);
  const budgetMs = deadlineAt - Date.now() - config.mcp.auditReserveMs;
  const answer =
    refuseTooManyWrites(body, messages) ??
    (await withinBudget(serveMcp(sdkRequest(`${baseUrlOf(event, context)}${MCP_PATH}`, event.headers ?? {}, body), body, state), state, messages, budgetMs));
  await auditMessages(state, messages, answer, Date.now() - context.startedAt);
  return toResult(answer, context.requestId, context.origin);
}

export function mcpHandler() {
  const routes = new Map(routesOf(mcpArea).map((r) => [routeKey(r), r]));
  const chain = middy<HttpEvent, HttpResult, Error, AppContext>()
    .use(requestContext(mcpArea.area))
    .use(errorMapper())
    .use(knownOverBudget())
    .use(mcpAuthentication(routes))
    // The workspace's request budget, as in every area: a JSON-RPC POST counts as one write request.
    .use(requestBudget())
    // Numbers are checked per tool call (a JSON-RPC error per message), not for the whole body.
    .use(jsonBody(undefined, undefined, false))
    .handler(async (event, context) => {
      if (context.route!.operationId === 'callMcp') return callMcp(event, context);
      return toHttpResult({ status: 200, body: protectedResourceMetadata(baseUrlOf(event, context)) }, context.requestId);
    });
  const handler = traced((event: HttpEvent, context: Context, _opts?: unknown) => withinDeadline(event, context as AppContext, chain));
  return Object.assign(handler, { declaration: mcpArea, operations: Object.keys(mcpArea.endpoints) });
}
