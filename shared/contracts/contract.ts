import { z } from 'zod';

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
}

export type AreaContract = Record<string, RouteContract>;

/** Helps TypeScript keep the literal route keys of a contract. */
export const contract = <C extends AreaContract>(c: C): C => c;

export const dataOf = <S extends z.ZodType>(schema: S) => z.object({ data: schema });

export const pageOf = <S extends z.ZodType>(schema: S) =>
  z.object({ data: z.array(schema), nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page') });

export { isoDateTime } from '../domain/common';

export const errorBody = z
  .object({
    error: z.object({
      code: z.string().describe('Stable machine-readable code, e.g. VALIDATION_FAILED'),
      message: z.string(),
      details: z
        .array(z.object({ in: z.enum(['body', 'query', 'path', 'header']), field: z.string(), message: z.string() }))
        .optional(),
      requestId: z.string(),
    }),
  })
  .meta({ id: 'Error' });
