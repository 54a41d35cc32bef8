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

/**
 * Outermost middleware: request id, the `x-request-id` header and one access log line per request.
 * Log fields are passed per call, not appended to the shared logger, because the local runtime
 * serves concurrent requests from one process.
 */
export function requestContext(area: string): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  const finish = ({ context, response, event }: Request) => {
    if (response) response.headers = { ...response.headers, 'x-request-id': context.requestId };
    logger.info('request', {
      requestId: context.requestId,
      apiRequestId: event.requestContext?.requestId,
      area,
      method: event.requestContext?.http?.method,
      routeKey: event.routeKey,
      status: response?.statusCode,
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
