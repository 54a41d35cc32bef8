import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import { createApiKeyBody } from './schemas';
import { SCOPES } from '../platform/contract/scopes';
import { pageQuery } from '../platform/validation/pagination';
import { dataOf, isoDateTime, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

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

export const apiKeysArea = declareArea({
  area: 'api-keys',
  description: 'Workspace API keys for server-to-server calls. Each key holds scopes; its secret is shown once, at creation.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    createApiKey: {
      method: 'POST',
      path: '/api/v2/api-keys',
      auth: ['adminSession', 'apiKey'],
      permission: 'api_keys:manage',
      scope: 'api_keys:manage',
      summary: 'Create an API key (plaintext shown once)',
      body: createApiKeyBody,
      responses: { 201: dataOf(apiKeySchema.extend({ key: z.string().describe('fl_live_... shown only in this response') })) },
      description:
        'Give exactly one of `preset` or `scopes`. Presets: `read-only` (every `:read` scope) and `write` (every `:read` and `:write` scope), both without `privacy:read` and `privacy:write`, which a key gets only by naming them. A key may grant at most its own scopes: 403 naming the ones it lacks. A session grants `privacy:read` only if its role holds `members:read`, and `privacy:write` only with `members:erase` (a `developer` neither): 403 naming them.',
    },
    listApiKeys: {
      method: 'GET',
      path: '/api/v2/api-keys',
      auth: ['adminSession', 'apiKey'],
      permission: 'api_keys:manage',
      scope: 'api_keys:manage',
      summary: 'List API keys',
      query: pageQuery,
      responses: { 200: pageOf(apiKeySchema) },
    },
    revokeApiKey: {
      method: 'DELETE',
      path: '/api/v2/api-keys/{id}',
      auth: ['adminSession', 'apiKey'],
      permission: 'api_keys:manage',
      scope: 'api_keys:manage',
      summary: 'Revoke an API key',
      params: z.object({ id: idSchema }),
      responses: { 204: null },
      description: 'A key may revoke only keys whose scopes it holds itself: 403 naming the ones it lacks.',
    },
  },
});
