import { ordersContract } from '../../shared/contracts/orders';
import { reconcileOrders } from '../../shared/domain/orders/batch';
import * as orders from '../../shared/domain/orders/service';
import { defineArea } from '../../shared/http/area';
import { recorder } from '../../shared/http/idempotency';
import { principalOf } from '../../shared/http/principal';
import { ok, type Reply } from '../../shared/http/responses';

/** A new order is 201; a repeat of a recorded externalOrderId is 200 with `duplicate: true`. */
const orderReply = (r: orders.CreatedOrder): Reply => ({ status: r.duplicate ? 200 : 201, body: { data: r.order, duplicate: r.duplicate } });
const refundReply = (r: orders.RefundResult): Reply => ok(r);

export const handler = defineArea('orders', ordersContract, {
  'GET /api/v2/orders': async ({ principal, query }) => {
    const page = await orders.listOrders(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'POST /api/v2/orders': async ({ principal, body, context }) =>
    orderReply(await orders.createOrder(principalOf(principal).workspaceId, body, recorder(context, orderReply))),
  'POST /api/v2/orders/batch': async ({ principal, body }) => ok(await reconcileOrders(principalOf(principal).workspaceId, body.orders)),
  'POST /api/v2/orders/{externalOrderId}/refund': async ({ principal, params, body, context }) =>
    refundReply(await orders.refundOrder(principalOf(principal).workspaceId, params.externalOrderId, body, recorder(context, refundReply))),
});
