import type { catalogArea } from '../catalog';
import type { AreaExamples } from './types';
import * as W from './world';

export const catalogExamples: AreaExamples<typeof catalogArea> = {
  listProducts: {
    query: { category: "TODO_category", brand: "TODO_brand", status: "active", q: "TODO_q" },
    responses: {
      200: {
        data: [W.product],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  getProduct: {
    params: { id: "prd_01jpz8k3m2q7v5x9c4t6r8w2ya" },
    responses: {
      200: {
        data: W.product,
      },
    },
  },
  listCategories: {
    query: { parentKey: "TODO_parentKey" },
    responses: {
      200: {
        data: [W.category],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  listBrands: {
    responses: {
      200: {
        data: [W.brand],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  importCatalog: {
    request: {
      products: [{
              sku: "TODO_sku",
              name: "TODO_name",
              description: "TODO_description",
              price: {
                  amount: 59.9,
                  currency: "EUR",
                },
              category: {
                    key: "TODO_key",
                    name: "TODO_name",
                    parentKey: undefined,
                  },
              categories: [{
                    key: "TODO_key",
                    name: "TODO_name",
                    parentKey: undefined,
                  }],
              brand: {
                    key: "TODO_key",
                    name: "TODO_name",
                  },
              imageUrl: "https://shop.example.com/hooks/loyalty",
              url: "https://shop.example.com/hooks/loyalty",
              attributes: {},
              status: "active",
            }],
    },
    responses: {
      200: {
        data: {
          results: [W.catalogImportResult],
          summary: {
            created: 1,
            updated: 1,
            unchanged: 1,
            failed: 1,
          },
          categories: {
            created: 1,
            updated: 1,
            unchanged: 1,
          },
          brands: {
            created: 1,
            updated: 1,
            unchanged: 1,
          },
        },
      },
    },
  },
};
