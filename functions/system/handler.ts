import { systemArea } from '../../shared/system';
import { AppError } from '../../shared/platform/errors';
import { defineArea } from '../../shared/http/area';
import { matchApiRoute, openApiDocument } from '../../shared/http/openapi-file';
import { API_BASE_WITH_SLASH, OPENAPI_PATH, REFERENCE_PATH } from '../../shared/platform/contract/reference';
import { referenceAssetReply, referencePageReply } from '../../shared/http/reference-page';
import { ok, type Reply } from '../../shared/http/responses';
import type { AppContext, HttpEvent } from '../../shared/http/types';

const apiIndex = (origin: string | undefined): Reply => ok({ reference: `${origin ?? ''}${REFERENCE_PATH}`, openapi: `${origin ?? ''}${OPENAPI_PATH}` });

/**
 * API Gateway's `$default` route (everything the route table does not name: 405 with `Allow` for a
 * known path with another method, else 404), plus the base path with a trailing slash, which no
 * route can be declared for. The routes are the ones the API document names, so the bundle carries
 * no contract but its own.
 */
async function notRouted(event: HttpEvent, context: AppContext): Promise<Reply> {
  const method = event.requestContext.http.method;
  const path = event.rawPath;
  if (method === 'GET' && path === API_BASE_WITH_SLASH) return apiIndex(context.origin);
  // The base path with its slash answers as the base path does (405 for another method).
  const match = matchApiRoute(method, path === API_BASE_WITH_SLASH ? API_BASE_WITH_SLASH.slice(0, -1) : path);
  if (match.kind === 'method_not_allowed') {
    throw new AppError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, undefined, { allow: match.allow.join(', ') });
  }
  throw new AppError('NOT_FOUND', `No endpoint ${method} ${path}`);
}

export const handler = defineArea(
  systemArea,
  {
    // The document itself is the body (no `{ data }` envelope), so tools can load the URL directly.
    getOpenApi: async ({ context }) => ({ status: 200, body: openApiDocument(context.origin), headers: { 'content-type': 'application/json' } }),
    getReference: async () => referencePageReply(),
    getReferenceAsset: async ({ params, headers }) => referenceAssetReply(params.file, headers['accept-encoding']),
    getRoot: async () => ({ status: 302, headers: { location: REFERENCE_PATH } }),
    getApiIndex: async ({ context }) => apiIndex(context.origin),
  },
  notRouted,
);
