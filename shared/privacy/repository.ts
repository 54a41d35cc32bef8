import { withoutKeys } from '../platform/data/entity';
import { indexPartition, keyOf, seqKey, skPrefix } from '../platform/data/keys';
import { getItem, updateItem, type Item } from '../platform/data/items';
import { queryRaw } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

/**
 * What the platform holds about one member, found through the member's own partition and the
 * indexes keyed by the member (orders, coupons, captures, tracking events): the data-subject export
 * reads it, the erasure scrubs it. Never a Scan.
 */

/** Every item of one Query, page after page (a member's items: bounded by what one member has). */
async function queryAll(input: Parameters<typeof queryRaw>[0]): Promise<Item[]> {
  const out: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryRaw({ ...input, ExclusiveStartKey: startKey });
    out.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}

const memberPartition = (workspaceId: string, memberId: string) => keyOf('member', { workspaceId, memberId }).pk;

/** Items of the member's own partition whose sort key starts with `prefix` (oldest first). */
export async function memberPartitionItems(workspaceId: string, memberId: string, prefix: string): Promise<Item[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': memberPartition(workspaceId, memberId), ':p': prefix },
    ConsistentRead: true,
  });
  return items.map(withoutKeys);
}

export const ledgerItems = (workspaceId: string, memberId: string) => memberPartitionItems(workspaceId, memberId, skPrefix('ledgerEntry'));
export const tagItems = (workspaceId: string, memberId: string) => memberPartitionItems(workspaceId, memberId, skPrefix('memberTag'));

type MemberIndexed =
  | { entity: 'order'; gsi: 'gsi2' }
  | { entity: 'coupon'; gsi: 'gsi2' }
  | { entity: 'capture'; gsi: 'gsi1' }
  | { entity: 'trackedEvent'; gsi: 'gsi1' };
const BY_MEMBER = {
  orders: { entity: 'order', gsi: 'gsi2' },
  coupons: { entity: 'coupon', gsi: 'gsi2' },
  captures: { entity: 'capture', gsi: 'gsi1' },
  trackingEvents: { entity: 'trackedEvent', gsi: 'gsi1' },
} as const satisfies Record<string, MemberIndexed>;

/** The member's items of one kind through the index keyed by the member, oldest first, with their keys (for scrubbing). */
export async function memberIndexed(
  workspaceId: string,
  memberId: string,
  kind: keyof typeof BY_MEMBER,
): Promise<{ key: { pk: string; sk: string }; item: Item }[]> {
  const { entity, gsi } = BY_MEMBER[kind];
  const items = await queryAll({
    IndexName: gsi,
    KeyConditionExpression: `${gsi}pk = :pk`,
    ExpressionAttributeValues: { ':pk': indexPartition(entity, gsi, { workspaceId, memberId }) },
  });
  return items.map((i) => ({ key: { pk: String(i.pk), sk: String(i.sk) }, item: withoutKeys(i) }));
}

export async function getErasure(workspaceId: string, memberId: string): Promise<{ erasedAt: string } | undefined> {
  return getItem<{ erasedAt: string }>(keyOf('memberErasure', { workspaceId, memberId }));
}

/** The erasure's marker, only once: a repeat finds it and changes nothing more on the member. */
export function erasureMarkerStep(workspaceId: string, memberId: string, erasedAt: string, onTaken: () => Error): TransactStep {
  return {
    op: {
      Put: {
        Item: { ...keyOf('memberErasure', { workspaceId, memberId }), entity: 'memberErasure', workspaceId, memberId, erasedAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    onConditionFailed: onTaken,
  };
}

export const commit = (steps: TransactStep[]) => transactWrite(steps);

/** Sets attributes of one item (that still exists): the scrubbing of one capture, event or ledger entry. */
export async function scrub(key: { pk: string; sk: string }, fields: Record<string, unknown>): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  // Idempotent (same values every time), so a re-send after an unknown outcome is harmless.
  await updateItem(
    {
      Key: key,
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'NONE',
    },
    { appliedIn: () => true },
  ).catch((err: Error) => {
    if (err.name !== 'ConditionalCheckFailedException') throw err;
  });
}

/** Removes one item (a lookup keyed by a personal value, a dedupe window keyed by its hash). */
export async function removeItem(key: { pk: string; sk: string }): Promise<void> {
  await transactWrite([{ op: { Delete: { Key: key } } }]);
}

/** The window that refuses the same capture twice (its fingerprint: email, phone, source). */
export const removeCaptureWindow = (workspaceId: string, fingerprint: string): Promise<void> =>
  removeItem(keyOf('captureWindow', { workspaceId, fingerprint }));

/** The lookup from a phone number to its captures. */
export const removeCapturePhone = (workspaceId: string, phone: string): Promise<void> => removeItem(keyOf('capturePhone', { workspaceId, phone }));

/** One entry of a member's ledger, by its revision. */
export const scrubLedgerEntry = (workspaceId: string, memberId: string, rev: number, fields: Record<string, unknown>): Promise<void> =>
  scrub(keyOf('ledgerEntry', { workspaceId, memberId, seq: seqKey(rev) }), fields);
