import type { MiddlewareObj } from '@middy/core';
import { config } from '../platform/config';
import { STORABLE_NUMBER_MESSAGE, unstorableNumberPaths } from '../platform/validation/common';
import { AppError, badRequest, validationFailed } from '../platform/errors';
import type { AppContext, HttpEvent, HttpResult } from './types';

/**
 * How deeply objects and arrays nest in a JSON text, counted without recursion (brackets inside
 * strings do not count). Stops counting once past `limit`.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Whether a Content-Type names JSON: `application/json` or a `+json` type of `application/`
 * (`application/merge-patch+json`), any case, with or without parameters (`; charset=utf-8`).
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const essence = (contentType?.split(';', 1)[0] ?? '').trim().toLowerCase();
  return /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/.test(essence);
}

/**
 * Decodes, size-checks and parses a JSON body. Requests without a body pass through. A body must
 * say it is JSON (`isJsonMediaType`), else 415: a browser sends a cross-site form (`text/plain`,
 * urlencoded, multipart) without a preflight but never a JSON one, so no such form reaches a route.
 * What does not parse, or nests deeper than `maxDepth`, is a 400. A number no field may hold (beyond
 * 2^53 - 1, or below 1e-130 in magnitude) is a 422 naming its path wherever it is, so no route can pass one to the store.
 * `checkNumbers: false` leaves that to the caller (the MCP server answers per JSON-RPC message).
 */
export function jsonBody(
  maxBytes: number = config.http.maxBodyBytes,
  maxDepth: number = config.http.maxBodyDepth,
  checkNumbers = true,
): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    before: (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === undefined || body === null || body === '') {
        request.context.hasBody = false;
        return;
      }
      const contentType = request.event.headers?.['content-type'];
      if (!isJsonMediaType(contentType)) throw notJson(contentType);
      const raw = isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
      if (raw.byteLength > maxBytes) {
        throw new AppError('PAYLOAD_TOO_LARGE', `Request body is ${raw.byteLength} bytes; the limit is ${maxBytes}`);
      }
      const text = raw.toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw badRequest(`Malformed JSON body: ${(err as Error).message}`);
      }
      if (jsonDepthExceeds(text, maxDepth)) throw badRequest(`JSON body nested deeper than ${maxDepth} levels`);
      if (checkNumbers) refuseUnstorableNumbers(parsed);
      request.context.body = parsed;
      request.context.hasBody = true;
    },
  };
}

/** The 415: names the type sent when it looks like one (never echoes arbitrary header text). */
function notJson(contentType: string | undefined): AppError {
  const essence = (contentType?.split(';', 1)[0] ?? '').trim();
  const sent = !essence ? 'has no Content-Type' : /^[\w.+-]{1,64}\/[\w.+-]{1,64}$/.test(essence) ? `is ${essence}` : 'has an unusable Content-Type';
  return new AppError('UNSUPPORTED_MEDIA_TYPE', `The request body ${sent}; send it as JSON with Content-Type: application/json`, [
    { in: 'header', field: 'content-type', message: 'must be application/json' },
  ]);
}

export function refuseUnstorableNumbers(body: unknown): void {
  const paths = unstorableNumberPaths(body);
  if (paths.length > 0) {
    throw validationFailed(paths.map((p) => ({ in: 'body', field: p.map(String).join('.'), message: STORABLE_NUMBER_MESSAGE })));
  }
}
