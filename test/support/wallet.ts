import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { inflateRawSync } from 'node:zlib';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { assertDocumentedResponse } from './openapi';

/**
 * Real peers on 127.0.0.1 for the wallet tests: a fake APNs (cleartext HTTP/2, what `http2.connect`
 * speaks to an `http://` APNS_URL), a fake Google Wallet REST API, and a small client of a platform
 * started by the test itself (its APNS_URL and GOOGLE_WALLET_API_URL point at the fakes).
 */

export interface ApnsPush {
  pushToken: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeApns {
  url: string;
  pushes: ApnsPush[];
  /** Status and reason to answer for a push token (default 200). */
  answer: Map<string, { status: number; reason?: string }>;
  close(): Promise<void>;
}

export async function startFakeApns(): Promise<FakeApns> {
  const pushes: ApnsPush[] = [];
  const answer = new Map<string, { status: number; reason?: string }>();
  const server: Http2Server = createHttp2Server();
  server.on('stream', (stream, headers) => {
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => (body += c));
    stream.on('end', () => {
      const pushToken = decodeURIComponent(String(headers[':path']).replace(/^\/3\/device\//, ''));
      pushes.push({ pushToken, headers: { ...headers }, body });
      const a = answer.get(pushToken) ?? { status: 200 };
      stream.respond({ ':status': a.status, 'apns-id': 'fake' });
      stream.end(a.status === 200 ? '' : JSON.stringify({ reason: a.reason ?? 'Unregistered' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pushes,
    answer,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface GoogleCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

export interface FakeGoogleWallet {
  /** The API base (…/walletobjects/v1), for GOOGLE_WALLET_API_URL. */
  url: string;
  calls: GoogleCall[];
  /** Stored classes and objects by id, as the API would hold them. */
  classes: Map<string, any>;
  objects: Map<string, any>;
  close(): Promise<void>;
}

export async function startFakeGoogleWallet(): Promise<FakeGoogleWallet> {
  const calls: GoogleCall[] = [];
  const classes = new Map<string, any>();
  const objects = new Map<string, any>();
  const server: Server = createHttpServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/walletobjects\/v1/, '');
      const body = text ? JSON.parse(text) : undefined;
      calls.push({ method: req.method!, path, authorization: req.headers.authorization, body });
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (!req.headers.authorization?.startsWith('Bearer ')) return reply(401, { error: { code: 401 } });
      const m = path.match(/^\/(loyaltyClass|loyaltyObject)(?:\/([^/]+))?$/);
      if (!m) return reply(404, { error: { code: 404 } });
      const store = m[1] === 'loyaltyClass' ? classes : objects;
      const id = m[2] ? decodeURIComponent(m[2]) : body?.id;
      if (req.method === 'POST' && !m[2]) {
        if (store.has(id)) return reply(409, { error: { code: 409, message: 'exists' } });
        store.set(id, body);
        return reply(200, body);
      }
      if (req.method === 'PATCH' && m[2]) {
        if (!store.has(id)) return reply(404, { error: { code: 404 } });
        store.set(id, { ...store.get(id), ...body });
        return reply(200, store.get(id));
      }
      return reply(405, { error: { code: 405 } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/walletobjects/v1`,
    calls,
    classes,
    objects,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the bytes of any other body; undefined when empty. */
  body: any;
  bytes: Buffer;
}

/**
 * Every 5xx any wallet test client saw (`METHOD path status`) other than 501 WALLET_NOT_CONFIGURED,
 * the one 5xx a test asks for: the suites assert there were none.
 */
export const serverErrors: string[] = [];

/** A client of one platform instance; every answer must be one its OpenAPI document describes. */
export function clientOf(baseUrl: string) {
  return async function request(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<RawResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined = opts.raw;
    // A raw body is malformed JSON, sent as JSON: what is judged is its content, not its type.
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const bytes = Buffer.from(await res.arrayBuffer());
    const contentType = res.headers.get('content-type');
    let parsed: any = bytes.length ? bytes : undefined;
    if (bytes.length && /^application\/json/.test(contentType ?? '')) parsed = JSON.parse(bytes.toString('utf8'));
    if (res.status >= 500 && res.status !== 501) serverErrors.push(`${method} ${path} ${res.status}`);
    assertDocumentedResponse({ method, path, status: res.status, body: parsed, contentType });
    return { status: res.status, headers: res.headers, body: parsed, bytes };
  };
}

export type Client = ReturnType<typeof clientOf>;

export interface WalletTenant {
  token: string;
  key: string;
  workspaceId: string;
}

/** A fresh workspace on the platform with an all-scopes API key. */
export async function walletTenant(request: Client, label: string): Promise<WalletTenant> {
  const email = `${label}-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const reg = await request('POST', '/api/v2/auth/register', { body: { workspaceName: `${label} shop`, email, password: 'correct horse battery' } });
  if (reg.status !== 201) throw new Error(`register: ${reg.status}`);
  const key = await request('POST', '/api/v2/api-keys', { token: reg.body.data.session.token, body: { name: 'all', scopes: [...SCOPES] } });
  return { token: reg.body.data.session.token, key: key.body.data.key, workspaceId: reg.body.data.workspace.id };
}

export async function walletMember(request: Client, key: string, body: Record<string, unknown> = {}): Promise<{ id: string }> {
  const res = await request('POST', '/api/v2/members', { token: key, body: { email: `m-${Math.random().toString(36).slice(2, 10)}@example.test`, ...body } });
  if (res.status !== 201) throw new Error(`member: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function portalSession(request: Client, key: string, memberId: string): Promise<string> {
  const res = await request('POST', `/api/v2/members/${memberId}/portal-sessions`, { token: key });
  if (res.status !== 201) throw new Error(`portal session: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

/**
 * The files of a .pkpass (a zip), unpacked into a fresh directory. Read here with zlib (central
 * directory, stored or deflated entries: what pass zips hold), so the tests need no unzip command.
 */
export function unpackPass(bytes: Buffer): { dir: string; files: Record<string, Buffer> } {
  const dir = mkdtempSync(join(tmpdir(), 'pkpass-'));
  const files: Record<string, Buffer> = {};
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip: no end of central directory');
  let at = bytes.readUInt32LE(end + 16);
  for (let n = bytes.readUInt16LE(end + 10); n > 0; n--) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error('zip: broken central directory');
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + size);
    if (name.endsWith('/')) continue;
    if (method !== 0 && method !== 8) throw new Error(`zip: ${name} uses compression method ${method}`);
    files[name] = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), files[name]!);
  }
  return { dir, files };
}

/** `openssl smime -verify` of the pass's detached signature over manifest.json against a CA file. */
export function verifyPassSignature(dir: string, caFile: string, manifest = 'manifest.json'): { ok: boolean; output: string } {
  try {
    const out = execFileSync(
      'openssl',
      ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', manifest, '-CAfile', caFile, '-purpose', 'any', '-out', '/dev/null'],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return { ok: true, output: out.toString() };
  } catch (err) {
    const e = err as { stderr?: Buffer; stdout?: Buffer };
    return { ok: false, output: `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}` };
  }
}

export const waitFor = async <T>(probe: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/**
 * The push worker's refresh for the change a request made: its `wallet.passes_refreshed` log line
 * (written once the refresh has sent what it sends), found by the request id in a runtime's output
 * (the runtime must log at INFO).
 */
export function refreshOf(output: string, requestId: string): { pushed: number; patched: number } | undefined {
  const line = output.split('\n').find((l) => l.includes('"wallet.passes_refreshed"') && l.includes(`"correlationId":"${requestId}"`));
  return line ? (JSON.parse(line) as { pushed: number; patched: number }) : undefined;
}

/** Wallet push messages still in a runtime's local queue (delayed, waiting or being worked on). */
export function pendingPushes(queueDatabase: string): number {
  const db = new DatabaseSync(queueDatabase, { readOnly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM messages WHERE queue = ?').get('walletPushes') as { n: number }).n;
  } finally {
    db.close();
  }
}
