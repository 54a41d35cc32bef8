import type { ordersArea } from '../orders';
import type { AreaExamples } from './types';
import * as W from './world';

export const ordersExamples: AreaExamples<typeof ordersArea> = {
  listOrders: {
    query: { memberId: "mbr_01jpz8k3m2q7v5x9c4t6r8w2ya", storeId: "sto_01jpz8k3m2q7v5x9c4t6r8w2ya", status: "pending", from: "2026-03-14T09:30:00.000Z", to: "2026-03-14T09:30:00.000Z" },
    responses: {
      200: {
        data: [W.order],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  createOrder: { summary: "x",
    request: {
      externalOrderId: "TODO_externalOrderId",
      memberId: "mbr_01jpz8k3m2q7v5x9c4t6r8w2ya",
      member: {
        email: "ada.lovelace@example.com",
        externalId: "TODO_externalId",
      },
      storeId: "sto_01jpz8k3m2q7v5x9c4t6r8w2ya",
      currency: "EUR",
      total: 59.9,
      items: [{
          sku: "TODO_sku",
          name: "TODO_name",
          quantity: 1,
          unitPrice: 59.9,
          productId: "prd_01jpz8k3m2q7v5x9c4t6r8w2ya",
          category: "TODO_category",
        }],
      occurredAt: "2026-03-14T09:30:00.000Z",
      status: "pending",
    },
    responses: {
      200: {
        data: W.order,
        duplicate: true,
      },
      201: {
        data: W.order,
        duplicate: false,
      },
    },
  },
  reconcileOrders: {
    request: {
      orders: [{}],
    },
    responses: {
      200: {
        data: {
          results: [{
              index: 1,
              externalOrderId: "TODO_externalOrderId",
              outcome: "created",
              orderId: "ord_01jpz8k3m2q7v5x9c4t6r8w2ya",
              pointsDelta: 120,
              error: {
                  code: "TODO_code",
                  message: "TODO_message",
                  details: [{}],
                },
            }],
          summary: {
            created: 1,
            updated: 1,
            unchanged: 1,
            failed: 1,
          },
        },
      },
    },
  },
  refundOrder: {
    request: {
      amount: 59.9,
      reason: "TODO_reason",
    },
    params: { externalOrderId: "TODO_externalOrderId" },
    responses: {
      200: {
        data: {
          order: W.order,
          refund: W.refund,
        },
      },
    },
  },
};
