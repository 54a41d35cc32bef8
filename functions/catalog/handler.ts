import { catalogContract } from '../../shared/contracts/catalog';
import { importCatalog } from '../../shared/domain/catalog/import';
import * as catalog from '../../shared/domain/catalog/service';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea('catalog', catalogContract, {
  'GET /api/v2/products': async ({ principal, query }) => {
    const page = await catalog.listProducts(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'GET /api/v2/products/{id}': async ({ principal, params }) => ok(await catalog.getProduct(principalOf(principal).workspaceId, params.id)),
  'GET /api/v2/categories': async ({ principal, query }) => {
    const page = await catalog.listCategories(principalOf(principal).workspaceId, query.limit, query.cursor, query.parentKey);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'GET /api/v2/brands': async ({ principal, query }) => {
    const page = await catalog.listBrands(principalOf(principal).workspaceId, query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  // A naturally idempotent batch: the middleware records the answer for Idempotency-Key afterwards.
  'POST /api/v2/catalog/import': async ({ principal, body }) => ok(await importCatalog(principalOf(principal).workspaceId, body.products)),
});
