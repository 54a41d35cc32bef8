import { createServer, type Server, type Socket } from 'node:net';
import type { HttpEvent } from '../../shared/http/types';

/** A TCP port on 127.0.0.1 where nothing listens (bound once, then closed): connections are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export interface FrozenStore {
  endpoint: string;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A "frozen" store, like a DynamoDB Local JVM stopped with SIGSTOP: it accepts connections and
 * reads requests, and never answers.
 */
export async function frozenStore(): Promise<FrozenStore> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** An API Gateway v2 event for one route, as the local runtime and AWS build it. */
export function httpEvent(method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown } = {}): HttpEvent {
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    requestContext: { http: { method, path }, requestId: 'unit' },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    isBase64Encoded: false,
  } as unknown as HttpEvent;
}

/** A well-formed API key no store knows (43 characters after the prefix). */
export const SOME_API_KEY = `fl_live_${'A'.repeat(43)}`;
