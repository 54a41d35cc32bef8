import { itemError, parseItem, runInLanes, summarise, type BatchOutcome, type ItemError } from '../platform/validation/batch';
import { reconcileOrderSchema } from './schemas';
import { reconcileOrder, type OrdersStore } from './service';

export interface ReconcileResult {
  index: number;
  externalOrderId: string | null;
  outcome: BatchOutcome;
  orderId: string | null;
  pointsDelta: number;
  error: ItemError | null;
}

/** Reconciles up to 500 orders; each one succeeds or fails on its own, in its own transaction. */
export async function reconcileOrders(workspaceId: string, items: unknown[], store: OrdersStore) {
  const idOf = (item: unknown) => {
    const id = (item as Record<string, unknown> | null)?.externalOrderId;
    return typeof id === 'string' ? id : null;
  };
  const results = await runInLanes(
    items,
    (item, i) => idOf(item) ?? `#${i}`,
    8,
    async (raw, index): Promise<ReconcileResult> => {
      try {
        const input = parseItem(reconcileOrderSchema, raw);
        const done = await reconcileOrder(workspaceId, input, new Date(), store);
        return { index, externalOrderId: input.externalOrderId, outcome: done.outcome, orderId: done.orderId, pointsDelta: done.pointsDelta, error: null };
      } catch (err) {
        return { index, externalOrderId: idOf(raw), outcome: 'failed', orderId: null, pointsDelta: 0, error: itemError(err) };
      }
    },
  );
  return { results, summary: summarise(results) };
}
