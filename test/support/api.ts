import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { config } from '../../shared/platform/config';
import { assertDocumentedResponse } from './openapi';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (for malformed or oversized bodies), as `application/json` unless `headers` or `contentType` say otherwise. */
  rawBody?: string | Uint8Array;
  /** The Content-Type of `rawBody` when `headers` names none; `null`: none at all. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

/**
 * A small black-box client of the running platform. Throws if the answer (status and body) is not one
 * the OpenAPI document lists for the request (`test/support/openapi.ts`).
 */
export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Uint8Array | undefined = opts.rawBody;
  if (body !== undefined && headers['content-type'] === undefined) {
    if (opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json';
    // fetch itself calls a string body text/plain: bytes go without a Content-Type.
    else if (typeof body === 'string') body = new TextEncoder().encode(body);
  }
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  // Redirects are answers too (`GET /` is a 302): checked as sent, never followed.
  const res = await fetch(inject('baseUrl') + path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep text */
  }
  // Every answer of the whole e2e suite must be one the published OpenAPI document describes.
  assertDocumentedResponse({ method, path, status: res.status, body: parsed, contentType: res.headers.get('content-type') });
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.test`;
export const PASSWORD = 'correct horse battery';

export interface Account {
  email: string;
  password: string;
  token: string;
  workspaceId: string;
  userId: string;
}

/** A fresh workspace with its owner signed in (`extra`: more of the register body, e.g. `sandbox`). */
export async function registerAccount(label = 'owner', extra: Record<string, unknown> = {}): Promise<Account> {
  const email = uniqueEmail(label);
  const res = await call('POST', '/api/v2/auth/register', { body: { workspaceName: `${label} workspace`, email, password: PASSWORD, ...extra } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, password: PASSWORD, token: res.body.data.session.token, workspaceId: res.body.data.workspace.id, userId: res.body.data.user.id };
}

export async function createKey(token: string, body: Record<string, unknown>): Promise<{ id: string; key: string; scopes: string[] }> {
  const res = await call('POST', '/api/v2/api-keys', { token, body });
  if (res.status !== 201) throw new Error(`create key failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * Signs in as the console does (`POST /api/flash/session`): the session cookie to send back as a
 * `cookie` header, and the CSRF token a write with it needs.
 */
export async function browserSignIn(email: string, password = PASSWORD) {
  const { cookie: name } = config.browserSession;
  const res = await call('POST', '/api/flash/session', { body: { email, password } });
  const setCookie = res.headers.get('set-cookie') ?? '';
  const token = setCookie.match(new RegExp(`^${name}=([^;]+)`))?.[1];
  return { res, setCookie, token, cookie: `${name}=${token}`, csrf: res.body?.data?.session?.csrfToken as string | undefined };
}

/** Mail the file mailer wrote for one recipient, newest last. */
export async function mailsTo(email: string): Promise<{ to: string; template: string; subject: string; text: string }[]> {
  const dir = join(inject('dataDir'), 'mail');
  const files = (await readdir(dir).catch(() => [] as string[])).sort();
  const mails = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8'))));
  return mails.filter((m) => m.to === email);
}
