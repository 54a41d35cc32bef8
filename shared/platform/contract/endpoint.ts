import type * as z from 'zod';
import type { config } from '../config';
import type { Scope } from './scopes';
import type { Permission } from './permissions';
import type { QueueName } from '../ports/queue';
import type { SecretName } from '../ports/secrets';
import type { WorkflowName } from '../ports/workflows';

/**
 * How a caller proves who it is (see docs/api.md "Authentication"). `apiKeyPerTool`: any valid API key;
 * the operation itself checks the scope of each thing it does (the MCP server, scope per tool).
 */
export type AuthKind = 'apiKey' | 'apiKeyPerTool' | 'session' | 'adminSession' | 'consumer' | 'applePass' | 'public';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What one endpoint accepts and answers, as zod schemas. The handler validates requests with them
 * and the OpenAPI document is generated from them, so the two cannot drift apart.
 */
export interface RouteContract {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** Status -> response body schema (`null`: no body, e.g. 204). Errors are documented globally. */
  responses: Record<number, z.ZodType | null>;
  /** Longer description for the OpenAPI document. */
  description?: string;
  /** Success statuses that (also) answer with a non-JSON body: status -> its media type. */
  binaryResponses?: Record<number, string>;
}

/** One endpoint, declared once: routing, auth and contract. Its key in the area is its operationId. */
export interface Endpoint extends RouteContract {
  method: HttpMethod;
  /** API Gateway path template, e.g. `/api/v2/api-keys/{id}`. */
  path: `/${string}`;
  /** Accepted credentials, in order of preference. */
  auth: readonly AuthKind[];
  /** Scope an API key needs. */
  scope?: Scope;
  /** Permission an `adminSession` (a console user's session) needs: its role must hold it (`permissions.ts`). */
  permission?: Permission;
  summary: string;
  /** Honors `Idempotency-Key` (Stripe semantics: same key + same body replays the first answer). */
  idempotent?: true;
  /**
   * Answers `Set-Cookie` (the console's session: signing in and out). Such a route refuses a request
   * a browser sends from a page of another origin (403), so no other site can sign a visitor in or out.
   */
  setsCookie?: true;
  /**
   * Open to a session that may only enrol in two-factor sign-in (its workspace requires it and the
   * user has none yet): the enrolment itself, the session and signing out. Every other route is a 403.
   */
  enrolment?: true;
  /** A stricter API Gateway throttle profile than `default` (numbers in `config.throttle`). */
  throttle?: Exclude<keyof typeof config.throttle, 'default'>;
}

/**
 * What an area's function touches; CDK grants exactly this and nothing else. `table`: `read` is
 * GetItem/Query/BatchGetItem, `readWrite` adds writes and transactions (never Scan).
 */
export interface Access {
  table: 'none' | 'read' | 'readWrite';
  /** Queues the function sends to (and changes visibility on, for a worker's own queue). */
  sendsTo?: readonly QueueName[];
  /** Sends e-mail. */
  mail?: true;
  /** Reads the wallet credentials (Apple pass signing, APNs, Google service account) from Secrets Manager. */
  walletCredentials?: true;
  // --- Data exports ---
  /** The export bucket: `read` gets objects and signs download links; `readWrite` also writes and deletes them. */
  exportsBucket?: 'read' | 'readWrite';
  /** Workflows (state machines) the function starts. */
  startsWorkflows?: readonly WorkflowName[];
  /**
   * The key sealing webhook and export signing secrets: `seal` makes data keys (creating and
   * rotating secrets), `open` unwraps them (signing). Nothing else may unwrap a stored secret.
   */
  signingSecrets?: 'seal' | 'open';
  /**
   * Secrets Manager secrets the function reads (`shared/platform/ports/secrets.ts`): `pageCursors` to sign
   * and check page cursors (any list with a cursor, a loop over pages too). The function may read
   * these and no other; their values are never in its configuration, only their ARNs.
   */
  secrets?: readonly SecretName[];
}

/**
 * What the HTTP layer itself reads in every area function, whatever its routes: the value our
 * distribution proves itself with, to work out each request's origin (`shared/http/origin.ts`).
 */
export const HTTP_LAYER_SECRETS: readonly SecretName[] = ['originVerify'];

/** An area function's whole access: its declaration's, and the HTTP layer's secrets. */
export const areaAccess = (declaration: Pick<AreaDeclaration, 'access'>): Access => ({
  ...declaration.access,
  secrets: [...HTTP_LAYER_SECRETS, ...(declaration.access.secrets ?? [])],
});

/** An area: one Lambda function (`functions/<area>/handler.ts`) serving the endpoints declared here. */
export interface AreaDeclaration<N extends string = string, E extends Record<string, Endpoint> = Record<string, Endpoint>> {
  area: N;
  /** What the area is for, in a sentence or two: the description of its tag in the OpenAPI document. */
  description: string;
  access: Access;
  endpoints: E;
}

/** Keeps the literal area name and operation ids for the compiler. */
export const declareArea = <const N extends string, E extends Record<string, Endpoint>>(d: AreaDeclaration<N, E>): AreaDeclaration<N, E> => d;

/** A row of the route table: an endpoint with its operationId and area (derived, never written). */
export interface RouteDef<A extends string = string> extends Endpoint {
  operationId: string;
  area: A;
}

/** API Gateway's route key for an endpoint, e.g. `GET /api/v2/api-keys`. */
export const routeKey = (r: Pick<Endpoint, 'method' | 'path'>): string => `${r.method} ${r.path}`;

/** The route-table rows of one area. */
export const routesOf = <N extends string>(d: AreaDeclaration<N>): RouteDef<N>[] =>
  Object.entries(d.endpoints).map(([operationId, e]) => ({ ...e, operationId, area: d.area }));
