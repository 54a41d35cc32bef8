import type { MiddlewareObj } from '@middy/core';
import { newId } from '../platform/ids';
import { logger } from '../platform/observability/logger';
import { emitMetric } from '../platform/observability/metrics';
import { edgeSecrets, originOf } from './origin';
import type { AccessLine, AppContext, HttpEvent, HttpResult } from './types';

/** A caller's own request id is echoed when it is sane; otherwise we mint one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(event: Pick<HttpEvent, 'headers'>): string {
  const given = event.headers?.['x-request-id'];
  return given && SANE_REQUEST_ID.test(given) ? given : newId('req');
}

/** The outcome class of a status, the `outcome` dimension of `ApiRequests` (a 1xx/3xx counts with 2xx: not an error). */
export const outcomeClassOf = (status: number | undefined): '2xx' | '4xx' | '5xx' =>
  status === undefined || status >= 500 ? '5xx' : status >= 400 ? '4xx' : '2xx';

type Request = { context: AppContext; response: HttpResult | null | undefined; event: HttpEvent };

/** The `code` of an error answer (the one error body), so the access line says which error it was. */
export function errorCodeOf(response: HttpResult | null | undefined): string | undefined {
  if (!response || (response.statusCode ?? 200) < 400 || typeof response.body !== 'string' || response.isBase64Encoded) return undefined;
  try {
    const code = (JSON.parse(response.body) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

export const logAccess = (line: AccessLine): void => logger.info('request', { ...line });

/**
 * Holds the chain's access line until the caller's answer is known, then writes it once with that
 * answer's status and error code (a 503 `OUTCOME_UNKNOWN` that replaced the chain's answer is
 * logged as such). A request answered before the chain wrote its line still gets one.
 */
export function holdAccessLine(context: AppContext, event: HttpEvent): { write(result: HttpResult): void } {
  const since = Date.now();
  let held: AccessLine | undefined;
  let written = false;
  context.holdAccessLine = (line) => {
    if (!written) held = line;
  };
  return {
    write(result) {
      if (written) return;
      written = true;
      const line = held ?? {
        requestId: context.requestId,
        method: event.requestContext?.http?.method,
        routeKey: event.routeKey,
        path: event.rawPath,
        durationMs: 0,
      };
      logAccess({ ...line, status: result.statusCode, errorCode: errorCodeOf(result), durationMs: Date.now() - (context.startedAt || since) });
    },
  };
}

/**
 * Outermost middleware: request id, the `x-request-id` header and one access log line per request.
 * Log fields are passed per call, not appended to the shared logger, because the local runtime
 * serves concurrent requests from one process.
 */
export function requestContext(area: string): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  const finish = ({ context, response, event }: Request) => {
    if (response) response.headers = { ...response.headers, 'x-request-id': context.requestId };
    (context.holdAccessLine ?? logAccess)({
      requestId: context.requestId,
      apiRequestId: event.requestContext?.requestId,
      area,
      method: event.requestContext?.http?.method,
      routeKey: event.routeKey,
      path: event.rawPath,
      status: response?.statusCode,
      errorCode: errorCodeOf(response),
      durationMs: Date.now() - context.startedAt,
      workspaceId: context.principal?.workspaceId,
    });
    // A request no declared endpoint matches (404/405) counts under one name, not its path.
    emitMetric('apiRequests', 1, { operation: context.route?.operationId ?? 'unmatched', outcome: outcomeClassOf(response?.statusCode) });
  };
  return {
    before: async ({ context, event }) => {
      // Usually settled already by `withinDeadline` (which makes it the correlation id).
      context.requestId ||= requestIdOf(event);
      context.startedAt = Date.now();
      // Once per request; everything after reads `context.origin`.
      context.origin = originOf(event, await edgeSecrets());
    },
    after: finish,
    onError: finish,
  };
}
