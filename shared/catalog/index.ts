/**
 * The door of the catalog area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { catalogArea } from './contract';
export { importCatalog } from './import';
export { brandSchema, categorySchema, importProductSchema, importResultSchema, listProductsQuery, productSchema } from './schemas';
export { getProduct, listBrands, listCategories, listProducts } from './service';
