import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { notFound } from '../platform/errors';
import { OPENAPI_PATH, REFERENCE_DOCUMENT_SLUG, REFERENCE_PATH } from '../platform/contract/reference';
import { RENDERER_ASSET } from './reference-assets';
import type { Reply } from './responses';

/**
 * The API reference page (`GET /docs`): a small HTML page that loads the renderer and our own
 * start script from `/docs/assets/`, which render the live OpenAPI document. Everything is served
 * by the platform itself: no CDN, no fonts or telemetry from elsewhere, so it works offline and
 * its Content-Security-Policy can allow nothing but this origin.
 */

export const REFERENCE_ASSETS_PATH = `${REFERENCE_PATH}/assets`;

const DESCRIPTION_ANCHOR = `${REFERENCE_DOCUMENT_SLUG}/description/`;

/**
 * Keeps the address of a section of the document's description (an error code's, which is where
 * `docUrl` leads) while its heading is in view. Once the page has scrolled to the section, the
 * renderer sees its document start leave the viewport and names the address after the <section>
 * at the viewport's centre; the description's headings are no sections of their own, so that is
 * always the introduction, and a copied address lost the code. Only that rewrite is dropped: once
 * the heading is out of view, or for any other address, the renderer's updates go through.
 */
const KEEP_DESCRIPTION_ANCHOR = `(() => {
  const prefix = ${JSON.stringify(DESCRIPTION_ANCHOR)};
  const introduction = '#' + prefix + 'introduction';
  const replace = history.replaceState.bind(history);
  const inView = (id) => {
    const box = document.getElementById(id)?.getBoundingClientRect();
    return box !== undefined && box.bottom > 0 && box.top < window.innerHeight;
  };
  history.replaceState = (state, unused, url) => {
    const current = decodeURIComponent(location.hash.slice(1));
    const next = url == null ? undefined : new URL(url, location.href).hash;
    if (next === introduction && current.startsWith(prefix) && '#' + current !== introduction && inView(current)) return;
    replace(state, unused, url);
  };
})();
`;

/**
 * The renderer's settings: the live document under a fixed slug (the first part of every anchor,
 * so `docUrlOf` links stay valid); everything that would reach a third-party service (Scalar's
 * fonts, telemetry, AI agent, MCP integration) off.
 */
const START_SCRIPT = `${KEEP_DESCRIPTION_ANCHOR}Scalar.createApiReference('#reference', {
  url: ${JSON.stringify(OPENAPI_PATH)},
  title: 'Loyalty platform API',
  slug: ${JSON.stringify(REFERENCE_DOCUMENT_SLUG)},
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideDarkModeToggle: false,
  documentDownloadType: 'json',
  orderRequiredPropertiesFirst: true,
  defaultOpenFirstTag: true,
});
`;

/** The files under `/docs/assets/`: name -> how to get its bytes. */
const ASSETS: Record<string, () => Buffer> = {
  'api-reference.js': () => readFileSync(rendererFile()),
  'reference.js': () => Buffer.from(START_SCRIPT, 'utf8'),
};
export const REFERENCE_ASSET_NAMES = Object.keys(ASSETS);

/** Next to the function bundle (Lambda), else the package in the nearest node_modules (local runtime, tests). */
function rendererFile(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const shipped = join(here, RENDERER_ASSET.shippedAs);
  if (existsSync(shipped)) return shipped;
  for (let dir = here; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', RENDERER_ASSET.package, RENDERER_ASSET.file);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir)
      throw new Error(`The reference page's renderer is missing: neither ${shipped} nor ${RENDERER_ASSET.package}/${RENDERER_ASSET.file} in node_modules`);
  }
}

// Read and compressed once per process, on first use (the renderer is ~4.7 MiB, ~1.3 MiB gzipped).
const loaded = new Map<string, { identity: Buffer; gzip: Buffer }>();
function asset(name: string) {
  let a = loaded.get(name);
  if (!a) {
    const identity = ASSETS[name]!();
    a = { identity, gzip: gzipSync(identity) };
    loaded.set(name, a);
  }
  return a;
}

const acceptsGzip = (acceptEncoding: string | undefined) =>
  (acceptEncoding ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    return (coding === 'gzip' || coding === '*') && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });

/** One file of `/docs/assets/`, gzipped when the caller accepts it (the renderer would not fit Lambda's 6 MB answer base64-encoded). */
export function referenceAssetReply(name: string, acceptEncoding: string | undefined): Reply {
  if (!Object.hasOwn(ASSETS, name)) throw notFound(`Asset ${name}`);
  const { identity, gzip } = asset(name);
  const compressed = acceptsGzip(acceptEncoding);
  return {
    status: 200,
    headers: {
      // Not fingerprinted: cached briefly, so a deployment reaches browsers within the hour.
      'cache-control': 'public, max-age=3600',
      vary: 'accept-encoding',
      ...(compressed ? { 'content-encoding': 'gzip' } : {}),
    },
    raw: { contentType: 'text/javascript; charset=utf-8', bytes: compressed ? gzip : identity },
  };
}

/**
 * The page's policy: scripts only from this origin (no inline script, no eval); data only from
 * this origin; no frames, forms, plugins or base changes. Styles allow inline ones: the renderer's
 * components insert style elements of their own, which a nonce does not reach (tried: 15 violations),
 * and a style cannot run script.
 */
export const REFERENCE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function referencePageReply(): Reply {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Loyalty platform API reference</title>
</head>
<body>
<noscript>The reference needs JavaScript. The API itself is described by <a href="${OPENAPI_PATH}">its OpenAPI document</a>.</noscript>
<div id="reference"></div>
<script src="${REFERENCE_ASSETS_PATH}/api-reference.js"></script>
<script src="${REFERENCE_ASSETS_PATH}/reference.js"></script>
</body>
</html>
`;
  return {
    status: 200,
    headers: {
      'content-security-policy': REFERENCE_CONTENT_SECURITY_POLICY,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    },
    raw: { contentType: 'text/html; charset=utf-8', bytes: Buffer.from(html, 'utf8') },
  };
}
