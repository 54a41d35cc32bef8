import { apiKeysContract } from '../../shared/contracts/api-keys';
import * as apiKeys from '../../shared/domain/api-keys/service';
import { notFound } from '../../shared/domain/errors';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { created, noContent, ok } from '../../shared/http/responses';
import { ID_PATTERN } from '../../shared/ids';

export const handler = defineArea('api-keys', apiKeysContract, {
  'POST /api/v2/api-keys': async ({ body, principal }) => created(await apiKeys.createApiKey(principalOf(principal), body)),
  'GET /api/v2/api-keys': async ({ query, principal }) => {
    const page = await apiKeys.listApiKeys(principalOf(principal), query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  'DELETE /api/v2/api-keys/{id}': async ({ params, principal }) => {
    // A malformed id names nothing in any workspace.
    if (!ID_PATTERN('key').test(params.id)) throw notFound('API key');
    await apiKeys.revokeApiKey(principalOf(principal), params.id);
    return noContent();
  },
});
