import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DECLARATIONS } from '../../../../shared/http/declarations';
import { ERROR_ADVICE, ERROR_CODES, type ErrorCode } from '../../../../shared/platform/errors';
import { errorBodyOf } from '../../../../shared/http/error-body';
import { buildOpenApiDocument } from '../../../../shared/http/openapi';
import { originOf } from '../../../../shared/http/origin';
import { getHeadings } from '@scalar/code-highlight/markdown';
import { getMarkdownHeadings } from '@scalar/helpers/markdown/get-markdown-headings';
import { docUrlOf, errorAnchor, errorHeading, headingSlug, REFERENCE_DOCUMENT_SLUG } from '../../../../shared/platform/contract/reference';
import { REFERENCE_ASSET_NAMES, REFERENCE_CONTENT_SECURITY_POLICY, referenceAssetReply, referencePageReply } from '../../../../shared/http/reference-page';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** The anchors the page gives the headings of the document's description (`<slug>/description/<heading slug>`). */
const descriptionAnchors = (description: string): string[] =>
  [...description.matchAll(/^#{1,6} +(.+?) *$/gm)].map((m) => `${REFERENCE_DOCUMENT_SLUG}/description/${headingSlug(m[1]!)}`);

describe('reference sections of the error codes', () => {
  const anchors = descriptionAnchors(doc.info.description);

  it('every code of ERROR_CODES has its own section, the one its docUrl points to', () => {
    for (const code of CODES) {
      const fragment = new URL(docUrlOf(code), 'http://x').hash.slice(1);
      expect(fragment).toBe(errorAnchor(code));
      expect(
        anchors.filter((a) => a === fragment),
        code,
      ).toHaveLength(1);
    }
  });

  it('a section says the status, the meaning and what to do', () => {
    for (const code of CODES) {
      const section = doc.info.description.split(`### ${errorHeading(code)}\n`)[1]!.split('\n### ')[0] as string;
      expect(section).toContain(`HTTP ${ERROR_CODES[code].status}`);
      expect(section).toContain(ERROR_CODES[code].meaning);
      expect(section).toContain(ERROR_ADVICE[code]);
    }
  });

  it('the shared error responses link each of their codes to its section', () => {
    for (const [name, response] of Object.entries(doc.components.responses as Json)) {
      const links = [...String(response.description).matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
      expect(links.length, name).toBeGreaterThan(0);
      for (const link of links) expect(anchors, `${name} links to #${link}`).toContain(link);
    }
  });

  // The renderer reads headings twice: its sidebar strips Markdown pairs from the source line, the
  // page reads the parsed heading. Both must see the code as written, or the anchor differs.
  it("both of the renderer's heading readers see each code as written (no underscore read as emphasis)", () => {
    const description = doc.info.description as string;
    const sidebar = new Set(getMarkdownHeadings(description).map((h: { value: string }) => h.value));
    const page = new Set(getHeadings(description).map((h: { value: string }) => h.value));
    for (const code of CODES) {
      expect(sidebar.has(code), `sidebar: ${code}`).toBe(true);
      expect(page.has(code), `page: ${code}`).toBe(true);
    }
  });

  it('slugs headings as the renderer does', () => {
    expect(headingSlug('NOT_FOUND')).toBe('not-found');
    expect(headingSlug('REQUEST_HEADER_FIELDS_TOO_LARGE')).toBe('request-header-fields-too-large');
    expect(headingSlug('  Errors & more -- here ')).toBe('errors-more-here');
  });
});

describe('docUrl', () => {
  it('is absolute when the origin is known, relative otherwise', () => {
    expect(docUrlOf('NOT_FOUND', 'https://api.example.com')).toBe('https://api.example.com/docs#api/description/not-found');
    expect(docUrlOf('INTERNAL')).toBe('/docs#api/description/internal');
  });

  it('is part of every error body, after the request id', () => {
    const body = errorBodyOf({
      code: 'VALIDATION_FAILED',
      message: 'm',
      requestId: 'r',
      details: [{ in: 'body', field: 'a', message: 'required' }],
      origin: 'http://127.0.0.1:3000',
    });
    expect(body).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'm',
        details: [{ in: 'body', field: 'a', message: 'required' }],
        requestId: 'r',
        docUrl: 'http://127.0.0.1:3000/docs#api/description/validation-failed',
      },
    });
    expect(Object.keys(body.error)).toEqual(['code', 'message', 'details', 'requestId', 'docUrl']);
    expect(errorBodyOf({ code: 'GONE', message: 'm', requestId: 'r' }).error).not.toHaveProperty('details');
  });

  it('is documented in the Error schema, required', () => {
    const error = doc.components.schemas.Error.properties.error;
    expect(error.properties.docUrl).toMatchObject({ type: 'string' });
    expect(error.required).toContain('docUrl');
  });
});

