import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../client/schema';

/**
 * The console's one way to the platform: the client typed from our OpenAPI document, so a contract
 * change that breaks a screen fails the console's type check. The session travels in the HttpOnly
 * cookie (same origin, so the browser sends it); writes add the session's CSRF token and a fresh
 * Idempotency-Key per submission, so a double click or a retried request applies once.
 */

export interface ApiError {
  status: number;
  code: string;
  message: string;
  requestId: string | null;
  docUrl?: string;
  details?: { field?: string; message: string }[];
}

/** Thrown for every non-2xx answer: the API's own words, with the request id to quote. */
export class ApiFailure extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
let csrfToken: string | undefined;
let onSignedOut: () => void = () => undefined;

/** Set after signing in (and after reading the session on a reload). */
export const useCsrfToken = (token: string | undefined): void => {
  csrfToken = token;
};

/** Called when an answer says the session is over (401): the app asks to sign in again, keeping the screen. */
export const whenSignedOut = (handler: () => void): void => {
  onSignedOut = handler;
};

const session: Middleware = {
  onRequest({ request }) {
    if (!SAFE.has(request.method)) {
      if (csrfToken) request.headers.set('x-csrf-token', csrfToken);
      if (!request.headers.has('idempotency-key')) request.headers.set('idempotency-key', crypto.randomUUID());
    }
    return request;
  },
  onResponse({ response, request }) {
    if (response.status === 401 && !request.url.endsWith('/api/flash/session')) onSignedOut();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
api.use(session);

/** The data of an answer, or its error thrown as an ApiFailure. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error as { error?: Omit<ApiError, 'status'> } | undefined)?.error;
  throw new ApiFailure({
    status: response.status,
    code: body?.code ?? `HTTP_${response.status}`,
    message: body?.message ?? response.statusText,
    requestId: body?.requestId ?? response.headers.get('x-request-id'),
    ...(body?.docUrl ? { docUrl: body.docUrl } : {}),
    ...(body?.details ? { details: body.details } : {}),
  });
}
