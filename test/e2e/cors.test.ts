import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { newMember, tenant, type Tenant } from '../support/fixtures';

/**
 * CORS for the member portal embed: only the consumer routes answer preflights and carry
 * Access-Control-Allow-Origin, and only for origins a workspace allows (PUT /api/flash/settings/cors).
 * Raw fetch for OPTIONS and the pass (a binary answer); the settings go through `call`.
 */
const ISSUE = '/api/consumer/wallet/issue';
const shop = (label: string) => `https://${label}-${randomUUID().slice(0, 8)}.shop.example`;

async function raw(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(inject('baseUrl') + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res;
}

const corsHeaders = (res: Response) => [...res.headers.keys()].filter((h) => h.startsWith('access-control-')).sort();
const preflight = (origin: string | undefined, path = ISSUE) =>
  raw('OPTIONS', path, {
    ...(origin ? { origin } : {}),
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type',
  });

async function allow(t: Tenant, origins: string[]) {
  const res = await call('PUT', '/api/flash/settings/cors', { token: t.token, body: { allowedOrigins: origins } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function consumerToken(t: Tenant): Promise<string> {
  const m = await newMember(t.key);
  const res = await call('POST', `/api/v2/members/${m.id}/portal-sessions`, { token: t.key });
  expect(res.status).toBe(201);
  return res.body.data.token;
}

describe('CORS settings (admin)', () => {
  it('stores exact origins, audited; refuses anything that is not an origin as a browser sends it', async () => {
    const t = await tenant('cors-settings');
    expect((await call('GET', '/api/flash/settings/cors', { token: t.token })).body.data).toEqual({ allowedOrigins: [], updatedAt: null });
    const origin = shop('settings');
    const saved = await allow(t, [origin, 'http://localhost:5173', 'http://[::1]:5173']);
    expect(saved).toEqual({ allowedOrigins: [origin, 'http://localhost:5173', 'http://[::1]:5173'], updatedAt: expect.any(String) });
    expect((await call('GET', '/api/flash/settings/cors', { token: t.token })).body.data).toEqual(saved);
    const audit = await call('GET', '/api/flash/audit?action=portal.cors_updated', { token: t.token });
    expect(audit.body.data).toEqual([expect.objectContaining({ action: 'portal.cors_updated', target: { type: 'workspace', id: t.workspaceId, href: null } })]);

    const bad = [
      'https://shop.example/',
      'https://shop.example/path',
      'http://shop.example',
      'ftp://shop.example',
      '*',
      'null',
      'https://SHOP.example',
      'https://shop.example:443',
      // Wildcard-looking: the URL parser keeps `*` as a literal host, which no page has.
      'https://*.shop.example',
      'https://*',
      // Local means exactly localhost, 127.0.0.1 and [::1].
      'http://app.localhost:5173',
      'http://127.0.0.2:5173',
    ];
    for (const value of bad) {
      const res = await call('PUT', '/api/flash/settings/cors', { token: t.token, body: { allowedOrigins: [value] } });
      expect(res.status, value).toBe(422);
      expect(res.body.error.details, value).toEqual([expect.objectContaining({ in: 'body', field: 'allowedOrigins.0' })]);
      if (value.includes('://*')) expect(res.body.error.details[0].message, value).toBe('one origin per entry: a wildcard (*) matches no origin');
    }
    expect((await call('PUT', '/api/flash/settings/cors', { token: t.token, body: { allowedOrigins: [origin, origin] } })).status).toBe(422);
    expect((await call('PUT', '/api/flash/settings/cors', { token: t.key, body: { allowedOrigins: [] } })).status).toBe(403);
    expect((await call('GET', '/api/flash/settings/cors', { token: t.token })).body.data).toEqual(saved);
  });
});

describe('CORS on the consumer routes', () => {
  it('a preflight from an allowed origin gets 204 with that exact origin, methods, headers and max-age', async () => {
    const t = await tenant('cors-preflight');
    const origin = shop('preflight');
    await allow(t, [origin]);
    const res = await preflight(origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, idempotency-key');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('a preflight from an origin no workspace allows, or without an origin, gets no CORS header', async () => {
    for (const origin of [shop('unknown'), undefined]) {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expect(corsHeaders(res)).toEqual([]);
    }
  });

  it('the actual answer allows the origin only when the workspace of the consumer session allows it', async () => {
    const a = await tenant('cors-a');
    const b = await tenant('cors-b');
    const originA = shop('a');
    const originB = shop('b');
    await allow(a, [originA]);
    await allow(b, [originB]);
    const token = await consumerToken(a);
    const mine = await raw('POST', ISSUE, { authorization: `Bearer ${token}`, origin: originA }, { platform: 'apple' });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('access-control-allow-origin')).toBe(originA);
    expect(mine.headers.get('access-control-expose-headers')).toBe('x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset');
    expect(mine.headers.get('vary')).toBe('Origin');
    // A portal session draws on its workspace's request budget, and the embed may read where it stands.
    expect(mine.headers.get('ratelimit-limit')).toMatch(/^[1-9]\d*$/);
    expect(Number(mine.headers.get('ratelimit-remaining'))).toBeLessThan(Number(mine.headers.get('ratelimit-limit')));
    // An error answer to the embed is readable too (it carries the session).
    const invalid = await raw('POST', ISSUE, { authorization: `Bearer ${token}`, origin: originA }, { platform: 'nokia' });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('access-control-allow-origin')).toBe(originA);
    // B's origin passes the preflight (some workspace allows it) but A's answers do not allow it.
    expect((await preflight(originB)).headers.get('access-control-allow-origin')).toBe(originB);
    const foreign = await raw('POST', ISSUE, { authorization: `Bearer ${token}`, origin: originB }, { platform: 'apple' });
    expect(foreign.status).toBe(200);
    expect(corsHeaders(foreign)).toEqual([]);
    // No session, no workspace: no CORS header.
    const anonymous = await raw('POST', ISSUE, { origin: originA }, { platform: 'apple' });
    expect(anonymous.status).toBe(401);
    expect(corsHeaders(anonymous)).toEqual([]);
  });

  it('an origin removed from the list no longer passes the preflight', async () => {
    const t = await tenant('cors-remove');
    const keep = shop('keep');
    const drop = shop('drop');
    await allow(t, [keep, drop]);
    expect((await preflight(drop)).headers.get('access-control-allow-origin')).toBe(drop);
    await allow(t, [keep]);
    expect(corsHeaders(await preflight(drop))).toEqual([]);
    expect((await preflight(keep)).headers.get('access-control-allow-origin')).toBe(keep);
  });
});

describe('CORS stays off everywhere else', () => {
  it('other routes answer OPTIONS with 405 and carry no CORS header, even for an allowed origin', async () => {
    const t = await tenant('cors-other');
    const origin = shop('other');
    await allow(t, [origin]);
    for (const path of ['/api/v2/members', '/api/flash/settings/cors', '/api/v2/auth/login']) {
      const res = await preflight(origin, path);
      expect(res.status, path).toBe(405);
      expect(corsHeaders(res), path).toEqual([]);
    }
    const list = await raw('GET', '/api/v2/members', { authorization: `Bearer ${t.key}`, origin });
    expect(list.status).toBe(200);
    expect(corsHeaders(list)).toEqual([]);
  });
});
