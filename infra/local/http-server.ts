import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { config } from '../../shared/config';
import { routeKey, type Area } from '../../shared/contracts/index';
import { matchRoute } from '../../shared/http/route-match';
import { requestIdOf } from '../../shared/http/request-context';
import type { HttpEvent, HttpResult } from '../../shared/http/types';
import { areaHandlers } from './handlers';
import { lambdaContext } from './lambda-runtime';

const TEXT_TYPES = /^(application\/([\w.+-]+\+)?json|application\/x-www-form-urlencoded|text\/)/i;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Builds the API Gateway HTTP API (payload 2.0) event that Lambda would receive. */
export function toEvent(req: IncomingMessage, body: Buffer, routeKeyValue: string, params: Record<string, string> | undefined): HttpEvent {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const now = new Date();
  const isText = body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  return {
    version: '2.0',
    routeKey: routeKeyValue,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie?.split(/;\s*/),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: params && Object.keys(params).length ? params : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: routeKeyValue,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
}


function send(res: ServerResponse, result: HttpResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(body);
}

/**
 * The local stand-in for API Gateway: routes from the route table to the same area handlers,
 * and sends everything else to the `system` handler (404/405), exactly as the `$default` route does.
 */
export function createHttpServer(): Server {
  return createServer(async (req, res) => {
    try {
      let body: Buffer;
      try {
        body = await readBody(req, config.http.transportMaxBodyBytes);
      } catch (err) {
        if (!(err instanceof BodyTooLarge)) throw err;
        const requestId = requestIdOf({ headers: { 'x-request-id': String(req.headers['x-request-id'] ?? '') } });
        res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, connection: 'close' });
        res.end(JSON.stringify({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large', requestId } }));
        req.destroy();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://local');
      const match = matchRoute(req.method ?? 'GET', url.pathname);
      const [area, key, params]: [Area, string, Record<string, string> | undefined] =
        match.kind === 'route' ? [match.route.area, routeKey(match.route), match.params] : ['system', '$default', undefined];
      const handler = areaHandlers[area];
      send(res, await handler(toEvent(req, body, key, params), lambdaContext(`loyalty-${area}`), { signal: new AbortController().signal }));
    } catch (err) {
      console.error('local http adapter failure', err);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal error', requestId: 'local-adapter' } }));
    }
  });
}
