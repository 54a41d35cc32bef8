import { apiKeysArea } from '../../shared/api-keys';
import * as apiKeys from '../../shared/api-keys';
import { notFound } from '../../shared/platform/errors';
import { defineArea } from '../../shared/http/area';
import { auditOf, principalOf } from '../../shared/http/principal';
import { created, noContent, ok } from '../../shared/http/responses';
import { ID_PATTERN } from '../../shared/platform/ids';

export const handler = defineArea(apiKeysArea, {
  createApiKey: async (input) => created(await apiKeys.createApiKey(principalOf(input.principal), input.body, auditOf(input))),
  listApiKeys: async ({ query, principal }) => {
    const page = await apiKeys.listApiKeys(principalOf(principal), query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  revokeApiKey: async (input) => {
    // A malformed id names nothing in any workspace.
    if (!ID_PATTERN('key').test(input.params.id)) throw notFound('API key');
    await apiKeys.revokeApiKey(principalOf(input.principal), input.params.id, auditOf(input));
    return noContent();
  },
});
