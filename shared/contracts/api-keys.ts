import { z } from 'zod';
import { createApiKeyBody } from '../domain/api-keys/schemas';
import { SCOPES } from '../domain/api-keys/scopes';
import { pageQuery } from '../domain/pagination';
import { contract, dataOf, isoDateTime, pageOf } from './contract';

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    prefix: z.string().describe('First characters of the key, to recognise it'),
    createdAt: isoDateTime,
    lastUsedAt: isoDateTime.nullable(),
    createdBy: z.string().describe('user:<id> or key:<id>'),
  })
  .meta({ id: 'ApiKey' });

export const apiKeysContract = contract({
  'POST /api/v2/api-keys': {
    body: createApiKeyBody,
    responses: { 201: dataOf(apiKeySchema.extend({ key: z.string().describe('fl_live_... shown only in this response') })) },
    description: 'Give exactly one of `preset` or `scopes`. A key may grant at most its own scopes.',
  },
  'GET /api/v2/api-keys': { query: pageQuery, responses: { 200: pageOf(apiKeySchema) } },
  'DELETE /api/v2/api-keys/{id}': { params: z.object({ id: z.string() }), responses: { 204: null } },
});
