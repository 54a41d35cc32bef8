import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import { createStoreBody, storeSchema, updateStoreBody } from './schemas';
import { STORE_STATUSES } from './entities';
import { pageQueryShape } from '../platform/validation/pagination';
import { dataOf, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });

export const storesArea = declareArea({
  area: 'stores',
  description: 'Stores (physical or online) that orders and members belong to.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listStores: {
      method: 'GET',
      path: '/api/v2/stores',
      auth: ['apiKey'],
      scope: 'stores:read',
      summary: 'List stores',
      query: z.strictObject({ ...pageQueryShape, status: z.enum(STORE_STATUSES).optional() }),
      responses: { 200: pageOf(storeSchema) },
    },
    createStore: {
      method: 'POST',
      path: '/api/v2/stores',
      auth: ['apiKey'],
      scope: 'stores:write',
      summary: 'Create a store',
      idempotent: true,
      body: createStoreBody,
      responses: { 201: dataOf(storeSchema) },
    },
    getStore: {
      method: 'GET',
      path: '/api/v2/stores/{id}',
      auth: ['apiKey'],
      scope: 'stores:read',
      summary: 'Get a store',
      params: byId,
      responses: { 200: dataOf(storeSchema) },
    },
    updateStore: {
      method: 'PATCH',
      path: '/api/v2/stores/{id}',
      auth: ['apiKey'],
      scope: 'stores:write',
      summary: 'Update a store',
      params: byId,
      body: updateStoreBody,
      responses: { 200: dataOf(storeSchema) },
    },
  },
});
