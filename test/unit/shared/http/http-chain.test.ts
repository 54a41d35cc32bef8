import middy from '@middy/core';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AppError, outcomeUnknown } from '../../../../shared/platform/errors';
import { withinDeadline } from '../../../../shared/http/area';
import { errorMapper } from '../../../../shared/http/error-mapper';
import { isJsonMediaType, jsonBody, jsonDepthExceeds } from '../../../../shared/http/json-body';
import { errorCodeOf, requestContext } from '../../../../shared/http/request-context';
import { logger } from '../../../../shared/platform/observability/logger';
import type { AppContext, HttpEvent, HttpResult } from '../../../../shared/http/types';
import { toDetails } from '../../../../shared/platform/validation/validation';

const event = (headers: Record<string, string> = {}) =>
  ({ headers, routeKey: '$default', requestContext: { http: { method: 'GET' } } }) as unknown as HttpEvent;

const chain = (fail: () => never) =>
  middy<HttpEvent, HttpResult, Error, AppContext>()
    .use(requestContext('test'))
    .use(errorMapper())
    .handler(async () => fail());

describe('error mapping', () => {
  it('a 500 never shows internals', async () => {
    const res = (await chain(() => {
      throw new Error('connect ECONNREFUSED 10.1.2.3:8000 table=secret-table');
    })(event({ 'x-request-id': 'r-1' }), {} as AppContext)) as HttpResult;
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/ECONNREFUSED|secret|10\.1/);
    // No Host in the event: the link to the reference is relative.
    expect(JSON.parse(res.body!)).toEqual({
      error: { code: 'INTERNAL', message: 'Internal error', requestId: 'r-1', docUrl: '/docs#api/description/internal' },
    });
    expect(res.headers!['x-request-id']).toBe('r-1');
  });

  it('an AppError keeps its status, code, details and headers', async () => {
    const res = (await chain(() => {
      throw new AppError('RATE_LIMITED', 'slow down', undefined, { 'retry-after': '7' });
    })(event(), {} as AppContext)) as HttpResult;
    expect(res.statusCode).toBe(429);
    expect(res.headers!['retry-after']).toBe('7');
    expect(JSON.parse(res.body!).error).toMatchObject({ code: 'RATE_LIMITED', message: 'slow down' });
  });
});

describe('access log line', () => {
  const accessLine = async (handler: () => Promise<HttpResult>) => {
    const info = vi.spyOn(logger, 'info');
    const served = middy<HttpEvent, HttpResult, Error, AppContext>().use(requestContext('orders')).use(errorMapper()).handler(handler);
    await served(
      { ...event(), routeKey: 'POST /api/v2/orders', rawPath: '/api/v2/orders', requestContext: { http: { method: 'POST' } } } as unknown as HttpEvent,
      {} as AppContext,
    );
    const line = info.mock.calls.find(([message]) => message === 'request')?.[1] as Record<string, unknown>;
    info.mockRestore();
    return line;
  };

  it('names the path as called and, for an error answer, its code', async () => {
    const failed = await accessLine(async () => {
      throw new AppError('VALIDATION_FAILED', 'The request is invalid; see details');
    });
    expect(failed).toMatchObject({
      method: 'POST',
      routeKey: 'POST /api/v2/orders',
      path: '/api/v2/orders',
      status: 422,
      errorCode: 'VALIDATION_FAILED',
      area: 'orders',
    });
    const ok = await accessLine(async () => ({ statusCode: 201, body: JSON.stringify({ data: { error: { code: 'NOT_AN_ERROR' } } }) }));
    expect(ok).toMatchObject({ status: 201, path: '/api/v2/orders' });
    expect(ok.errorCode).toBeUndefined();
  });

  it('reads the code only from the one error body', () => {
    expect(errorCodeOf({ statusCode: 404, body: JSON.stringify({ error: { code: 'NOT_FOUND', message: 'x' } }) })).toBe('NOT_FOUND');
    expect(errorCodeOf({ statusCode: 500, body: 'not json' })).toBeUndefined();
    expect(errorCodeOf({ statusCode: 400, body: 'null' })).toBeUndefined();
    expect(errorCodeOf({ statusCode: 400, body: 'eyJlcnJvciI6e319', isBase64Encoded: true })).toBeUndefined();
    expect(errorCodeOf({ statusCode: 200, body: JSON.stringify({ error: { code: 'X' } }) })).toBeUndefined();
    expect(errorCodeOf(undefined)).toBeUndefined();
  });
});

