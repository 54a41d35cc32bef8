import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { FileKeyVault } from '../../../../infra/local/file-key-vault';
import { EnvelopeSealer } from '../../../../shared/platform/adapters/envelope-sealer';
import { listAuditEntries } from '../../../../shared/audit/repository';
import type { AuditContext } from '../../../../shared/audit/service';
import { login, register } from '../../../../shared/auth/service';
import { AppError } from '../../../../shared/platform/errors';
import { putProgram } from '../../../../shared/program/service';
import { DEFAULT_RULES } from '../../../../shared/program/schemas';
import { createEndpoint, deleteEndpoint } from '../../../../shared/webhooks/service';
import { newId } from '../../../../shared/platform/ids';
import { logger } from '../../../../shared/platform/observability/logger';
import { runtimeOf } from '../../../support/platform';

/**
 * The audit item is one item of the very transaction that makes the change: the services run in
 * this process against the platform's DynamoDB Local behind a proxy that records every request, so
 * the test reads the TransactWriteItems calls themselves. A change whose condition fails takes its
 * audit item down with it.
 */

interface Recorded {
  target: string;
  body: string;
}

const INJECTED_FAILURE = JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'injected by the test' });

/**
 * Forwards each HTTP request to `upstream` and records it (target header and body). A request that
 * `refuse` picks is answered with a 500 InternalServerError instead of being forwarded.
 */
async function recordingProxy(upstream: URL): Promise<{ endpoint: string; requests: Recorded[]; refuse: (r: Recorded) => boolean; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const proxy = { refuse: (_r: Recorded) => false };
  const server: Server = createServer((client) => {
    const up = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(up);
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = pending.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        const size = headEnd + 4 + length;
        if (pending.length < size) return;
        const request = { target: /\r\nx-amz-target:\s*(\S+)/i.exec(head)?.[1] ?? '', body: pending.subarray(headEnd + 4, size).toString('utf8') };
        requests.push(request);
        if (proxy.refuse(request)) {
          client.write(
            `HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: ${Buffer.byteLength(INJECTED_FAILURE)}\r\n\r\n${INJECTED_FAILURE}`,
          );
        } else {
          up.write(pending.subarray(0, size));
        }
        pending = pending.subarray(size);
      }
    });
    up.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      up.destroy();
    };
    client.on('error', end).on('close', end);
    up.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return Object.assign(proxy, {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}

type Proxy = Awaited<ReturnType<typeof recordingProxy>>;
let proxy: Proxy;

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  proxy = await recordingProxy(new URL(runtime.dynamodbEndpoint));
  // Read lazily by the modules under test (runtimeConfig parses on first use).
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: proxy.endpoint, AWS_REGION: 'eu-west-1' });
});

afterAll(async () => {
  await proxy?.close();
});

afterEach(() => {
  proxy.refuse = () => false;
});

/** The partition keys of each TransactWriteItems call made while `work` ran, one list per call. */
async function transactionsOf(work: () => Promise<unknown>): Promise<{ keys: string[][]; error?: unknown }> {
  const from = proxy.requests.length;
  let error: unknown;
  await work().catch((e: unknown) => {
    error = e;
  });
  const calls = proxy.requests.slice(from).filter((r) => r.target.endsWith('.TransactWriteItems'));
  const keys = calls.map((c) =>
    (JSON.parse(c.body).TransactItems as Record<string, { Item?: { pk: { S: string } }; Key?: { pk: { S: string } } }>[]).map((item) => {
      const [kind, op] = Object.entries(item)[0]!;
      return `${kind} ${(op.Item ?? op.Key)!.pk.S}`;
    }),
  );
  return { keys, error };
}

const auditPut = (workspaceId: string) => expect.stringMatching(new RegExp(`^Put WS#${workspaceId}#AUDIT#\\d{4}-\\d\\d-\\d\\d$`));
const ctx = (requestId: string): AuditContext => ({ actor: { type: 'apiKey', id: newId('key') }, requestId });

