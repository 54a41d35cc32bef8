import type { z } from 'zod';
import type { Principal } from '../domain/auth/principal';
import { badRequest } from '../domain/errors';
import type { Reply } from './responses';
import type { AppContext, HttpEvent } from './types';
import { parseOrThrow } from './validation';

export interface Schemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

type Parsed<S extends Schemas, K extends keyof Schemas> = S[K] extends z.ZodType ? z.output<S[K]> : undefined;

export interface OperationInput<S extends Schemas> {
  body: Parsed<S, 'body'>;
  query: Parsed<S, 'query'>;
  params: Parsed<S, 'params'>;
  /** Present on every route that is not `public` (the middleware guarantees it). */
  principal: Principal | undefined;
  headers: Record<string, string | undefined>;
  requestId: string;
}

/** One endpoint: its schemas (also the source of the OpenAPI document) and what it does. */
export interface Operation<S extends Schemas = Schemas> {
  schemas: S;
  run(event: HttpEvent, context: AppContext): Promise<Reply>;
}

export function operation<S extends Schemas>(schemas: S, handle: (input: OperationInput<S>) => Promise<Reply>): Operation<S> {
  return {
    schemas,
    async run(event, context) {
      if (schemas.body && !context.hasBody) throw badRequest('A JSON body is required');
      const input = {
        body: schemas.body ? parseOrThrow(schemas.body, context.body, 'body') : undefined,
        query: schemas.query ? parseOrThrow(schemas.query, event.queryStringParameters ?? {}, 'query') : undefined,
        params: schemas.params ? parseOrThrow(schemas.params, event.pathParameters ?? {}, 'path') : undefined,
        principal: context.principal,
        headers: event.headers ?? {},
        requestId: context.requestId,
      } as OperationInput<S>;
      return handle(input);
    },
  };
}
