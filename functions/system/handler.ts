import middy from '@middy/core';
import { AppError } from '../../shared/domain/errors';
import { errorMapper } from '../../shared/http/error-mapper';
import { requestContext } from '../../shared/http/request-context';
import { matchRoute } from '../../shared/http/route-match';
import type { AppContext, HttpEvent, HttpResult } from '../../shared/http/types';

/**
 * API Gateway's `$default` route: everything the route table does not name. Answers 405 with
 * `Allow` for a known path with another method, else 404, in the platform's error format.
 */
export const handler = middy<HttpEvent, HttpResult, Error, AppContext>()
  .use(requestContext('system'))
  .use(errorMapper())
  .handler(async (event) => {
    const method = event.requestContext.http.method;
    const path = event.rawPath;
    const match = matchRoute(method, path);
    if (match.kind === 'method_not_allowed') {
      throw new AppError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, undefined, { allow: match.allow.join(', ') });
    }
    throw new AppError('NOT_FOUND', `No endpoint ${method} ${path}`);
  });
