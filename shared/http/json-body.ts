import type { MiddlewareObj } from '@middy/core';
import { config } from '../config';
import { AppError, badRequest } from '../domain/errors';
import type { AppContext, HttpEvent, HttpResult } from './types';

/**
 * Decodes, size-checks and parses a JSON body. Requests without a body pass through. Every body is
 * JSON whatever its Content-Type says (so `curl -d` works); what does not parse is a 400.
 */
export function jsonBody(maxBytes: number = config.http.maxBodyBytes): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    before: (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === undefined || body === null || body === '') {
        request.context.hasBody = false;
        return;
      }
      const raw = isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
      if (raw.byteLength > maxBytes) {
        throw new AppError('PAYLOAD_TOO_LARGE', `Request body is ${raw.byteLength} bytes; the limit is ${maxBytes}`);
      }
      try {
        request.context.body = JSON.parse(raw.toString('utf8'));
        request.context.hasBody = true;
      } catch (err) {
        throw badRequest(`Malformed JSON body: ${(err as Error).message}`);
      }
    },
  };
}