describe('JSON bodies', () => {
  const parse = (body: string) =>
    middy<HttpEvent, HttpResult, Error, AppContext>()
      .use(requestContext('test'))
      .use(errorMapper())
      .use(jsonBody(1024 * 1024, 64))
      .handler(async (_, context) => ({ statusCode: 200, body: JSON.stringify({ parsed: context.hasBody }) }))(
      { ...event({ 'content-type': 'application/json' }), body } as HttpEvent,
      {} as AppContext,
    ) as Promise<HttpResult>;

  it('reads a body only when its Content-Type names JSON', () => {
    for (const type of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      ' application/json ;x=1',
      'application/merge-patch+json',
      'application/vnd.api+json',
    ]) {
      expect(isJsonMediaType(type), type).toBe(true);
    }
    for (const type of [
      undefined,
      '',
      'text/plain',
      'text/plain; charset=application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'application/json-seq',
      'text/json',
      'xapplication/json',
      'application/+json',
      'application/a+json+x',
      'application/json/x',
    ]) {
      expect(isJsonMediaType(type), String(type)).toBe(false);
    }
  });

  it('a body without a JSON Content-Type is a 415 naming the type sent, before it is parsed', async () => {
    const send = (headers: Record<string, string>, body = '{"a":1}') =>
      middy<HttpEvent, HttpResult, Error, AppContext>()
        .use(requestContext('test'))
        .use(errorMapper())
        .use(jsonBody(16, 64))
        .handler(async () => ({ statusCode: 200 }))({ ...event(headers), body } as HttpEvent, {} as AppContext) as Promise<HttpResult>;
    const plain = await send({ 'content-type': 'text/plain;charset=UTF-8' }, '{"a":'.repeat(10));
    expect(plain.statusCode).toBe(415);
    expect(JSON.parse(plain.body!).error).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'The request body is text/plain; send it as JSON with Content-Type: application/json',
      details: [{ in: 'header', field: 'content-type', message: 'must be application/json' }],
    });
    expect(JSON.parse((await send({})).body!).error.message).toBe('The request body has no Content-Type; send it as JSON with Content-Type: application/json');
    expect(JSON.parse((await send({ 'content-type': '<script>/x' })).body!).error.message).toBe(
      'The request body has an unusable Content-Type; send it as JSON with Content-Type: application/json',
    );
    expect((await send({ 'content-type': 'application/json' })).statusCode).toBe(200);
    // No body: nothing to judge, whatever the header says.
    expect((await send({ 'content-type': 'text/plain' }, '')).statusCode).toBe(200);
  });

  it('counts nesting on the text, ignoring brackets inside strings', () => {
    expect(jsonDepthExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[]]]]', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: 'quote \\" [[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds('[[],[],[],[]]', 2)).toBe(false);
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 8 }), (value, limit) => {
        const depth = (v: unknown): number => (v && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
        expect(jsonDepthExceeds(JSON.stringify(value), limit)).toBe(depth(value) > limit);
      }),
    );
  });

  it('a body nested deeper than the limit is a 400, at any depth, without overflowing the stack', async () => {
    for (const depth of [65, 3000, 100_000]) {
      for (const text of ['['.repeat(depth) + ']'.repeat(depth), `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`]) {
        const res = await parse(text);
        expect(res.statusCode, `${depth}`).toBe(400);
        expect(JSON.parse(res.body!).error).toMatchObject({ code: 'BAD_REQUEST', message: 'JSON body nested deeper than 64 levels' });
      }
    }
    expect((await parse('['.repeat(64) + ']'.repeat(64))).statusCode).toBe(200);
  });
});

