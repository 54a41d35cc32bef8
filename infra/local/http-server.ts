import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { config } from '../../shared/platform/config';
import type { ErrorCode } from '../../shared/platform/errors';
import { routeKey, type Area } from '../../shared/http/declarations';
import { errorBodyOf } from '../../shared/http/error-body';
import { originOf } from '../../shared/http/origin';
import { matchPreflight, matchRoute } from '../../shared/http/route-match';
import { logAccess, requestIdOf } from '../../shared/http/request-context';
import type { HttpEvent, HttpResult } from '../../shared/http/types';
import { isConsolePath, serveConsole, startConsoleBuild } from './console-files';
import { areaHandlers } from './handlers';
import { lambdaContext } from './lambda-runtime';
import { say } from './log-output';

const TEXT_TYPES = /^(application\/([\w.+-]+\+)?json|application\/x-www-form-urlencoded|text\/)/i;

/**
 * How much of an oversized body we read and discard before answering 413, so the client finishes
 * sending and then reads the answer (closing on unread data resets the connection: the client sees
 * EPIPE or ECONNRESET instead of the 413). Past this, or after `DISCARD_MS`, we answer and close.
 */
const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 10_000;

/** The body, or `tooLarge` once it passed `limit` (the rest was read and discarded, up to a bound). */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: false } | { tooLarge: true; drained: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > DISCARD_LIMIT_BYTES;
    let timer: NodeJS.Timeout | undefined;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      req.removeAllListeners('data');
      resolve({ tooLarge: true, drained });
    };
    if (tooLarge) return finish(false);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!tooLarge && size > limit) {
        tooLarge = true;
        chunks.length = 0;
        timer = setTimeout(() => finish(false), DISCARD_MS);
      }
      if (tooLarge) {
        if (size > DISCARD_LIMIT_BYTES) finish(false);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (tooLarge ? finish(true) : resolve({ body: Buffer.concat(chunks), tooLarge: false })));
    req.on('error', reject);
  });
}

const JSON_TYPE = 'application/json; charset=utf-8';
const errorBody = (code: ErrorCode, message: string, requestId: string, host: string | undefined) =>
  JSON.stringify(errorBodyOf({ code, message, requestId, origin: originOf({ headers: { host, 'x-forwarded-proto': 'http' } }) }));

/**
 * Requests node:http refuses before they reach us (request line or headers over `maxHeaderSize`,
 * malformed HTTP) still get the one JSON error shape, instead of node's bare 431/400 or a reset.
 */
function onClientError(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = `req_${randomUUID().replace(/-/g, '')}`;
  const [status, reason, code, message]: [number, string, ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'REQUEST_HEADER_FIELDS_TOO_LARGE', 'The URL or the headers are too large']
      : err.code === 'HPE_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'BAD_REQUEST', 'The request was not received in time']
        : [400, 'Bad Request', 'BAD_REQUEST', 'Malformed HTTP request'];
  // No request to read a Host from: the address the client connected to.
  const local = socket as Duplex & { localAddress?: string; localPort?: number };
  const host =
    local.localAddress && local.localPort
      ? `${local.localAddress.includes(':') ? `[${local.localAddress}]` : local.localAddress}:${local.localPort}`
      : undefined;
  const body = errorBody(code, message, requestId, host);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * The path as the caller sent it, as API Gateway passes it on: no dot segments resolved (WHATWG URL
 * parsing would read `/stores/%2e%2e` as `/`, another route than the one asked for).
 */
export function rawPathOf(req: IncomingMessage): string {
  const target = req.url ?? '/';
  return target.startsWith('/') ? target.replace(/[?#].*$/s, '') : new URL(target, 'http://local').pathname;
}

/** Builds the API Gateway HTTP API (payload 2.0) event that Lambda would receive. */
export function toEvent(req: IncomingMessage, body: Buffer, routeKeyValue: string, params: Record<string, string> | undefined): HttpEvent {
  const url = new URL(req.url ?? '/', 'http://local');
  // Without a prototype: a header or parameter named `__proto__` or `constructor` is a name like any other.
  const headers: Record<string, string> = Object.create(null);
  // Every value of a repeated header, joined with commas as API Gateway does (node:http keeps only
  // the first Authorization, which would hide a second credential).
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (values === undefined || name === 'cookie') continue;
    headers[name] = values.join(',');
  }
  const query: Record<string, string> = Object.create(null);
  for (const [k, v] of url.searchParams) query[k] = Object.hasOwn(query, k) ? `${query[k]},${v}` : v;
  // As API Gateway does: the scheme the caller used (here always plain http).
  headers['x-forwarded-proto'] = 'http';
  const now = new Date();
  const isText = body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  return {
    version: '2.0',
    routeKey: routeKeyValue,
    rawPath: rawPathOf(req),
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
        path: rawPathOf(req),
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
  // Built while the rest starts; a failed build is reported on the first console request.
  startConsoleBuild().catch(() => undefined);
  const server = createServer(async (req, res) => {
    const startedAt = Date.now();
    try {
      const read = await readBody(req, config.http.transportMaxBodyBytes);
      if (read.tooLarge) {
        const requestId = requestIdOf({ headers: { 'x-request-id': String(req.headers['x-request-id'] ?? '') } });
        const answer = errorBody('PAYLOAD_TOO_LARGE', 'Request body too large', requestId, req.headers.host);
        // Refused here as API Gateway would refuse it; the access line still says so.
        const path = rawPathOf(req);
        logAccess({ requestId, method: req.method, path, status: 413, errorCode: 'PAYLOAD_TOO_LARGE', durationMs: Date.now() - startedAt });
        res.writeHead(413, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(answer), 'x-request-id': requestId, connection: 'close' });
        // Answered once the body is read (or we gave up reading it); then the connection closes.
        res.end(answer, () => {
          if (!read.drained) req.destroy();
        });
        return;
      }
      const body = read.body;
      const path = rawPathOf(req);
      // In AWS, CloudFront serves these from the bucket; they never reach API Gateway.
      if (isConsolePath(path)) return await serveConsole(req, res, path);
      const match = matchRoute(req.method ?? 'GET', path);
      // The consumer routes' OPTIONS routes (CORS preflights) go to their area, as in API Gateway.
      const preflight = req.method === 'OPTIONS' ? matchPreflight(path) : undefined;
      const [area, key, params]: [Area, string, Record<string, string> | undefined] = preflight
        ? [preflight.area, preflight.routeKey, preflight.params]
        : match.kind === 'route'
          ? [match.route.area, routeKey(match.route), match.params]
          : ['system', '$default', undefined];
      const handler = areaHandlers[area];
      send(res, await handler(toEvent(req, body, key, params), lambdaContext(`loyalty-${area}`), { signal: new AbortController().signal }));
    } catch (err) {
      say.error('local http adapter failure', { error: err });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      res.end(errorBody('INTERNAL', 'Internal error', 'local-adapter', req.headers.host));
    }
  });
  server.on('clientError', onClientError);
  return server;
}
