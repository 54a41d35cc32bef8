import { catalogArea, importCatalog } from '../../shared/catalog';
import * as catalog from '../../shared/catalog';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea(catalogArea, {
  listProducts: async ({ principal, query }) => {
    const page = await catalog.listProducts(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  getProduct: async ({ principal, params }) => ok(await catalog.getProduct(principalOf(principal).workspaceId, params.id)),
  listCategories: async ({ principal, query }) => {
    const page = await catalog.listCategories(principalOf(principal).workspaceId, query.limit, query.cursor, query.parentKey);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  listBrands: async ({ principal, query }) => {
    const page = await catalog.listBrands(principalOf(principal).workspaceId, query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  // A naturally idempotent batch: the middleware records the answer for Idempotency-Key afterwards.
  importCatalog: async ({ principal, body }) => ok(await importCatalog(principalOf(principal).workspaceId, body.products)),
});
