/** The member's earning-cap counts (`earn-caps.ts`): one item in the member's partition. */
import type { EarnCapsRecord } from './entities';
import { keyOf } from '../platform/data/keys';
import { getItem } from '../platform/data/items';
import { StaleRead } from '../platform/data/concurrency';
import type { TransactStep } from '../platform/data/transactions';

export async function getEarnCaps(workspaceId: string, memberId: string): Promise<EarnCapsRecord | undefined> {
  const item = await getItem<EarnCapsRecord & { pk: string; sk: string; entity: string }>(keyOf('earnCaps', { workspaceId, memberId }));
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, entity: _e, ...record } = item;
  return record;
}

/**
 * The counts after an order, conditional on the version read: an order that counted meanwhile
 * fails the condition and the change is planned again on fresh counts, so no allowance is spent twice.
 */
export function earnCapsStep(workspaceId: string, memberId: string, usage: Omit<EarnCapsRecord, 'version'>, readVersion: number | undefined): TransactStep {
  const version = (readVersion ?? 0) + 1;
  return {
    op: {
      Put: {
        Item: { ...keyOf('earnCaps', { workspaceId, memberId }), entity: 'earnCaps', ...usage, version },
        ConditionExpression: readVersion === undefined ? 'attribute_not_exists(pk)' : 'version = :v',
        ...(readVersion === undefined ? {} : { ExpressionAttributeValues: { ':v': readVersion } }),
      },
    },
    onConditionFailed: () => new StaleRead('earning caps count'),
  };
}
