import { request } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../shared/platform/errors';
import { headingSlug } from '../../shared/platform/contract/reference';
import { assertDocumentedResponse } from '../support/openapi';
import { call, registerAccount } from '../support/api';

/**
 * The platform's own documents on the local runtime: `/` and the base path point to the reference
 * page, the page and its assets are served by the platform, and every error answer links to the
 * section of the page on its code.
 */

const base = inject('baseUrl');

/**
 * A request `call` cannot make (no redirect following, raw bytes), checked against the document all
 * the same, except `/api/v2/`: no route can be declared with a trailing slash (API Gateway refuses
 * one), so the document cannot list it; `$default` answers it like `/api/v2`.
 */
async function raw(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, { redirect: 'manual', headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type');
  let body: unknown = bytes.length ? bytes.toString('utf8') : undefined;
  if (contentType?.startsWith('application/json')) body = JSON.parse(bytes.toString('utf8'));
  if (path !== '/api/v2/') assertDocumentedResponse({ method: 'GET', path, status: res.status, body, contentType });
  return { status: res.status, headers: res.headers, bytes, body };
}

/** The anchors of the headings of the served document's description, as the page names them. */
async function sectionAnchors(): Promise<string[]> {
  const { body } = await call('GET', '/api/v2/openapi.json');
  return [...String(body.info.description).matchAll(/^#{1,6} +(.+?) *$/gm)].map((m) => `api/description/${headingSlug(m[1]!)}`);
}

describe('the way to the reference', () => {
  it('GET / redirects to /docs', async () => {
    const res = await raw('/');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs');
  });

  it('GET /api/v2 and /api/v2/ answer with links to the reference page and the document', async () => {
    for (const path of ['/api/v2', '/api/v2/']) {
      const res = await raw(path);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({ data: { reference: `${base}/docs`, openapi: `${base}/api/v2/openapi.json` } });
    }
    // Only GET: the base path is no resource to write to.
    const post = await call('POST', '/api/v2', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('GET /docs is an HTML page under a strict Content-Security-Policy, loading the assets the platform serves', async () => {
    const page = await raw('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self';/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const scripts = [...String(page.body).matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(['/docs/assets/api-reference.js', '/docs/assets/reference.js']);
    for (const script of scripts) {
      const res = await raw(script, { 'accept-encoding': 'identity' });
      expect(res.status, script).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(res.bytes.length).toBeGreaterThan(100);
    }
  });

  it('sends the renderer gzipped to a client that accepts it', async () => {
    // fetch decompresses what it receives; the Content-Encoding header says what travelled.
    const res = await fetch(`${base}/docs/assets/api-reference.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('accept-encoding');
    const identity = await raw('/docs/assets/api-reference.js', { 'accept-encoding': 'identity' });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.bytes.length).toBeGreaterThan(1_000_000);
    expect(Buffer.from(await res.arrayBuffer()).equals(identity.bytes)).toBe(true);
  });

  it('an unknown asset is a 404 in the error format', async () => {
    const res = await call('GET', '/docs/assets/secret.js');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('docUrl', () => {
  it('every error code has a section on the reference page', async () => {
    const anchors = await sectionAnchors();
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      expect(anchors, code).toContain(`api/description/${code.toLowerCase().replace(/_/g, '-')}`);
    }
  });

  it('error answers link to the section on their code, at the host the request reached', async () => {
    const account = await registerAccount('docurl');
    const answers = [
      await call('GET', '/api/v2/nothing-here'),
      await call('PUT', '/api/v2/auth/login', { body: {} }),
      await call('GET', '/api/v2/stores'),
      await call('GET', '/api/v2/api-keys', { token: 'fl_live_nope' }),
      await call('POST', '/api/v2/auth/login', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } }),
      await call('POST', '/api/v2/stores', { token: account.token, body: {} }),
      await call('POST', '/api/v2/auth/register', {
        body: { workspaceName: 'x'.repeat(1024 * 1024 + 10), email: 'big@example.test', password: 'long enough pass' },
      }),
    ];
    const anchors = await sectionAnchors();
    const codes = answers.map((a) => a.body.error.code as string);
    expect(new Set(codes).size).toBeGreaterThanOrEqual(5);
    for (const { body } of answers) {
      const url = new URL(body.error.docUrl);
      expect(`${url.origin}${url.pathname}`).toBe(`${base}/docs`);
      expect(anchors, body.error.code).toContain(url.hash.slice(1));
      expect(url.hash).toBe(`#api/description/${headingSlug(body.error.code)}`);
    }
  });

  it('names the host the client used (the Host header), not a fixed one', async () => {
    const { hostname, port } = new URL(base);
    // fetch will not send another Host header than the URL's; node:http does.
    const text = await new Promise<string>((resolve, reject) => {
      const req = request({ host: hostname, port, path: '/api/v2/nothing-here', headers: { host: `localhost:${port}` } }, (res) => {
        let data = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (data += chunk))
          .on('end', () => resolve(data));
      });
      req.on('error', reject).end();
    });
    expect(JSON.parse(text).error.docUrl).toBe(`http://localhost:${port}/docs#api/description/not-found`);
  });
});
