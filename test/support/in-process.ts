import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { FileKeyVault } from '../../infra/local/file-key-vault';
import { areaHandlers } from '../../infra/local/handlers';
import { lambdaContext } from '../../infra/local/lambda-runtime';
import { LocalSecrets } from '../../infra/local/local-secrets';
import { provideAdapters, provided } from '../../shared/platform/adapters/provided';
import { routeKey } from '../../shared/http/declarations';
import { matchRoute } from '../../shared/http/route-match';
import type { HttpEvent } from '../../shared/http/types';

export interface InProcessAnswer<T = any> {
  status: number;
  headers: Record<string, string>;
  /** Set-Cookie values (API Gateway's `cookies`). */
  cookies: string[];
  body: T;
}

/**
 * Calls an area's Lambda handler in this process, with the API Gateway (payload 2.0) event the
 * local HTTP server would build: the whole middy chain (authentication, idempotency, operation) runs
 * here, so the store requests it makes can be observed. The process must be configured for the
 * platform's store first (TABLE_NAME, DYNAMODB_ENDPOINT, ...).
 */
export async function inProcess<T = any>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; cookies?: string[] } = {},
): Promise<InProcessAnswer<T>> {
  // The key vault the runtime seals signing secrets with (its DATA_DIR), as the runtime provides it.
  if (!provided.keyVault) provideAdapters({ keyVault: new FileKeyVault(inject('dataDir')) });
  // And its secrets (the page cursor key of its DATA_DIR), as the runtime provides them.
  if (!provided.secrets) provideAdapters({ secrets: new LocalSecrets(inject('dataDir')) });
  const url = new URL(path, 'http://local');
  const match = matchRoute(method, url.pathname);
  if (match.kind !== 'route') throw new Error(`${method} ${url.pathname} is not a route (${match.kind})`);
  const key = routeKey(match.route);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const query = Object.fromEntries(url.searchParams);
  const now = new Date();
  const event: HttpEvent = {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(opts.cookies ? { cookies: opts.cookies } : {}),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(match.params).length ? match.params : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: '127.0.0.1',
      domainPrefix: 'local',
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'in-process' },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    isBase64Encoded: false,
  };
  const result = await areaHandlers[match.route.area](event, lambdaContext(`loyalty-${match.route.area}`), { signal: new AbortController().signal });
  const text = result.body ?? '';
  return {
    status: result.statusCode ?? 200,
    headers: (result.headers ?? {}) as Record<string, string>,
    cookies: result.cookies ?? [],
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}
