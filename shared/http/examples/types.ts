import type * as z from 'zod';
import type { AreaDeclaration, Endpoint } from '../../platform/contract/endpoint';

/**
 * The documented examples of one operation, typed against its contract's schemas: a request example
 * is the zod *input* of the body (what a caller sends, defaults left out), a response example the
 * *output* (what the API answers). A body or JSON success response without its example does not compile.
 */
export type OperationExamples<E extends Endpoint> = { summary?: string } & (E extends { body: infer B extends z.ZodType } ? { request: z.input<B> } : unknown) &
  (E extends { query: infer Q extends z.ZodType } ? { query?: Partial<z.input<Q>> } : unknown) &
  (E extends { params: infer P extends z.ZodType } ? { params: z.input<P> } : unknown) & { responses: SuccessExamples<E['responses']> };

/** One example per 2xx status that answers JSON (a `null` schema, e.g. 204, has no body to show). */
type SuccessExamples<R> = {
  [S in keyof R as S extends number ? (`${S}` extends `2${string}` ? (R[S] extends z.ZodType ? S : never) : never) : never]: z.output<R[S] & z.ZodType>;
};

/** Every operation of an area, by operationId. */
export type AreaExamples<D extends AreaDeclaration> = { [K in keyof D['endpoints']]: OperationExamples<D['endpoints'][K]> };

/** An example of a schema's output, checked by the compiler (for the entities several operations answer). */
export const outputOf = <S extends z.ZodType>(_schema: S, value: z.output<S>): z.output<S> => value;
