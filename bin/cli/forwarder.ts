import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Forwarded {
  webhookId: string | undefined;
  eventType: string | undefined;
  /** The forward target's status; undefined when it could not be reached. */
  status: number | undefined;
  error?: string;
}

// Per connection, not per message: never passed on.
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection', 'te', 'trailer']);

const forwardable = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([k, v]) => !HOP_BY_HOP.has(k) && v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v!]),
  );

function eventTypeOf(body: Buffer): string | undefined {
  try {
    return (JSON.parse(body.toString('utf8')) as { type?: string }).type;
  } catch {
    return undefined;
  }
}

/**
 * A receiver on 127.0.0.1 that POSTs each delivery on to `target` with the same headers (the
 * signature ones included) and the same bytes, so the target verifies it with the endpoint's secret.
 * The platform gets the target's answer (502 when the target cannot be reached), so retries behave as
 * they would against the target itself.
 */
export async function startForwarder(target: URL, onForwarded: (f: Forwarded) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const seen = { webhookId: req.headers['webhook-id'] as string | undefined, eventType: eventTypeOf(body) };
      try {
        const answer = await fetch(target, {
          method: req.method,
          headers: forwardable(req.headers),
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        });
        const text = await answer.text();
        onForwarded({ ...seen, status: answer.status });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
        res.end(text);
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        const error = cause?.code ?? cause?.message ?? (e as Error).message;
        onForwarded({ ...seen, status: undefined, error });
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`could not reach ${target.href}: ${error}`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
