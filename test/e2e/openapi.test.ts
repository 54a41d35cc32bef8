import { describe, expect, inject, it } from 'vitest';
import { routes } from '../../shared/http/declarations';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { call } from '../support/api';

describe('OpenAPI document', () => {
  it('is served without credentials at /api/v2/openapi.json, exactly as built from the route table and contracts', async () => {
    const res = await call('GET', '/api/v2/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.data).toBeUndefined(); // the document itself, not wrapped in { data }
    // What every e2e response is validated against (test/support/openapi.ts) is what clients download.
    // Its `servers` entry is the origin the request reached.
    expect(res.body).toEqual(buildOpenApiDocument(inject('baseUrl')));
    expect(res.body.servers).toEqual([{ url: inject('baseUrl'), description: expect.any(String) }]);
  });

  it('lists every /api/v2 route of the route table', async () => {
    const { body: doc } = await call('GET', '/api/v2/openapi.json');
    const v2 = routes.filter((r) => r.path.startsWith('/api/v2/'));
    expect(v2.length).toBeGreaterThan(0);
    for (const r of v2) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op.operationId).toBe(r.operationId);
    }
  });

  it('ignores a credential, even an invalid one, since the document is public', async () => {
    const res = await call('GET', '/api/v2/openapi.json', { token: 'fl_live_not-a-real-key' });
    expect(res.status).toBe(200);
    expect(res.body.info.version).toBe('2.0.0');
  });
});
