import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
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
} from './schemas';
import { dataOf, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema.describe('prd_...') });

export const catalogArea = declareArea({
  area: 'catalog',
  description: 'The product catalog (products, categories, brands) that orders and points rules refer to, upserted in bulk from your shop.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listProducts: {
      method: 'GET',
      path: '/api/v2/products',
      auth: ['apiKey'],
      scope: 'catalog:read',
      summary: 'List and filter products',
      query: listProductsQuery,
      responses: { 200: pageOf(productSchema) },
      description:
        'Newest first. `category` and `brand` take a key or an id (an unknown one yields an empty list); `q` matches part of sku, name or description, case-insensitively.',
    },
    getProduct: {
      method: 'GET',
      path: '/api/v2/products/{id}',
      auth: ['apiKey'],
      scope: 'catalog:read',
      summary: 'Get a product',
      params: byId,
      responses: { 200: dataOf(productSchema) },
    },
    listCategories: {
      method: 'GET',
      path: '/api/v2/categories',
      auth: ['apiKey'],
      scope: 'catalog:read',
      summary: 'List categories',
      query: listCategoriesQuery,
      responses: { 200: pageOf(categorySchema) },
      description: 'In key order.',
    },
    listBrands: {
      method: 'GET',
      path: '/api/v2/brands',
      auth: ['apiKey'],
      scope: 'catalog:read',
      summary: 'List brands',
      query: listBrandsQuery,
      responses: { 200: pageOf(brandSchema) },
      description: 'In key order.',
    },
    importCatalog: {
      method: 'POST',
      path: '/api/v2/catalog/import',
      auth: ['apiKey'],
      scope: 'catalog:write',
      summary: 'Upsert up to 1,000 products with their categories and brands',
      idempotent: true,
      body: importCatalogBody,
      responses: { 200: dataOf(importReportSchema) },
      description:
        `Upserts up to ${MAX_IMPORT} products by sku, with their categories and brands (by key). Each item is the whole state of its product ` +
        '(fields left out are cleared) and is validated on its own; the answer has one result per item, in order: `created`, `updated`, ' +
        '`unchanged` (nothing written, `updatedAt` kept) or `failed` with the error. Re-importing the same payload changes nothing. ' +
        'A sku given twice, or a category/brand key defined differently by two items, fails the later item. A category parent must exist ' +
        'or be defined in the same import.',
    },
  },
});
