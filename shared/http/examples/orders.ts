import type * as z from 'zod';
import type { reconcileOrderSchema, ordersArea } from '../../orders';
import type { AreaExamples } from './types';
import { at, ids, order, refund, refundedOrder } from './world';

const createOrder = {
  externalOrderId: 'WEB-100234',
  memberId: ids.member,
  storeId: ids.store,
  currency: 'EUR',
  total: 59.9,
  items: [
    { sku: 'BEAN-ETH-250', name: 'Ethiopia Yirgacheffe 250 g', quantity: 2, unitPrice: 14.95 },
    { sku: 'MUG-BLK', name: 'Stoneware mug, black', quantity: 1, unitPrice: 30 },
  ],
  occurredAt: '2026-03-14T12:05:00+01:00',
};

export const ordersExamples: AreaExamples<typeof ordersArea> = {
  listOrders: {
    summary: "A member's completed orders of one week",
    query: { memberId: ids.member, status: 'completed', from: '2026-03-09T00:00:00Z', to: '2026-03-16T00:00:00Z', limit: 50 },
    responses: { 200: { data: [order], nextCursor: null } },
  },
  createOrder: {
    summary: 'Record a completed web order of 59.90 EUR',
    request: createOrder,
    responses: { 201: { data: order, duplicate: false }, 200: { data: order, duplicate: true } },
  },
  reconcileOrders: {
    summary: 'Reconcile the day: one order refunded in the shop system, one unknown here',
    request: {
      orders: [
        { ...createOrder, status: 'completed', refundedTotal: 30 },
        {
          externalOrderId: 'POS-BER01-5521',
          member: { email: 'alan.turing@example.com' },
          storeId: ids.store,
          currency: 'EUR',
          total: 7.4,
          status: 'completed',
          occurredAt: '2026-03-14T16:20:00+01:00',
        },
      ] satisfies z.input<typeof reconcileOrderSchema>[],
    },
    responses: {
      200: {
        data: {
          results: [
            { index: 0, externalOrderId: 'WEB-100234', outcome: 'updated', orderId: ids.order, pointsDelta: -29, error: null },
            { index: 1, externalOrderId: 'POS-BER01-5521', outcome: 'created', orderId: 'ord_01jpz8p6r8t0v2x4z6b8d0f2hk', pointsDelta: 7, error: null },
          ],
          summary: { created: 1, updated: 1, unchanged: 0, failed: 0 },
        },
      },
    },
  },
  refundOrder: {
    summary: 'Refund the broken mug (30.00 EUR)',
    params: { externalOrderId: 'WEB-100234' },
    request: { amount: 30, reason: 'Mug arrived broken' },
    responses: { 200: { data: { order: { ...refundedOrder, updatedAt: at.refunded }, refund } } },
  },
  listMemberReceipts: { params: { id: ids.member }, query: { limit: 20 }, responses: { 200: { data: [refundedOrder], nextCursor: null } } },
  listMemberReceiptsInConsole: { params: { id: ids.member }, query: { limit: 10 }, responses: { 200: { data: [refundedOrder], nextCursor: null } } },
};
