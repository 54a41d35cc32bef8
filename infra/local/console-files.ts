import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ConsoleBuild, buildConsole, CONSOLE_ASSETS_PATH, CONSOLE_PATH, consoleContentSecurityPolicy } from '../build/console';

/**
 * The console's static files, as CloudFront serves them from the bucket in AWS: built once when the
 * server starts (in memory), hashed assets cached for a year, the page always checked again, gzip
 * when the browser takes it, the page under a strict Content-Security-Policy. Every address under
 * /console that is not an asset is the page (the app routes in the browser).
 */

let building: Promise<ConsoleBuild> | undefined;
export const startConsoleBuild = (): Promise<ConsoleBuild> => {
  building ??= buildConsole();
  return building;
};

export const isConsolePath = (path: string): boolean => path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);

/** The local bucket's origin (s3rver's, path-style links): where the console PUTs an import file. */
const uploadOrigin = (): string => (process.env.S3_ENDPOINT ? new URL(process.env.S3_ENDPOINT).origin : '');

export async function serveConsole(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end('Method not allowed');
    return;
  }
  const built = await startConsoleBuild();
  const file = path.startsWith(CONSOLE_ASSETS_PATH) ? built.files.get(path) : built.page;
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
    res.end('Not found');
    return;
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? file.gzip : file.body;
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': body.length,
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    ...(file.immutable ? {} : { 'content-security-policy': consoleContentSecurityPolicy(uploadOrigin()) }),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
