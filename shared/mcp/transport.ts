import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server';
import { logger } from '../platform/observability/logger';
import { errorBodyOf } from '../http/error-body';
import { toHttpResult } from '../http/responses';
import type { HttpResult } from '../http/types';
import { buildServer } from './server';
import type { McpRequestState } from './state';

/**
 * Serving one HTTP request with the SDK, statelessly and always with a JSON answer. 2026-era
 * requests (the per-request envelope) go to the SDK's `createMcpHandler` in `json` mode; 2025-era
 * ones (initialize handshake, the default of today's clients) to a per-request Streamable HTTP
 * transport with `enableJsonResponse` (the SDK's own legacy fallback would answer them with SSE).
 * Both build the same server over the same registry from the request's state.
 */

// The instance of the container; the per-request state travels in authInfo (the SDK passes it through).
let modern: ReturnType<typeof createMcpHandler> | undefined;
const modernHandler = () =>
  (modern ??= createMcpHandler((ctx) => buildServer(stateOf(ctx.authInfo)), {
    legacy: 'reject',
    responseMode: 'json',
    onerror: (error) => logger.debug('MCP request refused by the protocol layer', { error: error.message }),
  }));

const stateOf = (auth: AuthInfo | undefined): McpRequestState => {
  const state = auth?.extra?.state as McpRequestState | undefined;
  if (!state) throw new Error('MCP request without its state');
  return state;
};

const authInfoOf = (state: McpRequestState): AuthInfo => ({
  token: state.ctx.principal.keyId,
  clientId: state.ctx.principal.keyId,
  scopes: [...state.ctx.principal.scopes],
  extra: { state },
});

async function serveLegacy(request: Request, parsedBody: unknown, state: McpRequestState): Promise<Response> {
  const server = buildServer(state);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody, authInfo: authInfoOf(state) });
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

/**
 * The request as the SDK reads it. The chain has already refused a body that is not JSON (415, as
 * everywhere in this API) and every answer is JSON, so Content-Type and Accept are set here rather
 * than left to what the caller sent (a `+json` type or an Accept without SSE).
 */
export function sdkRequest(url: string, headers: Record<string, string | undefined>, body: unknown): Request {
  const forwarded = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || ['authorization', 'cookie', 'content-length', 'content-type', 'accept', 'host'].includes(name)) continue;
    forwarded.set(name, value);
  }
  forwarded.set('content-type', 'application/json');
  forwarded.set('accept', 'application/json, text/event-stream');
  return new Request(url, { method: 'POST', headers: forwarded, body: JSON.stringify(body) });
}

/**
 * `subscriptions/listen` (2026-07-28) is answered by the SDK with an SSE stream meant to stay open
 * for change notifications, whatever the response mode: a stateless function answering with one
 * JSON body cannot hold one, and the server announces no list changes anyway. It is refused as an
 * unknown method, in JSON.
 */
const LISTEN = 'subscriptions/listen';
function refuseListen(body: unknown): { status: number; contentType: string; body: string } | undefined {
  const messages = Array.isArray(body) ? body : [body];
  const listens = messages.filter((m) => (m as { method?: unknown } | null)?.method === LISTEN) as { id?: unknown }[];
  if (listens.length === 0) return undefined;
  const error = (id: unknown) => ({
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code: -32601, message: `Method not found: ${LISTEN} (this server is stateless and keeps no streams)` },
  });
  const answer = Array.isArray(body) ? listens.map((m) => error(m.id)) : error(listens[0]!.id);
  return { status: 200, contentType: 'application/json', body: JSON.stringify(answer) };
}

export async function serveMcp(
  request: Request,
  parsedBody: unknown,
  state: McpRequestState,
): Promise<{ status: number; contentType: string | null; body: string }> {
  const refused = refuseListen(parsedBody);
  if (refused) return refused;
  const response = (await isLegacyRequest(request.clone(), parsedBody))
    ? await serveLegacy(request, parsedBody, state)
    : await modernHandler().fetch(request, { authInfo: authInfoOf(state), parsedBody });
  return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
}

/**
 * The SDK's answer as the HTTP result. A JSON-RPC answer (200) passes as is; an HTTP-level refusal
 * of the protocol layer (a 4xx before any method ran) gets the API's error shape with the
 * protocol's message, and a 5xx a bare INTERNAL (never internals).
 */
export function toResult(answer: { status: number; contentType: string | null; body: string }, requestId: string, origin?: string): HttpResult {
  if (answer.status >= 500) {
    logger.error('MCP request failed in the protocol layer', { requestId, status: answer.status });
    return toHttpResult({ status: 500, body: errorBodyOf({ code: 'INTERNAL', message: 'Internal error', requestId, origin }) }, requestId);
  }
  if (answer.status >= 400) {
    const message = protocolMessage(answer.body) ?? 'The MCP request was refused';
    return toHttpResult({ status: 400, body: errorBodyOf({ code: 'BAD_REQUEST', message: `MCP: ${message}`, requestId, origin }) }, requestId);
  }
  if (!answer.body) return toHttpResult({ status: answer.status }, requestId);
  const result = toHttpResult({ status: answer.status, body: null }, requestId);
  return { ...result, headers: { ...result.headers, 'content-type': answer.contentType ?? 'application/json' }, body: answer.body };
}

function protocolMessage(body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? message.slice(0, 500) : undefined;
  } catch {
    return undefined;
  }
}
