import type * as z from 'zod';
import type { RouteContract } from '../platform/contract/endpoint';
import type { Principal } from '../platform/contract/principal';
import { badRequest } from '../platform/errors';
import type { WriteOptions } from '../platform/data/write-options';
import { sealFor } from './idempotency';
import type { Reply } from './responses';
import type { AppContext, HttpEvent } from './types';
import { parseOrThrow } from '../platform/validation/validation';

type Parsed<C extends RouteContract, K extends 'body' | 'query' | 'params'> = C[K] extends z.ZodType ? z.output<C[K]> : undefined;

export interface OperationInput<C extends RouteContract> {
  body: Parsed<C, 'body'>;
  query: Parsed<C, 'query'>;
  params: Parsed<C, 'params'>;
  /** Present on every route that is not `public` (the middleware guarantees it). */
  principal: Principal | undefined;
  headers: Record<string, string | undefined>;
  requestId: string;
  context: AppContext;
}

export type OperationHandler<C extends RouteContract> = (input: OperationInput<C>) => Promise<Reply>;

/**
 * An operation whose effect is one domain transaction: `run` passes `write` to the service, which
 * records the result in that same transaction when the request carries an Idempotency-Key, and
 * `reply` shapes the result, also when a recorded result is replayed. The domain never sees HTTP.
 */
export interface SealedOperation<C extends RouteContract, R> {
  reply: (result: R) => Reply;
  run: (input: OperationInput<C>, write: WriteOptions<R>) => Promise<R>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Operation<C extends RouteContract> = OperationHandler<C> | SealedOperation<C, any>;

/** Binds a sealed operation's reply and run to one result type. */
export const sealed = <R, C extends RouteContract>(
  reply: (result: R) => Reply,
  run: (input: OperationInput<C>, write: WriteOptions<R>) => Promise<R>,
): SealedOperation<C, R> => ({ reply, run });

/** Validates path, query and body against the route's contract, then calls its handler. */
export async function runOperation<C extends RouteContract>(contract: C, operation: Operation<C>, event: HttpEvent, context: AppContext): Promise<Reply> {
  if (contract.body && !context.hasBody) throw badRequest('A JSON body is required');
  const input = {
    params: contract.params ? parseOrThrow(contract.params, event.pathParameters ?? {}, 'path') : undefined,
    query: contract.query ? parseOrThrow(contract.query, event.queryStringParameters ?? {}, 'query') : undefined,
    body: contract.body ? parseOrThrow(contract.body, context.body, 'body') : undefined,
    principal: context.principal,
    headers: event.headers ?? {},
    requestId: context.requestId,
    context,
  } as OperationInput<C>;
  if (typeof operation === 'function') return operation(input);
  return operation.reply(await operation.run(input, sealFor(context)));
}
