import { z } from 'zod';
import {
  brandSchema,
  categorySchema,
  importCatalogBody,
  importReportSchema,
  listBrandsQuery,
  listCategoriesQuery,
  listProductsQuery,
  MAX_IMPORT,
  productSchema,
} from '../domain/catalog/schemas';
import { contract, dataOf, pageOf } from './contract';

const byId = z.object({ id: z.string().describe('prd_...') });

export const catalogContract = contract({
  'GET /api/v2/products': {
    query: listProductsQuery,
    responses: { 200: pageOf(productSchema) },
    description:
      'Newest first. `category` and `brand` take a key or an id (an unknown one yields an empty list); `q` matches part of sku, name or description, case-insensitively.',
  },
  'GET /api/v2/products/{id}': { params: byId, responses: { 200: dataOf(productSchema) } },
  'GET /api/v2/categories': { query: listCategoriesQuery, responses: { 200: pageOf(categorySchema) }, description: 'In key order.' },
  'GET /api/v2/brands': { query: listBrandsQuery, responses: { 200: pageOf(brandSchema) }, description: 'In key order.' },
  'POST /api/v2/catalog/import': {
    body: importCatalogBody,
    responses: { 200: dataOf(importReportSchema) },
    description:
      `Upserts up to ${MAX_IMPORT} products by sku, with their categories and brands (by key). Each item is the whole state of its product ` +
      '(fields left out are cleared) and is validated on its own; the answer has one result per item, in order: `created`, `updated`, ' +
      '`unchanged` (nothing written, `updatedAt` kept) or `failed` with the error. Re-importing the same payload changes nothing. ' +
      'A sku given twice, or a category/brand key defined differently by two items, fails the later item. A category parent must exist ' +
      'or be defined in the same import.',
  },
});
