import type { MiddlewareObj } from '@middy/core';
import { AppError } from '../domain/errors';
import { logger } from './logger';
import { toHttpResult } from './responses';
import type { AppContext, HttpEvent, HttpResult } from './types';

/** Any failure becomes the one error body; unexpected ones are logged in full and shown as a bare 500. */
export function errorMapper(): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    onError: (request) => {
      const err = request.error;
      const requestId = request.context.requestId;
      if (err instanceof AppError) {
        request.response = toHttpResult(
          {
            status: err.status,
            headers: err.headers,
            body: { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}), requestId } },
          },
          requestId,
        );
        return;
      }
      logger.error('unhandled error', err as Error);
      request.response = toHttpResult(
        { status: 500, body: { error: { code: 'INTERNAL', message: 'Internal error', requestId } } },
        requestId,
      );
    },
  };
}
