/**
 * The door of the orders area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { orderAmounts } from './amounts';
export { reconcileOrders } from './batch';
export { ordersArea, refundSchema } from './contract';
export { withinAllowance } from './earn-caps';
export { earnAmountRules, earningAmount, matchingAmount } from './earning-amount';
export type { OrderLine } from './earning-amount';
export type { OrderRecord } from './entities';
export { listOrders as listOrderRecords } from './repository';
export { createOrderBody, externalOrderIdSchema, listOrdersQuery, orderSchema, reconcileOrderSchema, refundBody } from './schemas';
export { createOrder, listOrders, refundOrder, resolveMember, tableOrdersStore } from './service';
export type { CreatedOrder, OrderFacts, OrdersStore, RefundResult } from './service';
export { toOrder } from './types';
