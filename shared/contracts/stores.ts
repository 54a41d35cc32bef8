import { z } from 'zod';
import { createStoreBody, STORE_STATUSES, storeSchema, updateStoreBody } from '../domain/stores/schemas';
import { pageQueryShape } from '../domain/pagination';
import { contract, dataOf, pageOf } from './contract';

const byId = z.object({ id: z.string() });

export const storesContract = contract({
  'GET /api/v2/stores': { query: z.strictObject({ ...pageQueryShape, status: z.enum(STORE_STATUSES).optional() }), responses: { 200: pageOf(storeSchema) } },
  'POST /api/v2/stores': { body: createStoreBody, responses: { 201: dataOf(storeSchema) } },
  'GET /api/v2/stores/{id}': { params: byId, responses: { 200: dataOf(storeSchema) } },
  'PATCH /api/v2/stores/{id}': { params: byId, body: updateStoreBody, responses: { 200: dataOf(storeSchema) } },
});