describe('the audit item rides in the transaction of the change it records', () => {
  it('a webhook endpoint: the endpoint item and the audit item are one TransactWriteItems call', async () => {
    const ws = newId('ws');
    const { keys, error } = await transactionsOf(() =>
      createEndpoint(
        ws,
        { url: 'https://hooks.example.com/tx', description: '', eventTypes: ['member.created'] },
        { egress: { check: () => undefined }, sealer: new EnvelopeSealer(new FileKeyVault(inject('dataDir'))) },
        ctx('req-tx-create'),
      ),
    );
    expect(error).toBeUndefined();
    expect(keys).toEqual([[`Put WS#${ws}`, auditPut(ws)]]);
    expect((await listAuditEntries(ws, {}, 10)).items.map((e) => [e.action, e.requestId])).toEqual([['webhook_endpoint.created', 'req-tx-create']]);
  });

  it('the program rules: one call with the program item and the audit item', async () => {
    const ws = newId('ws');
    const { keys, error } = await transactionsOf(() => putProgram(ws, { earn: DEFAULT_RULES.earn, tiers: DEFAULT_RULES.tiers }, ctx('req-tx-program')));
    expect(error).toBeUndefined();
    expect(keys).toEqual([[`Put WS#${ws}`, auditPut(ws)]]);
  });

  it('registration and login: the session (and account) items and the audit item in one call each', async () => {
    const email = `tx-${newId('x')}@example.test`;
    const registered = await transactionsOf(() =>
      register({ workspaceName: 'Tx', email, password: 'correct horse battery' }, { requestId: 'req-tx-register' }),
    );
    expect(registered.error).toBeUndefined();
    expect(registered.keys).toHaveLength(1);
    const workspaceId = registered.keys[0]!.find((k) => k.includes('#AUDIT#'))!.split('#')[1]!;
    const [entry] = (await listAuditEntries(workspaceId, {}, 10)).items;
    expect(entry).toMatchObject({ action: 'workspace.created', target: { type: 'workspace', id: workspaceId }, requestId: 'req-tx-register' });
    expect(registered.keys[0]).toEqual([
      `Put EMAIL#${email}`,
      `Put WS#${workspaceId}`,
      `Put WS#${workspaceId}`,
      expect.stringMatching(/^Put SESSION#/),
      auditPut(workspaceId),
    ]);

    const signedIn = await transactionsOf(() => login({ email, password: 'correct horse battery' }, { requestId: 'req-tx-login' }));
    expect(signedIn.error).toBeUndefined();
    expect(signedIn.keys).toEqual([[expect.stringMatching(/^Put SESSION#/), auditPut(workspaceId)]]);
  });

  it('a change whose condition fails in the transaction leaves no audit entry', async () => {
    const ws = newId('ws');
    // deleteEndpoint does not read first: its condition (the endpoint exists) is checked in the transaction.
    const { keys, error } = await transactionsOf(() => deleteEndpoint(ws, newId('whe'), ctx('req-tx-delete')));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('NOT_FOUND');
    expect(keys).toEqual([[`Delete WS#${ws}`, auditPut(ws)]]);
    expect((await listAuditEntries(ws, {}, 10)).items).toEqual([]);
  });
});

describe('a refused login, recorded on its own', () => {
  it('is written next to the failure counter, outside any transaction', async () => {
    const email = `tx-fail-${newId('x')}@example.test`;
    await register({ workspaceName: 'Tx', email, password: 'correct horse battery' }, { requestId: 'req-tx-reg2' });
    const from = proxy.requests.length;
    await expect(login({ email, password: 'wrong password!' }, { requestId: 'req-tx-fail' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const writes = proxy.requests.slice(from).filter((r) => /\.(PutItem|UpdateItem|TransactWriteItems)$/.test(r.target));
    // The attempt is reserved on the failure counter before the password is checked, and the failure stamped on it after.
    expect(writes.map((r) => r.target.split('.')[1]).sort()).toEqual(['PutItem', 'UpdateItem', 'UpdateItem']);
    expect(writes.find((r) => r.target.endsWith('.PutItem'))!.body).toContain('auth.login_failed');
  });

  it('still answers 401 when the audit write fails; the failure is logged', async () => {
    const email = `tx-fail-${newId('x')}@example.test`;
    await register({ workspaceName: 'Tx', email, password: 'correct horse battery' }, { requestId: 'req-tx-reg3' });
    proxy.refuse = (r) => r.target.endsWith('.PutItem') && r.body.includes('#AUDIT#');
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const from = proxy.requests.length;
      await expect(login({ email, password: 'wrong password!' }, { requestId: 'req-tx-lost' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      const sent = proxy.requests.slice(from);
      expect(sent.filter((r) => proxy.refuse(r)).length).toBeGreaterThan(0);
      expect(error).toHaveBeenCalledWith('audit entry not written', expect.objectContaining({ requestId: 'req-tx-lost', action: 'auth.login_failed' }));
      // The failure counter was still written: the throttle keeps counting.
      expect(sent.filter((r) => r.target.endsWith('.UpdateItem') && r.body.includes('LOGINFAIL#'))).toHaveLength(2);
    } finally {
      error.mockRestore();
    }
  });
});
