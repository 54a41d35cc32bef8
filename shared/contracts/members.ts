import { z } from 'zod';
import {
  batchMembersBody,
  batchResultSchema,
  changePointsBody,
  createMemberBody,
  ledgerEntrySchema,
  listMembersQuery,
  memberSchema,
  pointsBalanceSchema,
  tierStatusSchema,
  updateMemberBody,
} from '../domain/members/schemas';
import { orderSchema } from '../domain/orders/schemas';
import { pageQuery } from '../domain/pagination';
import { contract, dataOf, pageOf } from './contract';

const byId = z.object({ id: z.string() });
const summary = z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), failed: z.number().int() });

export const membersContract = contract({
  'GET /api/v2/members': { query: listMembersQuery, responses: { 200: pageOf(memberSchema) } },
  'POST /api/v2/members': {
    body: createMemberBody,
    responses: { 201: dataOf(memberSchema) },
    description: 'E-mail and externalId are each unique per workspace (409 if taken).',
  },
  'POST /api/v2/members/batch': {
    body: batchMembersBody,
    responses: { 200: dataOf(z.object({ results: z.array(batchResultSchema), summary })) },
    description: 'Upserts up to 500 members. Each item is matched by externalId, then e-mail; the response has one result per item, in order.',
  },
  'GET /api/v2/members/{id}': { params: byId, responses: { 200: dataOf(memberSchema) } },
  'PATCH /api/v2/members/{id}': { params: byId, body: updateMemberBody, responses: { 200: dataOf(memberSchema) } },
  'GET /api/v2/members/{id}/points': {
    params: byId,
    query: pageQuery,
    responses: { 200: dataOf(pointsBalanceSchema.extend({ entries: z.array(ledgerEntrySchema) })).extend({ nextCursor: z.string().nullable() }) },
    description: 'Balance, pending and lifetime points, and a page of the ledger, newest first.',
  },
  'POST /api/v2/members/{id}/points': {
    params: byId,
    body: changePointsBody,
    responses: { 201: dataOf(z.object({ entry: ledgerEntrySchema, points: pointsBalanceSchema, tier: z.string() })) },
    description: 'A deduction larger than the balance is refused with 409 INSUFFICIENT_POINTS.',
  },
  'GET /api/v2/members/{id}/tier': { params: byId, responses: { 200: dataOf(tierStatusSchema) } },
  'GET /api/v2/members/{id}/receipts': { params: byId, query: pageQuery, responses: { 200: pageOf(orderSchema) } },
});
