import { type OrderRecord, orderEntity } from './entities';
import { AppError } from '../platform/errors';
import { indexPartition, keyOf } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { filterExpression, indexPage, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';

/** The externalOrderId was recorded meanwhile by a concurrent request. */
export class DuplicateOrder extends AppError {
  constructor() {
    super('CONFLICT', 'This externalOrderId is already recorded');
  }
}

const orderItem = (o: OrderRecord) => orderEntity.toItem(o);

export function putOrderStep(o: OrderRecord): TransactStep {
  return { op: { Put: { Item: orderItem(o), ConditionExpression: 'attribute_not_exists(pk)' } }, onConditionFailed: () => new DuplicateOrder() };
}

/** Whole-item replace of an order we read, conditional on its version. */
export function replaceOrderStep(o: OrderRecord, expectedVersion: number): TransactStep {
  return {
    op: { Put: { Item: orderItem(o), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } } },
    onConditionFailed: () => new StaleRead('order'),
  };
}

export interface RefundRecord {
  id: string;
  amountMinor: number;
  /** Base and campaign points together (absent parts on refunds recorded before they were kept apart). */
  pointsReversed: number;
  basePointsReversed?: number;
  bonusPointsReversed?: number;
  reason: string | null;
  createdAt: string;
}

export function putRefundStep(workspaceId: string, externalOrderId: string, refund: RefundRecord): TransactStep {
  return {
    op: {
      Put: {
        Item: { ...keyOf('refund', { workspaceId, externalOrderId, refundId: refund.id }), entity: 'refund', ...refund },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

export async function getOrder(workspaceId: string, externalOrderId: string): Promise<OrderRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(keyOf('order', { workspaceId, externalOrderId }));
  return item ? orderEntity.fromItem(item) : undefined;
}

export interface OrderFilters {
  memberId?: string;
  storeId?: string;
  status?: string;
  from?: string;
  to?: string;
}

/** Newest first; by member through gsi2, otherwise the workspace's orders through gsi1. */
export async function listOrders(workspaceId: string, filters: OrderFilters, limit: number, cursor?: string): Promise<Page<OrderRecord>> {
  const gsi = filters.memberId ? 'gsi2' : 'gsi1';
  const partition = indexPartition('order', gsi, { workspaceId, memberId: filters.memberId ?? '' });
  const filter = filterExpression([
    { attr: 'storeId', op: '=', value: filters.storeId },
    { attr: 'status', op: '=', value: filters.status },
  ]);
  // Sort keys are `<occurredAt>#<id>`, so a range of ISO timestamps is a key range: [from, to).
  const range = { from: filters.from || undefined, to: filters.to || undefined };
  const page = await indexPage<Record<string, unknown>>(gsi, partition, { limit, cursor, filter, range });
  return { ...page, items: page.items.map(orderEntity.fromItem) };
}
