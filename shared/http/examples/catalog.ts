import type * as z from 'zod';
import type { importProductSchema, catalogArea } from '../../catalog';
import type { AreaExamples } from './types';
import { brand, catalogImportResult, category, ids, product } from './world';

export const catalogExamples: AreaExamples<typeof catalogArea> = {
  listProducts: {
    summary: 'Active coffee beans of one brand',
    query: { category: category.key, brand: brand.key, status: 'active', q: 'ethiopia', limit: 50 },
    responses: { 200: { data: [product], nextCursor: null } },
  },
  getProduct: { params: { id: ids.product }, responses: { 200: { data: product } } },
  listCategories: { query: { parentKey: 'coffee' }, responses: { 200: { data: [category], nextCursor: null } } },
  listBrands: { query: { limit: 50 }, responses: { 200: { data: [brand], nextCursor: null } } },
  importCatalog: {
    summary: 'A first import: one product, its two categories and its brand',
    request: {
      products: [
        {
          sku: product.sku,
          name: product.name,
          description: product.description ?? undefined,
          price: { amount: 14.95, currency: 'EUR' },
          categories: [
            { key: category.key, name: category.name, parentKey: 'coffee' },
            { key: 'coffee', name: 'Coffee' },
          ],
          brand: { key: brand.key, name: brand.name },
          imageUrl: product.imageUrl ?? undefined,
          url: product.url ?? undefined,
          attributes: { origin: 'Ethiopia', roast: 'light', weightGrams: 250 },
          status: 'active',
        },
      ] satisfies z.input<typeof importProductSchema>[],
    },
    responses: {
      200: {
        data: {
          results: [catalogImportResult],
          summary: { created: 1, updated: 0, unchanged: 0, failed: 0 },
          categories: { created: 2, updated: 0, unchanged: 0 },
          brands: { created: 1, updated: 0, unchanged: 0 },
        },
      },
    },
  },
};
