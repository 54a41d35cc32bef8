import { storesArea } from '../../shared/stores';
import * as stores from '../../shared/stores';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { principalOf } from '../../shared/http/principal';
import { created, ok } from '../../shared/http/responses';

export const handler = defineArea(storesArea, {
  listStores: async ({ principal, query }) => {
    const page = await stores.listStores(principalOf(principal).workspaceId, query.limit, query.cursor, query.status);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createStore: sealed(created, ({ principal, body }, write) => stores.createStore(principalOf(principal).workspaceId, body, write)),
  getStore: async ({ principal, params }) => ok(await stores.getStore(principalOf(principal).workspaceId, params.id)),
  updateStore: async ({ principal, params, body }) => ok(await stores.updateStore(principalOf(principal).workspaceId, params.id, body)),
});
