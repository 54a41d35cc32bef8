import * as z from 'zod';
import { ORDER_STATUSES } from './entities';
import { filterValue, pageQueryShape } from '../platform/validation/pagination';
import { emailSchema } from '../auth';
import { idSchema, isoDateTime, rawItemKey } from '../platform/validation/common';
import { amountSchema, currencySchema } from '../platform/money';
import { externalIdSchema } from '../members';

export const externalOrderIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:#-]{0,127}$/, { message: 'letters, digits and . _ : # - (max 128)' })
  .describe("The order's id in your system; unique per workspace");

const itemSchema = z.strictObject({
  sku: z.string().max(100).optional(),
  name: z.string().max(200).optional(),
  quantity: z.number().int().min(1).max(100_000).describe('Units of this item, 1-100000'),
  unitPrice: amountSchema
    .optional()
    .describe("Price of one unit before discounts, in major units; needed for the item's own earning (exclusions, category, brand and SKU bonuses)"),
  discount: amountSchema.optional().describe('Discount on this line (all its units), in major units; at most unitPrice x quantity'),
  productId: z.string().max(100).optional(),
  category: z.string().max(100).optional(),
  brand: z.string().trim().min(1).max(100).optional().describe("The item's brand, e.g. Acme (what `order.items.brand` campaign conditions match)"),
});

/** How an order names its member: our id, or a lookup by e-mail or externalId. */
const memberRef = {
  memberId: idSchema.optional().describe('mbr_... (or use `member` to look the member up)'),
  member: z
    .strictObject({ email: emailSchema.optional(), externalId: externalIdSchema.optional() })
    .refine((m) => Boolean(m.email) !== Boolean(m.externalId), { message: 'give exactly one of email or externalId' })
    .optional(),
};

const orderFields = {
  externalOrderId: externalOrderIdSchema,
  ...memberRef,
  storeId: idSchema.optional(),
  currency: currencySchema,
  total: amountSchema.describe("Order total in major units (e.g. 59.90), what the customer pays; points are earned on it unless the program's basis is net"),
  subtotal: amountSchema
    .optional()
    .describe(
      'Sum of the items before the order discount (unitPrice x quantity - item discount), without tax and shipping; when every item is priced, it must equal their sum',
    ),
  discount: amountSchema.optional().describe('Discount on the whole order (coupons, promotions), at most the subtotal'),
  tax: amountSchema.optional().describe('Tax included in the total'),
  shipping: amountSchema.optional().describe('Shipping charged in the total'),
  items: z.array(itemSchema).max(500).optional(),
  occurredAt: isoDateTime.describe('When the order was placed (not when you send it): an ISO 8601 date-time with its offset, e.g. 2026-03-14T12:05:00+01:00'),
};

const oneMemberRef = (b: { memberId?: string; member?: unknown }) => (b.memberId === undefined) !== (b.member === undefined);

export const createOrderBody = z
  .strictObject({
    ...orderFields,
    status: z.enum(['pending', 'completed']).default('completed').describe('pending: points are pending until the order completes (e.g. a return window)'),
  })
  .refine(oneMemberRef, { message: 'give exactly one of memberId or member', path: ['memberId'] });

export const reconcileOrderSchema = z
  .strictObject({
    ...orderFields,
    status: z.enum(ORDER_STATUSES),
    refundedTotal: amountSchema.optional().describe('What the system of record has refunded so far; omitted: keep ours'),
  })
  .refine(oneMemberRef, { message: 'give exactly one of memberId or member', path: ['memberId'] })
  .meta({ id: 'ReconcileOrder' });

export const MAX_ORDER_BATCH = 500;
export const reconcileOrdersBody = z.strictObject({
  orders: z
    .array(z.record(rawItemKey, z.unknown()).describe('A ReconcileOrder; each is validated on its own and fails on its own'))
    .min(1)
    .max(MAX_ORDER_BATCH)
    .describe(`1-${MAX_ORDER_BATCH} orders as your system of record has them now, matched by externalOrderId`),
});

export const reconcileResultSchema = z.object({
  index: z.number().int(),
  externalOrderId: z.string().nullable(),
  outcome: z.enum(['created', 'updated', 'unchanged', 'failed']),
  orderId: z.string().nullable(),
  pointsDelta: z.number().int().describe('Change of the member balance (and pending) caused by this item'),
  error: z.object({ code: z.string(), message: z.string(), details: z.array(z.unknown()).optional() }).nullable(),
});

export const refundBody = z.strictObject({
  amount: amountSchema.optional().describe('Amount to refund; omitted: everything still refundable'),
  reason: z.string().trim().min(1).max(500).optional(),
});

export const orderSchema = z
  .object({
    id: z.string().describe('ord_...'),
    externalOrderId: z.string(),
    memberId: z.string(),
    storeId: z.string().nullable(),
    currency: z.string(),
    total: z.number(),
    earningAmount: z.number().describe("The amount the order's points are earned on under the program's basis and exclusions (the total, by default)"),
    refundedTotal: z.number(),
    status: z.enum(ORDER_STATUSES),
    refundStatus: z.enum(['none', 'partial', 'full']),
    items: z.array(z.record(z.string(), z.unknown())),
    points: z.object({
      earned: z.number().int().describe('Points the order earns on its total under the rules at its creation'),
      reversed: z.number().int().describe('Points taken back by refunds and cancellation'),
      net: z.number().int().describe('earned - reversed: what the member holds from this order'),
      pending: z.boolean().describe('True while the order is pending (points are pending too)'),
    }),
    occurredAt: isoDateTime,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Order' });

export type Order = z.infer<typeof orderSchema>;
export type CreateOrderInput = z.infer<typeof createOrderBody>;
export type ReconcileOrderInput = z.infer<typeof reconcileOrderSchema>;

export const listOrdersQuery = z
  .strictObject({
    ...pageQueryShape,
    memberId: filterValue().optional(),
    storeId: filterValue().optional(),
    status: z.enum(ORDER_STATUSES).optional(),
    from: isoDateTime.optional().describe('occurredAt >= from'),
    to: isoDateTime.optional().describe('occurredAt < to; not before from'),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { message: 'must not be after to', path: ['from'] });
