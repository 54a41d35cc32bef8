import type { ClientForPath } from 'openapi-fetch';
import { createLoyaltyClient, type paths } from '../../shared/client/index';
import type { AuthKind, Endpoint } from '../../shared/platform/contract/endpoint';
import { ApiError, CommandError, UsageError } from './errors';
import { storedSession } from './sessions';
import { baseUrlOf, type GlobalOptions } from './settings';

const NO_API_KEY = 'No API key: set LOYALTY_API_KEY=fl_live_... or pass --api-key (an admin creates one with `loyalty keys create` or in the application)';
const NO_SESSION_HOW = 'run `loyalty login --email <you>` or set LOYALTY_SESSION_TOKEN=fl_sess_...';
const NO_SESSION = `This command needs an owner or admin session: ${NO_SESSION_HOW}`;

/**
 * The call an endpoint declaration (`shared/<area>/contract.ts`) allows, typed from the OpenAPI
 * document at the declaration's path: `GET(init)` for a GET route and nothing else. A declaration
 * whose path or method the document lacks gives `never`, so the command using it does not compile.
 */
export type EndpointCall<E extends Endpoint> = E['path'] extends keyof paths
  ? paths[E['path']][Lowercase<E['method']>] extends undefined
    ? never
    : Pick<ClientForPath<paths[E['path']], `${string}/${string}`>, E['method']>
  : never;

/** An openapi-fetch answer: the data, or the error body with the response. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

/**
 * The API as the tool sees it: each request names the endpoint's declaration, so method, path and
 * accepted credentials cannot drift from the server, and goes through the typed client
 * (shared/client), so a contract change that breaks a command fails the type check. Only the areas a
 * command uses are loaded, which keeps start-up short. A route that takes an API key gets one when
 * it is given; otherwise a session (LOYALTY_SESSION_TOKEN, else `loyalty login`).
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

  /**
   * The declaration's call through the typed client, with the credential its route takes:
   * `(await client.typed(membersArea.endpoints.getMember)).GET({ params: { path: { id } } })`.
   */
  async typed<E extends Endpoint>(declaration: E): Promise<EndpointCall<E>> {
    const api = createLoyaltyClient({ baseUrl: this.baseUrl, token: await this.credentialFor(declaration.auth), fetch: this.reach });
    // EndpointCall has tied the declaration's method and path to the document; openapi-fetch's own
    // generics cannot follow a path that is a type parameter, hence the casts.
    const call = (init?: object) => api.request(declaration.method.toLowerCase() as never, declaration.path as never, init as never);
    return { [declaration.method]: call } as EndpointCall<E>;
  }
}

/**
 * Text the caller typed, passed on as the field's type without checking it here: the API checks it
 * and its validation error (printed like any other) names what it accepts.
 */
export const asTyped = <T>(value: string | readonly string[] | undefined): T => value as T;

/** Every item of a cursor-paged list, 200 a page, following `nextCursor`. */
export async function allPages<T>(
  page: (query: { limit: number; cursor?: string }) => Promise<Answer<{ data: T[]; nextCursor: string | null }>>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = dataOf(await page({ limit: 200, ...(cursor === undefined ? {} : { cursor }) }));
    items.push(...answer.data);
    cursor = answer.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

/** The API's error answer (parsed JSON, or the text of one that is not JSON) as the tool's error. */
function apiErrorOf(res: Response, body: unknown): ApiError {
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  const err = (body as { error?: Record<string, any> } | undefined)?.error;
  return new ApiError(
    res.status,
    err?.code ?? `HTTP_${res.status}`,
    err?.message ?? (text.slice(0, 200) || res.statusText),
    err?.requestId ?? res.headers.get('x-request-id') ?? undefined,
    Array.isArray(err?.details) ? err.details : [],
    typeof err?.docUrl === 'string' ? err.docUrl : undefined,
  );
}

/** The data of a typed call (undefined for a 204), or its error answer thrown as the tool's error. */
export function dataOf<T>(answer: Answer<T>): T {
  if (answer.response.ok) return answer.data as T;
  throw apiErrorOf(answer.response, answer.error);
}