describe('validation details', () => {
  const schema = z.strictObject({ a: z.string(), b: z.object({ c: z.number() }), d: z.array(z.number()).optional() });

  it('one detail per offending field path, never two for the same path', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = schema.safeParse(value);
        if (result.success) return;
        const details = toDetails('body', result.error);
        expect(details.length).toBeGreaterThan(0);
        expect(new Set(details.map((d) => d.field)).size).toBe(details.length);
      }),
    );
  });

  it('names unknown keys one by one', () => {
    const result = schema.safeParse({ a: 'x', b: { c: 1 }, x: 1, y: 2 });
    expect(toDetails('body', result.error!).map((d) => d.field)).toEqual(['x', 'y']);
  });
});

describe('dependency failures', () => {
  it('a throttled database is a retryable 503, not a 500', async () => {
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ProvisionedThroughputExceededException' });
    const res = (await chain(() => {
      throw throttled;
    })(event(), {} as AppContext)) as HttpResult;
    expect(res.statusCode).toBe(503);
    expect(res.headers!['retry-after']).toBe('1');
    expect(JSON.parse(res.body!).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.body).not.toContain('throughput');
  });
});

describe('unreachable store and unknown outcomes', () => {
  it('a refused connection is a retryable 503 that shows no address', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', errno: -111 });
    const res = (await chain(() => {
      throw refused;
    })(event(), {} as AppContext)) as HttpResult;
    expect(res.statusCode).toBe(503);
    expect(res.headers!['retry-after']).toBe('1');
    expect(JSON.parse(res.body!).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.body).not.toContain('127.0.0.1');
  });

  it('an unconfirmed write is 503 OUTCOME_UNKNOWN with Retry-After, telling to retry with the same key', async () => {
    const res = (await chain(() => {
      throw outcomeUnknown(Object.assign(new Error('timed out'), { name: 'TimeoutError' }));
    })(event({ 'idempotency-key': 'k-1' }), {} as AppContext)) as HttpResult;
    expect(res.statusCode).toBe(503);
    expect(res.headers!['retry-after']).toBe('1');
    const { error } = JSON.parse(res.body!);
    expect(error.code).toBe('OUTCOME_UNKNOWN');
    expect(error.message).toMatch(/same Idempotency-Key/);
  });

  it('without an Idempotency-Key, OUTCOME_UNKNOWN does not advise retrying with one', async () => {
    const res = (await chain(() => {
      throw outcomeUnknown();
    })(event(), {} as AppContext)) as HttpResult;
    const { error } = JSON.parse(res.body!);
    expect(error.code).toBe('OUTCOME_UNKNOWN');
    expect(error.message).not.toMatch(/Idempotency-Key/);
    expect(error.message).toMatch(/read the object back/);
  });

  it('the access line names the code the caller received when the answer is replaced after the chain', async () => {
    const info = vi.spyOn(logger, 'info');
    const served = chain(() => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', errno: -111 });
    });
    const replaced: HttpResult = { statusCode: 503, body: JSON.stringify({ error: { code: 'OUTCOME_UNKNOWN', message: 'm', requestId: 'r' } }) };
    const res = await withinDeadline(event(), { getRemainingTimeInMillis: () => 30_000 } as unknown as AppContext, async (e, c) => {
      const answered = (await served(e, c)) as HttpResult;
      expect(JSON.parse(answered.body!).error.code).toBe('SERVICE_UNAVAILABLE');
      return replaced; // as an unconfirmed commit replaces the chain's answer
    });
    const lines = info.mock.calls.filter(([message]) => message === 'request').map(([, fields]) => fields as Record<string, unknown>);
    info.mockRestore();
    expect(res).toBe(replaced);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ status: 503, errorCode: 'OUTCOME_UNKNOWN' });
  });
});
