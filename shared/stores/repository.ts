import { type StoreRecord, storeEntity } from './entities';
import { keyOf, skPrefix } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { prefixPage, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

export function putStoreStep(workspaceId: string, store: StoreRecord): TransactStep {
  return { op: { Put: { Item: storeEntity.toItem(store, { workspaceId, version: 1 }), ConditionExpression: 'attribute_not_exists(pk)' } } };
}

export async function getStore(workspaceId: string, storeId: string): Promise<(StoreRecord & { version: number }) | undefined> {
  const item = await getItem<Record<string, unknown>>(keyOf('store', { workspaceId, storeId }));
  return item ? { ...storeEntity.fromItem(item), version: item.version as number } : undefined;
}

/** Whole-item replace of a store we read, conditional on its version. */
export function replaceStoreStep(workspaceId: string, store: StoreRecord, expectedVersion: number): TransactStep {
  return {
    op: {
      Put: {
        Item: storeEntity.toItem(store, { workspaceId, version: expectedVersion + 1 }),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': expectedVersion },
      },
    },
    onConditionFailed: () => new StaleRead('store'),
  };
}

export async function listStores(workspaceId: string, limit: number, cursor?: string, status?: string): Promise<Page<StoreRecord>> {
  const { pk } = keyOf('workspace', { workspaceId });
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('store'), { limit, cursor, filters: [{ attr: 'status', op: '=', value: status }] });
  return { ...page, items: page.items.map(storeEntity.fromItem) };
}
