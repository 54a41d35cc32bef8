import * as z from 'zod';
import { externalOrderIdSchema, createOrderBody, listOrdersQuery, orderSchema, reconcileOrdersBody, reconcileResultSchema, refundBody } from './schemas';
import { idSchema, isoDateTime } from '../platform/validation/common';
import { pageQuery } from '../platform/validation/pagination';
import { dataOf, pageOf, errorBody } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const summary = z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), failed: z.number().int() });

export const refundSchema = z
  .object({
    id: z.string().describe('rfd_...'),
    amount: z.number(),
    pointsReversed: z.number().int().describe('Points taken back: basePointsReversed + bonusPointsReversed'),
    basePointsReversed: z.number().int().describe("The order's own points taken back (waiting or spendable; its points that had expired are not taken again)"),
    bonusPointsReversed: z.number().int().describe('Campaign points granted on the order taken back in the same proportion'),
    coupons: z
      .object({
        voided: z.array(z.string()).describe('cpn_...: coupons campaigns granted on the order, unused, voided by this refund'),
        used: z.array(z.string()).describe('cpn_...: coupons campaigns granted on the order that were already redeemed: not voided'),
      })
      .describe('Only the refund that refunds the order in full looks at its coupons; empty otherwise'),
    reason: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Refund' });

export const ordersArea = declareArea({
  area: 'orders',
  description: 'Orders from your shop: recording one awards its points; refunds reverse them; reconciliation aligns orders with your system of record.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listOrders: {
      method: 'GET',
      path: '/api/v2/orders',
      auth: ['apiKey'],
      scope: 'orders:read',
      summary: 'List and filter orders',
      query: listOrdersQuery,
      responses: { 200: pageOf(orderSchema) },
    },
    createOrder: {
      method: 'POST',
      path: '/api/v2/orders',
      auth: ['apiKey'],
      scope: 'orders:write',
      summary: 'Record an order and award its points',
      idempotent: true,
      body: createOrderBody,
      responses: {
        201: dataOf(orderSchema).extend({ duplicate: z.literal(false) }),
        200: dataOf(orderSchema).extend({
          duplicate: z.literal(true).describe('The externalOrderId was already recorded: this is that order, nothing was awarded again'),
        }),
        410: errorBody,
      },
    },
    reconcileOrders: {
      method: 'POST',
      path: '/api/v2/orders/batch',
      auth: ['apiKey'],
      scope: 'orders:write',
      summary: 'Reconcile up to 500 orders with the system of record',
      idempotent: true,
      body: reconcileOrdersBody,
      responses: { 200: dataOf(z.object({ results: z.array(reconcileResultSchema), summary })) },
      description:
        'Each order is created if missing, corrected if its total, status or refunded total changed (only the difference in points is awarded or reversed), untouched if equal.',
    },
    refundOrder: {
      method: 'POST',
      path: '/api/v2/orders/{externalOrderId}/refund',
      auth: ['apiKey'],
      scope: 'orders:write',
      summary: 'Refund an order fully or partly and reverse its points',
      idempotent: true,
      params: z.object({ externalOrderId: externalOrderIdSchema }),
      body: refundBody,
      responses: { 200: dataOf(z.object({ order: orderSchema, refund: refundSchema })), 410: errorBody },
      description: 'Reverses the proportional points. More than what is left to refund: 409 REFUND_EXCEEDS_REMAINING.',
    },
    // A member's orders: declared with the orders (their shape), under the member's path.
    listMemberReceipts: {
      method: 'GET',
      path: '/api/v2/members/{id}/receipts',
      auth: ['apiKey'],
      scope: 'members:read',
      summary: "The member's orders with points earned or reversed",
      params: z.object({ id: idSchema }),
      query: pageQuery,
      responses: { 200: pageOf(orderSchema) },
    },
    listMemberReceiptsInConsole: {
      method: 'GET',
      path: '/api/flash/members/{id}/receipts',
      auth: ['adminSession'],
      permission: 'members:read',
      summary: "The member's orders with points earned or reversed (console)",
      params: z.object({ id: idSchema }),
      query: pageQuery,
      responses: { 200: pageOf(orderSchema) },
      description: 'The orders of `GET /api/v2/members/{id}/receipts` for the console member screen.',
    },
  },
});
