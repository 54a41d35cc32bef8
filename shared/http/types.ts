import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteDef } from '../platform/contract/endpoint';
import type { Principal } from '../platform/contract/principal';
import type { ConsumerPrincipal } from '../portal';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** Lambda's context plus what the middleware chain learns about the request. */
export interface AppContext extends Context {
  requestId: string;
  startedAt: number;
  /** The platform's origin as the caller reached it (`originOf`), for absolute links; unset when unknown. */
  origin?: string;
  route?: RouteDef;
  principal?: Principal;
  /** A member portal session (consumer routes only); never set together with `principal`. */
  consumer?: ConsumerPrincipal;
  /** Parsed JSON body (undefined when the request had none). */
  body?: unknown;
  hasBody?: boolean;
  idempotency?: IdempotencyContext;
  /** Set by `withinDeadline`: takes the access line, written once the final answer is known. */
  holdAccessLine?: (line: AccessLine) => void;
}

export interface IdempotencyContext {
  key: string;
  workspaceId: string;
  requestHash: string;
  /** True once the answer was recorded (inside the domain transaction, or after it). */
  recorded: boolean;
  /** The token of this request's in-progress claim on the key. */
  claim?: string;
}

/** The access line: one per request, its shape declared once (the local HTTP adapter writes it too). */
export interface AccessLine {
  requestId: string;
  apiRequestId?: string;
  area?: string;
  method?: string;
  routeKey?: string;
  /** The path as called (the route key has the template); never the query string. */
  path?: string;
  status?: number;
  /** The `code` of an error answer. */
  errorCode?: string;
  durationMs: number;
  workspaceId?: string;
}
