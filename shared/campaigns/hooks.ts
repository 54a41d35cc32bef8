/**
 * What the campaigns plug into the areas below them, at the composition root: the handlers (and
 * the MCP tools) pass these to members, tags, captures and orders, which declare the ports
 * (`members/triggers.ts`, `OrdersStore.campaignGrants`) and never import the campaigns.
 */
import { tableOrdersStore, type OrdersStore } from '../orders';
import type { MemberTriggers } from '../members';
import { orderGrants } from './grants';
import { owedGrants } from './triggers';
import { voidOrderCoupons } from '../coupons';

/** A member created or tagged: the welcome and tagging campaigns' rewards, owed in the change's transaction. */
export const memberTriggers: MemberTriggers = owedGrants;

/** The orders on the table, with the order campaigns' rewards planned into each order's change and their coupons voided with it. */
export const ordersWithCampaigns: OrdersStore = {
  ...tableOrdersStore,
  campaignGrants: orderGrants,
  voidCoupons: (workspaceId, ids) => voidOrderCoupons(workspaceId, ids),
};
