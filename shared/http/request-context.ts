import type { MiddlewareObj } from '@middy/core';
import { newId } from '../ids';
import { logger } from '../observability/logger';
import { originOf } from './origin';
import type { AppContext, HttpEvent, HttpResult } from './types';

/** A caller's own request id is echoed when it is sane; otherwise we mint one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(event: Pick<HttpEvent, 'headers'>): string {
  const given = event.headers?.['x-request-id'];
  return given && SANE_REQUEST_ID.test(given) ? given : newId('req');
}

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

/** The access line: one per request, its shape declared once (the local HTTP adapter writes it too). */
export interface AccessLine {
  requestId: string;
  apiRequestId?: string;
  area?: string;
  method?: string;
  routeKey?: string;
  /** The path as called (the route key has the template); never the query string. */
  path?: string;
  status?: number;
  /** The `code` of an error answer. */
  errorCode?: string;
  durationMs: number;
  workspaceId?: string;
}

export const logAccess = (line: AccessLine): void => logger.info('request', { ...line });

/**
 * Outermost middleware: request id, the `x-request-id` header and one access log line per request.
 * Log fields are passed per call, not appended to the shared logger, because the local runtime
 * serves concurrent requests from one process.
 */
export function requestContext(area: string): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  const finish = ({ context, response, event }: Request) => {
    if (response) response.headers = { ...response.headers, 'x-request-id': context.requestId };
    logAccess({
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
  };
  return {
    before: ({ context, event }) => {
      context.requestId = requestIdOf(event);
      context.startedAt = Date.now();
      context.origin = originOf(event);
    },
    after: finish,
    onError: finish,
  };
}
