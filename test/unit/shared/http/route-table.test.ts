import { describe, expect, it } from 'vitest';
import { AREAS, routeKey, routes, routesOfArea } from '../../../../shared/http/declarations';
import { SCOPES } from '../../../../shared/platform/contract/scopes';
import { buildOpenApiDocument } from '../../../../shared/http/openapi';
import { matchRoute } from '../../../../shared/http/route-match';

describe('route table', () => {
  it('has one entry per method and path, with sane auth and scopes', () => {
    const keys = routes.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of routes) {
      // The API's prefixes, plus the platform's own documents: `/` (a redirect) and the reference page `/docs`.
      expect(r.path, routeKey(r)).toMatch(/^(\/api\/(v2|flash|consumer|wallet|mcp)|\/\.well-known\/oauth-protected-resource|\/docs)(\/|$)|^\/$/);
      expect(r.auth.length).toBeGreaterThan(0);
      if (r.auth.includes('public')) expect(r.auth).toEqual(['public']);
      if (r.auth.includes('apiKey')) expect(SCOPES, routeKey(r)).toContain(r.scope);
    }
    expect(new Set(routes.map((r) => r.operationId)).size).toBe(routes.length);
  });

  it('has all 7 auth and 3 API-key endpoints of spec 4.8, and the second step of a sign-in with two-factor', () => {
    expect(
      routes
        .filter((r) => r.path.startsWith('/api/v2/auth/'))
        .map(routeKey)
        .sort(),
    ).toEqual(
      [
        'GET /api/v2/auth/profile',
        'PATCH /api/v2/auth/profile',
        'POST /api/v2/auth/change-password',
        'POST /api/v2/auth/forgot-password',
        'POST /api/v2/auth/login',
        'POST /api/v2/auth/login/mfa',
        'POST /api/v2/auth/register',
        'POST /api/v2/auth/reset-password',
      ].sort(),
    );
    expect(
      routes
        .filter((r) => r.path.startsWith('/api/v2/api-keys'))
        .map(routeKey)
        .sort(),
    ).toEqual(['DELETE /api/v2/api-keys/{id}', 'GET /api/v2/api-keys', 'POST /api/v2/api-keys']);
  });

  // Imports every area's handler (and the libraries each loads): seconds on a busy machine.
  it('every declared endpoint has exactly one handler, keyed by its operationId', async () => {
    for (const area of AREAS) {
      const mod = (await import(`../../../../functions/${area}/handler.ts`)) as { handler: { operations: string[]; declaration: { area: string } } };
      expect(mod.handler.declaration.area).toBe(area);
      expect([...mod.handler.operations].sort(), area).toEqual(
        routesOfArea(area)
          .map((r) => r.operationId)
          .sort(),
      );
    }
  }, 30_000);

  it('every declared endpoint has exactly one OpenAPI operation with its operationId', () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { operationId: string }>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`));
    expect(documented.sort()).toEqual(routes.map((r) => `${routeKey(r)} ${r.operationId}`).sort());
  });
});

describe('route matching (as API Gateway does)', () => {
  it('matches templates and decodes parameters', () => {
    const m = matchRoute('DELETE', '/api/v2/api-keys/key%5F1');
    expect(m).toMatchObject({ kind: 'route', params: { id: 'key_1' } });
  });

  it('answers 405 with the methods of the path, 404 for unknown paths', () => {
    expect(matchRoute('PUT', '/api/v2/api-keys')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'POST'] });
    expect(matchRoute('GET', '/api/v2/api-keys/x/y')).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', '/api/v2/api-keys/')).toEqual({ kind: 'not_found' });
  });

  it('keeps a malformed escape as is instead of throwing', () => {
    expect(matchRoute('DELETE', '/api/v2/api-keys/%E0%A4%A')).toMatchObject({ kind: 'route', params: { id: '%E0%A4%A' } });
  });
});
