import { z } from 'zod';
import { externalOrderIdSchema, createOrderBody, listOrdersQuery, orderSchema, reconcileOrdersBody, reconcileResultSchema, refundBody } from '../domain/orders/schemas';
import { isoDateTime } from '../domain/common';
import { contract, dataOf, pageOf } from './contract';

const summary = z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), failed: z.number().int() });

export const refundSchema = z
  .object({
    id: z.string().describe('rfd_...'),
    amount: z.number(),
    pointsReversed: z.number().int(),
    reason: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Refund' });

export const ordersContract = contract({
  'GET /api/v2/orders': { query: listOrdersQuery, responses: { 200: pageOf(orderSchema) } },
  'POST /api/v2/orders': {
    body: createOrderBody,
    responses: {
      201: dataOf(orderSchema).extend({ duplicate: z.literal(false) }),
      200: dataOf(orderSchema).extend({ duplicate: z.literal(true).describe('The externalOrderId was already recorded: this is that order, nothing was awarded again') }),
    },
  },
  'POST /api/v2/orders/batch': {
    body: reconcileOrdersBody,
    responses: { 200: dataOf(z.object({ results: z.array(reconcileResultSchema), summary })) },
    description: 'Each order is created if missing, corrected if its total, status or refunded total changed (only the difference in points is awarded or reversed), untouched if equal.',
  },
  'POST /api/v2/orders/{externalOrderId}/refund': {
    params: z.object({ externalOrderId: externalOrderIdSchema }),
    body: refundBody,
    responses: { 200: dataOf(z.object({ order: orderSchema, refund: refundSchema })) },
    description: 'Reverses the proportional points. More than what is left to refund: 409 REFUND_EXCEEDS_REMAINING.',
  },
});
