import { ordersArea, reconcileOrders } from '../../shared/orders';
import * as orders from '../../shared/orders';
import { getMember } from '../../shared/members';
import { ordersWithCampaigns } from '../../shared/campaigns';
import { defineArea } from '../../shared/http/area';
import { type OperationHandler, sealed } from '../../shared/http/operation';
import { principalOf } from '../../shared/http/principal';
import { ok, type Reply } from '../../shared/http/responses';

/** A new order is 201; a repeat of a recorded externalOrderId is 200 with `duplicate: true`. */
const orderReply = (r: orders.CreatedOrder): Reply => ({ status: r.duplicate ? 200 : 201, body: { data: r.order, duplicate: r.duplicate } });
const refundReply = (r: orders.RefundResult): Reply => ok(r);

/** A member's orders, for a key and for the console alike; an unknown member is 404, not an empty list. */
const receiptsOf: OperationHandler<typeof ordersArea.endpoints.listMemberReceipts> = async ({ principal, params, query }) => {
  const workspaceId = principalOf(principal).workspaceId;
  await getMember(workspaceId, params.id);
  const page = await orders.listOrders(workspaceId, { ...query, memberId: params.id });
  return ok(page.items, { nextCursor: page.nextCursor ?? null });
};

export const handler = defineArea(ordersArea, {
  listOrders: async ({ principal, query }) => {
    const page = await orders.listOrders(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createOrder: sealed(orderReply, ({ principal, body }, write) =>
    orders.createOrder(principalOf(principal).workspaceId, body, write, new Date(), ordersWithCampaigns),
  ),
  reconcileOrders: async ({ principal, body }) => ok(await reconcileOrders(principalOf(principal).workspaceId, body.orders, ordersWithCampaigns)),
  refundOrder: sealed(refundReply, ({ principal, params, body }, write) =>
    orders.refundOrder(principalOf(principal).workspaceId, params.externalOrderId, body, write, new Date(), ordersWithCampaigns),
  ),
  listMemberReceipts: receiptsOf,
  listMemberReceiptsInConsole: receiptsOf,
});
