import type { MiddlewareObj } from '@middy/core';
import { newId } from '../ids';
import { logger } from './logger';
import type { AppContext, HttpEvent, HttpResult } from './types';

/** A caller's own request id is echoed when it is sane; otherwise we mint one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(event: HttpEvent): string {
  const given = event.headers?.['x-request-id'];
  return given && SANE_REQUEST_ID.test(given) ? given : newId('req');
}

/** Outermost middleware: request id, logger context, the `x-request-id` header and one access log line. */
export function requestContext(area: string): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  const finish = (request: { context: AppContext; response: HttpResult | null | undefined; event: HttpEvent }) => {
    const { context, response, event } = request;
    if (response) response.headers = { ...response.headers, 'x-request-id': context.requestId };
    logger.info('request', {
      area,
      method: event.requestContext?.http?.method,
      routeKey: event.routeKey,
      status: response?.statusCode,
      durationMs: Date.now() - context.startedAt,
      workspaceId: context.principal?.workspaceId,
    });
    logger.resetKeys();
  };
  return {
    before: (request) => {
      request.context.requestId = requestIdOf(request.event);
      request.context.startedAt = Date.now();
      logger.appendKeys({ requestId: request.context.requestId });
    },
    after: finish,
    onError: finish,
  };
}
