import { describe, expect, it } from 'vitest';
import { call, registerAccount } from '../support/api';

describe('HTTP conventions', () => {
  it('malformed JSON -> 400 BAD_REQUEST in the error format', async () => {
    const res = await call('POST', '/api/v2/auth/login', { rawBody: '{"email": "a@b.c",', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/JSON/), requestId: expect.any(String) });
  });

  it('a missing body where one is needed -> 400', async () => {
    const res = await call('POST', '/api/v2/auth/login');
    expect(res.status).toBe(400);
  });

  it('a body over 1 MiB -> 413, and nothing is created', async () => {
    const name = 'x'.repeat(1024 * 1024 + 10);
    const res = await call('POST', '/api/v2/auth/register', { body: { workspaceName: name, email: 'big@example.test', password: 'long enough pass' } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const login = await call('POST', '/api/v2/auth/login', { body: { email: 'big@example.test', password: 'long enough pass' } });
    expect(login.status).toBe(401);
  });

  it('unknown path -> 404 JSON; known path with another method -> 405 with Allow', async () => {
    const unknown = await call('GET', '/api/v2/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', requestId: expect.any(String) });
    expect(unknown.headers.get('content-type')).toMatch(/application\/json/);

    const wrong = await call('PUT', '/api/v2/auth/login', { body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrong.headers.get('allow')).toBe('POST');

    const keys = await call('PATCH', '/api/v2/api-keys/key_123');
    expect(keys.status).toBe(405);
    expect(keys.headers.get('allow')).toBe('DELETE');
  });

  it('unknown paths and wrong methods answer 404/405 whatever the body (a bad body was a 400 or 413)', async () => {
    const json = { 'content-type': 'application/json' };
    for (const rawBody of ['{"a":', '['.repeat(100) + ']'.repeat(100), `"${'x'.repeat(1024 * 1024)}"`]) {
      const unknown = await call('POST', '/api/v2/objects//records', { rawBody, headers: json });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
      const wrong = await call('PUT', '/api/v2/auth/login', { rawBody, headers: json });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
    }
  });

  it('every response carries x-request-id, echoing a sane one from the caller', async () => {
    const echoed = await call('GET', '/api/v2/auth/profile', { headers: { 'x-request-id': 'client-trace.42:a' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-trace.42:a');
    expect(echoed.body.error.requestId).toBe('client-trace.42:a');

    const insane = await call('GET', '/api/v2/auth/profile', { headers: { 'x-request-id': 'bad id with spaces<script>' } });
    expect(insane.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{26}$/);

    const acc = await registerAccount('reqid');
    const okRes = await call('GET', '/api/v2/auth/profile', { token: acc.token });
    expect(okRes.status).toBe(200);
    expect(okRes.headers.get('x-request-id')).toMatch(/^req_/);
    expect(okRes.headers.get('cache-control')).toBe('no-store');

    const notFound = await call('GET', '/nowhere', { headers: { 'x-request-id': 'trace-404' } });
    expect(notFound.headers.get('x-request-id')).toBe('trace-404');
  });
});
