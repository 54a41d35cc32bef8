import { systemArea } from '../../shared/contracts/system';
import { AppError } from '../../shared/domain/errors';
import { defineArea } from '../../shared/http/area';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { matchRoute } from '../../shared/http/route-match';
import type { HttpEvent } from '../../shared/http/types';

/**
 * API Gateway's `$default` route (everything the route table does not name: 405 with `Allow` for a
 * known path with another method, else 404) and the platform's own documents.
 */
async function notRouted(event: HttpEvent): Promise<never> {
  const method = event.requestContext.http.method;
  const path = event.rawPath;
  const match = matchRoute(method, path);
  if (match.kind === 'method_not_allowed') {
    throw new AppError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, undefined, { allow: match.allow.join(', ') });
  }
  throw new AppError('NOT_FOUND', `No endpoint ${method} ${path}`);
}

export const handler = defineArea(
  systemArea,
  {
    // The document itself is the body (no `{ data }` envelope), so tools can load the URL directly.
    getOpenApi: async () => ({ status: 200, body: buildOpenApiDocument(), headers: { 'content-type': 'application/json' } }),
  },
  notRouted,
);
