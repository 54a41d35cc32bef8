import { connect, createServer, type Server, type Socket } from 'node:net';

export interface LossyProxy {
  endpoint: string;
  /** Requests of the target operation seen / whose answers were swallowed. */
  requests: number;
  swallowed: number;
  close(): Promise<void>;
}

export const TRANSACT = 'DynamoDB_20120810.TransactWriteItems';

/**
 * A TCP proxy in front of DynamoDB Local that forwards everything to `upstream`, and drops the
 * answers of the first `swallow` requests of the `target` operation (its x-amz-target, default
 * TransactWriteItems): the write is applied, the client times out. With `refuseAfterSwallow`, the
 * proxy stops listening after the first swallow (the store becomes unreachable: connections refused).
 */
export async function lossyProxy(
  upstream: URL,
  opts: {
    swallow: number;
    refuseAfterSwallow?: boolean;
    target?: string;
    /** Pass the first answer of the target on, then stop listening and cut every connection (the store died just after answering). */
    dieAfterAnswer?: boolean;
    /** When the n-th request of the target arrives (from 1), drop it unsent, stop listening and cut every connection (the store died before it). */
    dieAtRequest?: number;
  },
): Promise<LossyProxy> {
  const target = opts.target ?? TRANSACT;
  const sockets = new Set<Socket>();
  let budget = opts.swallow;
  let died = false;
  const state = { requests: 0, swallowed: 0 };
  const server: Server = createServer((client) => {
    const up = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(up);
    let swallowing = false;
    let dying = false;
    client.on('data', (chunk: Buffer) => {
      if (chunk.toString('latin1').includes(target)) {
        state.requests++;
        if (state.requests === opts.dieAtRequest) {
          died = true;
          server.close();
          for (const s of sockets) s.destroy();
          return;
        }
        if (opts.dieAfterAnswer && !died) dying = died = true;
        if (budget > 0) {
          budget--;
          state.swallowed++;
          swallowing = true;
          if (opts.refuseAfterSwallow) server.close();
        }
      }
      up.write(chunk);
    });
    up.on('data', (chunk: Buffer) => {
      if (dying) {
        // The answer (saying the connection closes, so none is reused), then the end: new ones are refused.
        server.close();
        client.end(Buffer.from(chunk.toString('latin1').replace('\r\n', '\r\nConnection: close\r\n'), 'latin1'));
        for (const s of sockets) if (s !== client) s.destroy();
        return;
      }
      if (!swallowing) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      up.destroy();
    };
    for (const s of [client, up]) {
      s.on('error', end);
      s.on('close', end);
      s.on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get swallowed() {
      return state.swallowed;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => (server.listening ? server.close(() => r()) : r()));
    },
  };
}
