import { createLoyaltyClient, type LoyaltyClient } from '../../shared/client/index';
import type { AuthKind, Endpoint } from '../../shared/contracts/endpoint';
import { ApiError, CommandError, UsageError } from './errors';
import { storedSession } from './sessions';
import { baseUrlOf, type GlobalOptions } from './settings';

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

const NO_API_KEY = 'No API key: set LOYALTY_API_KEY=fl_live_... or pass --api-key (an admin creates one with `loyalty keys create` or in the application)';
const NO_SESSION_HOW = 'run `loyalty login --email <you>` or set LOYALTY_SESSION_TOKEN=fl_sess_...';
const NO_SESSION = `This command needs an owner or admin session: ${NO_SESSION_HOW}`;

/**
 * The API as the tool sees it: each request names the endpoint's declaration (`shared/contracts/<area>.ts`),
 * so method, path and accepted credentials cannot drift from the server. Only the areas a command
 * uses are loaded, which keeps start-up short. A route that takes an
 * API key gets one when it is given; otherwise a session (LOYALTY_SESSION_TOKEN, else `loyalty login`).
 */
export class Client {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;

  constructor(options: GlobalOptions) {
    this.baseUrl = baseUrlOf(options);
    this.apiKey = options.apiKey ?? process.env.LOYALTY_API_KEY ?? undefined;
  }

  private async credentialFor(auth: readonly AuthKind[]): Promise<string | undefined> {
    if (auth.includes('public')) return undefined;
    if (auth.includes('apiKey') && this.apiKey) return this.apiKey;
    if (auth.includes('session') || auth.includes('adminSession')) {
      const token = process.env.LOYALTY_SESSION_TOKEN || (await storedSession(this.baseUrl))?.token;
      if (token) return token;
    }
    const takesSession = auth.includes('session') || auth.includes('adminSession');
    throw new UsageError(auth.includes('apiKey') ? (takesSession ? `${NO_API_KEY}; or sign in: ${NO_SESSION_HOW}` : NO_API_KEY) : NO_SESSION);
  }

  async call<T = any>(route: Endpoint, opts: CallOptions = {}): Promise<T> {
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = opts.params?.[name];
      if (value === undefined) throw new Error(`missing path parameter ${name} of ${route.path}`);
      return encodeURIComponent(value);
    });
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    const credential = await this.credentialFor(route.auth);
    if (credential) headers.authorization = `Bearer ${credential}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';

    const res = await this.reach(url, { method: route.method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) throw apiErrorOf(res, parsed, text);
    return parsed as T;
  }

  /** fetch, with an unreachable platform said once, naming how to point the tool elsewhere. */
  private readonly reach = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    try {
      return await fetch(input, init);
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new CommandError(
        `Could not reach ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (e as Error).message}. ` +
          'Is the platform running there? Point the tool at it with --base-url <url> or LOYALTY_BASE_URL ' +
          '(`npm start` prints the line to paste: export LOYALTY_BASE_URL=... LOYALTY_API_KEY=...)',
      );
    }
  };

  /** The typed client (shared/client) with the credential `auth` takes; answers typed from the OpenAPI document. */
  async typed(auth: readonly AuthKind[]): Promise<LoyaltyClient> {
    return createLoyaltyClient({ baseUrl: this.baseUrl, token: await this.credentialFor(auth), fetch: this.reach });
  }

  /** Every item of a cursor-paged list, following `nextCursor`. */
  async all<T>(route: Endpoint, opts: CallOptions = {}): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.call<Page<T>>(route, { ...opts, query: { limit: 200, ...opts.query, cursor } });
      items.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return items;
  }
}

/** The API's error answer as the tool's error. */
function apiErrorOf(res: Response, parsed: any, text: string): ApiError {
  const err = parsed?.error;
  return new ApiError(
    res.status,
    err?.code ?? `HTTP_${res.status}`,
    err?.message ?? (text.slice(0, 200) || res.statusText),
    err?.requestId ?? res.headers.get('x-request-id') ?? undefined,
    Array.isArray(err?.details) ? err.details : [],
    typeof err?.docUrl === 'string' ? err.docUrl : undefined,
  );
}

/** The data of a typed call, or its error answer thrown as the tool's error. */
export function dataOf<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data;
  throw apiErrorOf(result.response, result.error, JSON.stringify(result.error ?? ''));
}
