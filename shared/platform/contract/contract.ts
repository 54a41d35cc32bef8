/** Schema helpers shared by the area declarations. */
import * as z from 'zod';

export const dataOf = <S extends z.ZodType>(schema: S) => z.object({ data: schema });

export const pageOf = <S extends z.ZodType>(schema: S) =>
  z.object({ data: z.array(schema), nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page') });

export { isoDateTime } from '../validation/common';

export const errorBody = z
  .object({
    error: z.object({
      code: z.string().describe('Stable machine-readable code, e.g. VALIDATION_FAILED'),
      message: z.string(),
      details: z.array(z.object({ in: z.enum(['body', 'query', 'path', 'header']), field: z.string(), message: z.string() })).optional(),
      requestId: z.string().describe('The request id (also in the X-Request-Id header); quote it when asking for support'),
      docUrl: z
        .string()
        .describe("Link to this code's section of the API reference page, e.g. `https://<host>/docs#api/description/not-found`: what it means and what to do"),
    }),
  })
  .meta({ id: 'Error' });
