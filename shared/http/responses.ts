import type { HttpResult } from './types';

const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  // Responses carry tokens and tenant data: never cache them anywhere.
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body that is not JSON (e.g. a signed pass file), sent as is with its own content type. */
  raw?: { contentType: string; bytes: Buffer };
  /** Set-Cookie values (API Gateway's `cookies`: one header each). */
  cookies?: string[];
}

export const ok = (data: unknown, extra: Record<string, unknown> = {}): Reply => ({ status: 200, body: { data, ...extra } });
export const created = (data: unknown): Reply => ({ status: 201, body: { data } });
export const accepted = (data: unknown): Reply => ({ status: 202, body: { data } });
export const noContent = (): Reply => ({ status: 204 });

export function toHttpResult(reply: Reply, requestId: string): HttpResult {
  const result = shapeResult(reply, requestId);
  return reply.cookies?.length ? { ...result, cookies: reply.cookies } : result;
}

function shapeResult(reply: Reply, requestId: string): HttpResult {
  const headers = { ...BASE_HEADERS, ...reply.headers, 'x-request-id': requestId };
  if (reply.raw) {
    return {
      statusCode: reply.status,
      headers: { ...headers, 'content-type': reply.raw.contentType },
      body: reply.raw.bytes.toString('base64'),
      isBase64Encoded: true,
    };
  }
  if (reply.body === undefined) {
    const { 'content-type': _ct, ...rest } = headers;
    return { statusCode: reply.status, headers: rest, body: '' };
  }
  return { statusCode: reply.status, headers, body: JSON.stringify(reply.body) };
}
