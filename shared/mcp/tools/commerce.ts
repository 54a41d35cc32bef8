import * as z from 'zod';
import { refundSchema, createOrderBody, externalOrderIdSchema, listOrdersQuery, orderSchema, refundBody } from '../../orders';
import * as catalog from '../../catalog';
import { listProductsQuery, productSchema } from '../../catalog';
import * as coupons from '../../coupons';
import { couponSchema, issueCouponBody, listMemberCouponsQuery, poolSchema, redeemByCodeBody, redeemCouponBody } from '../../coupons';
import * as orders from '../../orders';
import { ordersWithCampaigns } from '../../campaigns';
import * as stores from '../../stores';
import { storeSchema, STORE_STATUSES } from '../../stores';
import { defineTool, idempotencyKeyArg, memberIdArg, pageArgs, pageOf, pageResult, READ_ONLY, write } from '../registry';

/** Orders, coupons, stores and the catalog. */

const o = listOrdersQuery.shape;

export const commerceTools = [
  defineTool({
    name: 'create_order',
    title: 'Record an order',
    description:
      'Records a purchase of a member and awards its points by the program rules (pending orders hold pending points). The externalOrderId (your order number) is unique: recording it again answers the recorded order with duplicate: true and awards nothing.',
    rest: 'createOrder',
    service: orders.createOrder,
    input: z.strictObject({
      order: createOrderBody.describe('The order: externalOrderId, memberId, currency, total, occurredAt, optional items and storeId'),
      idempotencyKey: idempotencyKeyArg,
    }),
    output: z.object({ order: orderSchema, duplicate: z.boolean() }),
    annotations: write({ destructive: false, idempotent: true }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => orders.createOrder(ctx.workspaceId, a.order, w, new Date(), ordersWithCampaigns),
  }),
  defineTool({
    name: 'list_orders',
    title: 'List orders',
    description: "Orders, newest first; give memberId for one member's orders, or filter by store, status and a date range (occurredAt, ISO 8601).",
    rest: 'listOrders',
    service: orders.listOrders,
    input: z
      .strictObject({ ...pageArgs, memberId: memberIdArg.optional(), storeId: o.storeId, status: o.status, from: o.from, to: o.to })
      .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { message: 'must not be after to', path: ['from'] }),
    output: pageOf(orderSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await orders.listOrders(ctx.workspaceId, a)),
  }),
  defineTool({
    name: 'refund_order',
    title: 'Refund an order',
    description:
      'Refunds an order fully (no amount) or partly, and takes back the proportional points. More than what is left to refund is REFUND_EXCEEDS_REMAINING. Pass an idempotencyKey so a retry cannot refund twice.',
    rest: 'refundOrder',
    service: orders.refundOrder,
    input: z.strictObject({
      externalOrderId: externalOrderIdSchema.describe('Your order number, as recorded'),
      ...refundBody.shape,
      idempotencyKey: idempotencyKeyArg,
    }),
    output: z.object({ order: orderSchema, refund: refundSchema }),
    annotations: write({ destructive: false, idempotent: false }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => orders.refundOrder(ctx.workspaceId, a.externalOrderId, { amount: a.amount, reason: a.reason }, w, new Date(), ordersWithCampaigns),
  }),
  defineTool({
    name: 'list_coupon_pools',
    title: 'List coupon pools',
    description:
      'Coupon pools (campaigns), newest first, with their discount, validity, status and issued, redeemed and remaining counts. Use a pool id with issue_coupon.',
    rest: 'listCouponPools',
    service: coupons.listPools,
    input: z.strictObject(pageArgs),
    output: pageOf(poolSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await coupons.listPools(ctx.workspaceId, a)),
  }),
  defineTool({
    name: 'issue_coupon',
    title: 'Issue a coupon',
    description:
      'Issues one coupon of a pool to a member. Refused with POOL_EXHAUSTED, POOL_NOT_ACTIVE, COUPON_LIMIT_REACHED, or INSUFFICIENT_POINTS when the pool costs points the member lacks (then nothing is issued). Pass an idempotencyKey so a retry cannot issue twice.',
    rest: 'issueCoupon',
    service: coupons.issueCoupon,
    input: z.strictObject({ ...issueCouponBody.shape, idempotencyKey: idempotencyKeyArg }),
    output: couponSchema,
    annotations: write({ destructive: false, idempotent: false }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => coupons.issueCoupon(ctx.workspaceId, { poolId: a.poolId, memberId: a.memberId }, { apiKeyId: ctx.principal.keyId }, w),
  }),
  defineTool({
    name: 'redeem_coupon',
    title: 'Redeem a coupon',
    description:
      'Redeems a coupon by its id, at most once: COUPON_ALREADY_REDEEMED afterwards, COUPON_EXPIRED after its validUntil. Pass an idempotencyKey so a retry answers the same redemption.',
    rest: 'redeemCoupon',
    service: coupons.redeemCoupon,
    input: z.strictObject({
      couponId: z.string().min(1).max(64).describe('The coupon id (cpn_...)'),
      ...redeemCouponBody.shape,
      idempotencyKey: idempotencyKeyArg,
    }),
    output: couponSchema,
    annotations: write({ destructive: false, idempotent: false }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => coupons.redeemCoupon(ctx.workspaceId, a.couponId, { externalOrderId: a.externalOrderId }, coupons.tableRedemptionStore, w),
  }),
  defineTool({
    name: 'redeem_member_coupon',
    title: "Redeem a member's coupon by code",
    description:
      "Redeems the member's coupon with this code (as the member shows it; case does not matter). A code of another member is NOT_FOUND; otherwise as redeem_coupon.",
    rest: 'redeemMemberCoupon',
    service: coupons.redeemMemberCoupon,
    input: z.strictObject({ memberId: memberIdArg, ...redeemByCodeBody.shape, idempotencyKey: idempotencyKeyArg }),
    output: couponSchema,
    annotations: write({ destructive: false, idempotent: false }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) =>
      coupons.redeemMemberCoupon(ctx.workspaceId, a.memberId, { code: a.code, externalOrderId: a.externalOrderId }, coupons.tableRedemptionStore, w),
  }),
  defineTool({
    name: 'list_member_coupons',
    title: "A member's coupons",
    description: "The member's coupons, newest first, optionally of one pool or status (issued: still redeemable; redeemed; expired).",
    rest: 'listMemberCoupons',
    service: coupons.listMemberCoupons,
    input: z.strictObject({ memberId: memberIdArg, ...pageArgs, poolId: listMemberCouponsQuery.shape.poolId, status: listMemberCouponsQuery.shape.status }),
    output: pageOf(couponSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await coupons.listMemberCoupons(ctx.workspaceId, a.memberId, a)),
  }),
  defineTool({
    name: 'list_stores',
    title: 'List stores',
    description: "The merchant's stores (sto_...), newest first, optionally only active or closed ones.",
    rest: 'listStores',
    service: stores.listStores,
    input: z.strictObject({ ...pageArgs, status: z.enum(STORE_STATUSES).optional() }),
    output: pageOf(storeSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await stores.listStores(ctx.workspaceId, a.limit, a.cursor, a.status)),
  }),
  defineTool({
    name: 'get_store',
    title: 'Get a store',
    description: 'One store by id: name, code, address, timezone, currency, status.',
    rest: 'getStore',
    service: stores.getStore,
    input: z.strictObject({ storeId: z.string().min(1).max(64).describe('The store id (sto_...)') }),
    output: storeSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => stores.getStore(ctx.workspaceId, a.storeId),
  }),
  defineTool({
    name: 'search_products',
    title: 'Search the catalog',
    description:
      'Products, newest first: free text q (part of sku, name or description), a category or brand (key or id), a status. Returns prices, categories and attributes.',
    rest: 'listProducts',
    service: catalog.listProducts,
    input: z.strictObject({
      ...pageArgs,
      q: listProductsQuery.shape.q,
      category: listProductsQuery.shape.category,
      brand: listProductsQuery.shape.brand,
      status: listProductsQuery.shape.status,
    }),
    output: pageOf(productSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await catalog.listProducts(ctx.workspaceId, a)),
  }),
  defineTool({
    name: 'get_product',
    title: 'Get a product',
    description: 'One product by id (prd_...): sku, name, description, price, categories, brand, attributes and status.',
    rest: 'getProduct',
    service: catalog.getProduct,
    input: z.strictObject({ productId: z.string().min(1).max(64).describe('The product id (prd_...)') }),
    output: productSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => catalog.getProduct(ctx.workspaceId, a.productId),
  }),
];
