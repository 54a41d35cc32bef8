import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SafeEgress, type EgressLookup } from '../../../../../shared/platform/adapters/egress';
import type { EgressRequest } from '../../../../../shared/platform/ports/egress';

// Real node:http servers on 127.0.0.1; the egress runs with allowLoopback (the local-runtime policy).

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  seen: Seen[];
  connections: number;
  server: Server;
}

const servers: Server[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void, readBody = true): Promise<TestServer> {
  const state: TestServer = { port: 0, seen: [], connections: 0, server: undefined as unknown as Server };
  const server = createServer((req, res) => {
    const seen: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
    state.seen.push(seen);
    if (!readBody) return handler(req, res, seen);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.body = Buffer.concat(chunks).toString('utf8');
      handler(req, res, seen);
    });
  });
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.server = server;
  servers.push(server);
  return state;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const LOCAL = { allowLoopback: true };

function request(url: string, extra: Partial<EgressRequest> = {}): EgressRequest {
  return { url, headers: {}, body: '', timeoutMs: 3000, readCapBytes: 4096, excerptBytes: 128, ...extra };
}

describe('SafeEgress over real HTTP (loopback)', () => {
  it('sends exactly the given headers and body and returns status, lower-cased headers and the excerpt', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(201, { 'X-Receiver': 'ok', 'Content-Type': 'text/plain' });
      res.end('accepted ✓');
    });
    const body = JSON.stringify({ type: 'member.created', name: 'Zoë 日本' });
    const started = performance.now();
    const result = await new SafeEgress(LOCAL).post(
      request(`http://127.0.0.1:${target.port}/hooks/in?x=1`, {
        headers: { 'Content-Type': 'application/json', 'X-Signature': 't=1,v1=abc', 'User-Agent': 'loyalty-webhooks/1' },
        body,
      }),
    );
    expect(result).toMatchObject({ kind: 'response', status: 201, bodyExcerpt: 'accepted ✓' });
    if (result.kind !== 'response') throw new Error('unreachable');
    expect(result.headers['x-receiver']).toBe('ok');
    expect(result.headers['content-type']).toBe('text/plain');
    expect(Object.keys(result.headers).every((k) => k === k.toLowerCase())).toBe(true);
    // Whole milliseconds from the call to the end of the response.
    expect(Number.isInteger(result.durationMs)).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.durationMs).toBeLessThanOrEqual(Math.ceil(performance.now() - started));

    expect(target.seen).toHaveLength(1);
    const seen = target.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/hooks/in?x=1');
    expect(seen.body).toBe(body);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['x-signature']).toBe('t=1,v1=abc');
    expect(seen.headers['user-agent']).toBe('loyalty-webhooks/1');
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen.headers['transfer-encoding']).toBeUndefined();
    expect(seen.headers.host).toBe(`127.0.0.1:${target.port}`);
  });

  it('reads at most readCapBytes of a large body and returns exactly excerptBytes, without waiting for the end', async () => {
    let closedByClient = false;
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a'.repeat(256 * 1024)); // far more than the cap, and the response never ends
      res.on('close', () => (closedByClient = true));
    });
    const started = Date.now();
    const result = await new SafeEgress(LOCAL).post(request(`http://127.0.0.1:${target.port}/`, { timeoutMs: 5000, readCapBytes: 1000, excerptBytes: 100 }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    if (result.kind !== 'response') throw new Error('unreachable');
    expect(result.bodyExcerpt).toBe('a'.repeat(100));
    await vi.waitFor(() => expect(closedByClient).toBe(true), { timeout: 1000 });
  });

  it('never cuts a multi-byte character in the excerpt', async () => {
    const target = await serve((_req, res) => res.end('ééééé')); // 2 bytes each
    const result = await new SafeEgress(LOCAL).post(request(`http://127.0.0.1:${target.port}/`, { excerptBytes: 5 }));
    expect(result).toMatchObject({ kind: 'response', bodyExcerpt: 'éé' });
  });

  it('returns a 302 as is and does not follow the Location', async () => {
    const elsewhere = await serve((_req, res) => res.end('followed'));
    const redirecting = await serve((_req, res) => {
      res.writeHead(302, { Location: `http://127.0.0.1:${elsewhere.port}/next` });
      res.end();
    });
    const result = await new SafeEgress(LOCAL).post(request(`http://127.0.0.1:${redirecting.port}/`));
    expect(result).toMatchObject({ kind: 'response', status: 302, bodyExcerpt: '' });
    if (result.kind !== 'response') throw new Error('unreachable');
    expect(result.headers.location).toBe(`http://127.0.0.1:${elsewhere.port}/next`);
    // A request of our own, answered after anything sent there earlier: only it has arrived.
    expect(await (await fetch(`http://127.0.0.1:${elsewhere.port}/probe`, { method: 'POST' })).text()).toBe('followed');
    expect(elsewhere.seen.map((x) => x.url)).toEqual(['/probe']);
    expect(elsewhere.connections).toBe(1);
  });

  it('times out a server that never answers within about timeoutMs', async () => {
    const target = await serve(() => {}); // accepts, reads, never answers
    const started = Date.now();
    const result = await new SafeEgress(LOCAL).post(request(`http://127.0.0.1:${target.port}/`, { timeoutMs: 300 }));
    const took = Date.now() - started;
    expect(result).toMatchObject({ kind: 'error', timedOut: true });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1000);
  });

  it('the time-out also covers a body that trickles forever', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200);
      res.write('x');
    });
    const started = Date.now();
    const result = await new SafeEgress(LOCAL).post(request(`http://127.0.0.1:${target.port}/`, { timeoutMs: 300 }));
    expect(result).toMatchObject({ kind: 'error', timedOut: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a closed port is a retryable error, not a time-out', async () => {
    const gone = await serve(() => {});
    const port = gone.port;
    servers.splice(servers.indexOf(gone.server), 1);
    await new Promise<void>((resolve) => gone.server.close(() => resolve()));
    const result = await new SafeEgress(LOCAL).post(request(`http://127.0.0.1:${port}/`));
    expect(result).toMatchObject({ kind: 'error', timedOut: false, reason: expect.stringMatching(/refused/) });
  });

  it('a connection reset before the answer is a retryable error', async () => {
    const target = await serve((req) => req.socket.destroy());
    const result = await new SafeEgress(LOCAL).post(request(`http://127.0.0.1:${target.port}/`));
    expect(result).toMatchObject({ kind: 'error', timedOut: false });
  });

  it('connects to the one checked address of a hostname, keeps the hostname as Host and looks it up once', async () => {
    const target = await serve((_req, res) => res.end('hi'));
    const lookup = vi.fn<EgressLookup>(async (): Promise<LookupAddress[]> => [{ address: '127.0.0.1', family: 4 }]);
    const result = await new SafeEgress(LOCAL, lookup).post(request(`http://hooks.customer.test:${target.port}/in`, { body: 'x' }));
    expect(result).toMatchObject({ kind: 'response', status: 200, bodyExcerpt: 'hi' });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledWith('hooks.customer.test', { all: true, verbatim: true });
    expect(target.seen).toHaveLength(1);
    expect(target.seen[0]!.headers.host).toBe(`hooks.customer.test:${target.port}`);
  });

  it('connects to the FIRST answer when every answer is allowed', async () => {
    const first = await serve((_req, res) => res.end('first'));
    // 127.0.0.2 is loopback too but nothing listens there on this port (or something else does)
    const lookup = vi.fn<EgressLookup>(async () => [
      { address: '127.0.0.1', family: 4 },
      { address: '127.0.0.2', family: 4 },
    ]);
    const result = await new SafeEgress(LOCAL, lookup).post(request(`http://multi.test:${first.port}/`));
    expect(result).toMatchObject({ kind: 'response', bodyExcerpt: 'first' });
    expect(first.seen).toHaveLength(1);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('connects to a bracketed IPv6 loopback literal', async () => {
    const server = createServer((req, res) => res.end(`v6 ${req.headers.host}`));
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(0, '::1', () => resolve(true));
    });
    if (!listening) return; // no IPv6 loopback on this machine
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const result = await new SafeEgress(LOCAL).post(request(`http://[::1]:${port}/`));
    expect(result).toMatchObject({ kind: 'response', status: 200, bodyExcerpt: `v6 [::1]:${port}` });
  });

  it('the caller cannot override Host or Content-Length', async () => {
    const target = await serve((_req, res) => res.end());
    await new SafeEgress(LOCAL).post(
      request(`http://127.0.0.1:${target.port}/`, { headers: { Host: 'internal.admin', 'content-length': '999' }, body: 'abc' }),
    );
    expect(target.seen[0]!.headers.host).toBe(`127.0.0.1:${target.port}`);
    expect(target.seen[0]!.headers['content-length']).toBe('3');
    expect(target.seen[0]!.body).toBe('abc');
  });

  it('does not look up a literal address', async () => {
    const target = await serve((_req, res) => res.end('ok'));
    const lookup = vi.fn<EgressLookup>(async () => [{ address: '127.0.0.1', family: 4 }]);
    const result = await new SafeEgress(LOCAL, lookup).post(request(`http://127.0.0.1:${target.port}/`));
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('a TLS failure is a retryable error (https to a plain-http port, hostname pinned to 127.0.0.1)', async () => {
    const target = await serve(() => {}, false);
    const lookup = vi.fn<EgressLookup>(async () => [{ address: '127.0.0.1', family: 4 }]);
    const result = await new SafeEgress(LOCAL, lookup).post(request(`https://tls.test:${target.port}/`, { timeoutMs: 2000 }));
    expect(result).toMatchObject({ kind: 'error' });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(target.connections).toBe(1);
  });
});
