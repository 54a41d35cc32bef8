import type { MiddlewareObj } from '@middy/core';
import { isItemTooLarge, isTransientDependencyError } from '../platform/data/errors';
import { AppError, outcomeUnknownMessage, RETRY_AFTER_SECONDS, tooLargeToStore } from '../platform/errors';
import { logger } from '../platform/observability/logger';
import { errorBodyOf } from './error-body';
import { toHttpResult } from './responses';
import type { AppContext, HttpEvent, HttpResult } from './types';

/** Whether the request carried an `Idempotency-Key` header (so may be retried with it). */
export const sentIdempotencyKey = (event: Pick<HttpEvent, 'headers'> | undefined): boolean => Boolean(event?.headers?.['idempotency-key']);

/**
 * Any failure becomes the one error body. Throttling or unavailability of a dependency is a 503 the
 * caller may retry; an item the store refused for its size is the caller's 422; anything else
 * unexpected is logged in full and shown as a bare 500.
 */
export function errorMapper(): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    onError: (request) => {
      // The table's writes map a size refusal themselves; this catches one from any other store call.
      const err = isItemTooLarge(request.error) ? tooLargeToStore() : request.error;
      const { requestId, origin } = request.context;
      if (err instanceof AppError) {
        // Retry advice fits the request: the Idempotency-Key is named only when the request sent one.
        const message = err.code === 'OUTCOME_UNKNOWN' ? outcomeUnknownMessage(sentIdempotencyKey(request.event)) : err.message;
        request.response = toHttpResult(
          {
            status: err.status,
            headers: err.headers,
            body: errorBodyOf({ code: err.code, message, details: err.details, requestId, origin }),
          },
          requestId,
        );
        return;
      }
      if (isTransientDependencyError(err)) {
        logger.warn('dependency unavailable', { requestId, error: err as Error });
        request.response = toHttpResult(
          {
            status: 503,
            headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
            body: errorBodyOf({ code: 'SERVICE_UNAVAILABLE', message: 'Temporarily unavailable; retry shortly', requestId, origin }),
          },
          requestId,
        );
        return;
      }
      logger.error('unhandled error', { requestId, error: err as Error });
      request.response = toHttpResult({ status: 500, body: errorBodyOf({ code: 'INTERNAL', message: 'Internal error', requestId, origin }) }, requestId);
    },
  };
}
