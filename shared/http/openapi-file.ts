import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpMethod } from '../platform/contract/endpoint';
import { type RouteMatch, type Routable, routeMatcher } from './route-matcher';

/**
 * The OpenAPI document as the system function serves it. Lambda reads it from the file rendered at
 * build time and shipped next to the bundle (`SHIPPED_FILES`), so the bundle carries none of the
 * areas' contracts; run from the sources (the local runtime, tests), it is built from them
 * (`serveDocumentFromSources`).
 */

type Document = Record<string, unknown>;

/** The rendered document: where it sits next to the function bundle (`index.mjs`), and which function ships it. */
export const OPENAPI_FILE = { shippedAs: 'openapi.json', function: 'system' } as const;

interface Surface {
  document: () => Document;
  /** Resolves a request against every route of the API (the document names each one). */
  match: (method: string, path: string) => RouteMatch<Routable>;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The routes a document names: each operation of each path. */
export const routesOfDocument = (document: Document): Routable[] =>
  Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
    METHODS.filter((m) => Object.hasOwn(operations, m.toLowerCase())).map((method) => ({ method, path: path as Routable['path'] })),
  );

/** What the sources give: the document built from the declarations, and the route table. */
export interface DocumentSource {
  document: () => Document;
  routes: readonly Routable[];
}

let sources: DocumentSource | undefined;

/**
 * Where a process that runs from the sources (the local runtime, tests), with no file shipped next
 * to it, gets the document: installed by the local runtime's handler table, so no bundle takes the
 * generator in.
 */
export function serveDocumentFromSources(source: DocumentSource): void {
  sources = source;
  loaded = undefined;
}

let loaded: Surface | undefined;

/** Read once per process, on first use (a 404 needs the routes, `GET /api/v2/openapi.json` the document). */
function surface(): Surface {
  if (loaded) return loaded;
  const shipped = join(dirname(fileURLToPath(import.meta.url)), OPENAPI_FILE.shippedAs);
  if (existsSync(shipped)) {
    const document = JSON.parse(readFileSync(shipped, 'utf8')) as Document;
    loaded = { document: () => document, match: routeMatcher(routesOfDocument(document)) };
  } else if (sources) {
    const { document, routes } = sources;
    let built: Document | undefined;
    loaded = { document: () => (built ??= document()), match: routeMatcher(routes) };
  } else throw new Error(`The OpenAPI document is missing: ${OPENAPI_FILE.shippedAs} was not shipped next to the bundle (${shipped})`);
  return loaded;
}

/**
 * A document whose `servers` names the origin the caller reached the platform at (`originOf`), so
 * the reference page's requests and generated clients go there; without one it stays relative (`/`).
 */
export const servedFrom = (document: Document, origin?: string): Document =>
  origin ? { ...document, servers: [{ url: origin, description: 'This platform, as the document was fetched from it' }] } : document;

/** The document as fetched from `origin` (see `servedFrom`). */
export function openApiDocument(origin?: string): Document {
  return servedFrom(surface().document(), origin);
}

/** Resolves a request against every route of the API, as API Gateway does (for the `$default` route's 404 and 405). */
export function matchApiRoute(method: string, path: string): RouteMatch<Routable> {
  return surface().match(method, path);
}
