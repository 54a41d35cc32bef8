import { storesContract } from '../../shared/contracts/stores';
import * as stores from '../../shared/domain/stores/service';
import { defineArea } from '../../shared/http/area';
import { recorder } from '../../shared/http/idempotency';
import { principalOf } from '../../shared/http/principal';
import { created, ok } from '../../shared/http/responses';

export const handler = defineArea('stores', storesContract, {
  'GET /api/v2/stores': async ({ principal, query }) => {
    const page = await stores.listStores(principalOf(principal).workspaceId, query.limit, query.cursor, query.status);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'POST /api/v2/stores': async ({ principal, body, context }) =>
    created(await stores.createStore(principalOf(principal).workspaceId, body, { seal: recorder(context, created) })),
  'GET /api/v2/stores/{id}': async ({ principal, params }) => ok(await stores.getStore(principalOf(principal).workspaceId, params.id)),
  'PATCH /api/v2/stores/{id}': async ({ principal, params, body }) =>
    ok(await stores.updateStore(principalOf(principal).workspaceId, params.id, body)),
});