describe('originOf', () => {
  const event = (headers: Record<string, string>, domainName?: string) => ({ headers, requestContext: domainName ? { domainName } : undefined });

  it('takes the Host header and X-Forwarded-Proto', () => {
    expect(originOf(event({ host: '127.0.0.1:3000', 'x-forwarded-proto': 'http' }))).toBe('http://127.0.0.1:3000');
    expect(originOf(event({ host: 'api.example.com', 'x-forwarded-proto': 'https,http' }))).toBe('https://api.example.com');
    expect(originOf(event({ host: '[::1]:8080', 'x-forwarded-proto': 'http' }))).toBe('http://[::1]:8080');
  });

  it("takes the viewer's host our CloudFront forwards (X-Forwarded-Host, with its secret) over the Host API Gateway gets", () => {
    const secret = 's'.repeat(40);
    const edge = { 'x-origin-verify': secret };
    expect(originOf(event({ host: 'abc.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'd111.cloudfront.net', ...edge }), [secret])).toBe(
      'https://d111.cloudfront.net',
    );
    expect(originOf(event({ host: 'api.example.com', 'x-forwarded-host': 'evil.com/x', ...edge }), [secret])).toBeUndefined();
  });

  it("falls back to API Gateway's domain name and to https", () => {
    expect(originOf(event({}, 'abc.execute-api.eu-west-1.amazonaws.com'))).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(originOf(event({ host: 'api.example.com', 'x-forwarded-proto': 'gopher' }))).toBe('https://api.example.com');
  });

  it('refuses a host that is no host (links stay relative)', () => {
    for (const host of ['evil.com/path', 'a b', 'x@evil.com', 'evil.com:99999999', '"><script>', '']) {
      expect(originOf(event({ host })), host).toBeUndefined();
    }
    expect(originOf(event({}))).toBeUndefined();
  });
});

describe('OpenAPI document as a teacher', () => {
  it('describes every tag with its area declaration', () => {
    const tags = doc.tags as { name: string; description?: string }[];
    expect(tags.map((t) => t.name).sort()).toEqual(DECLARATIONS.map((d) => d.area).sort());
    for (const d of DECLARATIONS) {
      expect(d.description.length, d.area).toBeGreaterThan(30);
      expect(tags.find((t) => t.name === d.area)?.description).toBe(d.description);
    }
  });

  it('names the origin it was fetched from as its server, relative without one', () => {
    expect(doc.servers).toEqual([{ url: '/' }]);
    const fetched = buildOpenApiDocument('https://api.example.com') as Json;
    expect(fetched.servers).toEqual([{ url: 'https://api.example.com', description: expect.any(String) }]);
    expect({ ...fetched, servers: doc.servers }).toEqual(doc);
  });
});

describe('reference page', () => {
  it('loads only its own scripts, under a policy that allows nothing from elsewhere', () => {
    const page = referencePageReply();
    const html = page.raw!.bytes.toString('utf8');
    expect(page.raw!.contentType).toMatch(/^text\/html/);
    expect([...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1])).toEqual(['/docs/assets/api-reference.js', '/docs/assets/reference.js']);
    expect(html).not.toMatch(/<script>|https?:\/\//);
    expect(page.headers!['content-security-policy']).toBe(REFERENCE_CONTENT_SECURITY_POLICY);
    const directives = new Map(REFERENCE_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('serves its assets gzipped when accepted, as they are otherwise, and nothing else', () => {
    expect(REFERENCE_ASSET_NAMES).toEqual(['api-reference.js', 'reference.js']);
    const plain = referenceAssetReply('reference.js', undefined);
    expect(plain.headers).not.toHaveProperty('content-encoding');
    expect(plain.raw!.bytes.toString('utf8')).toContain('Scalar.createApiReference');
    expect(plain.raw!.bytes.toString('utf8')).toContain('withDefaultFonts: false');
    const gzipped = referenceAssetReply('reference.js', 'br, gzip;q=0.8');
    expect(gzipped.headers!['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.raw!.bytes).equals(plain.raw!.bytes)).toBe(true);
    expect(referenceAssetReply('reference.js', 'gzip;q=0').headers).not.toHaveProperty('content-encoding');
    expect(() => referenceAssetReply('../../package.json', 'gzip')).toThrow(/not found/);
    expect(() => referenceAssetReply('toString', 'gzip')).toThrow(/not found/);
  });
});
