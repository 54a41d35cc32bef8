import { apiKeysArea } from '../../shared/contracts/api-keys';
import * as apiKeys from '../../shared/domain/api-keys/service';
import { notFound } from '../../shared/domain/errors';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { created, noContent, ok } from '../../shared/http/responses';
import { ID_PATTERN } from '../../shared/ids';

export const handler = defineArea(apiKeysArea, {
  createApiKey: async ({ body, principal }) => created(await apiKeys.createApiKey(principalOf(principal), body)),
  listApiKeys: async ({ query, principal }) => {
    const page = await apiKeys.listApiKeys(principalOf(principal), query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  revokeApiKey: async ({ params, principal }) => {
    // A malformed id names nothing in any workspace.
    if (!ID_PATTERN('key').test(params.id)) throw notFound('API key');
    await apiKeys.revokeApiKey(principalOf(principal), params.id);
    return noContent();
  },
});
