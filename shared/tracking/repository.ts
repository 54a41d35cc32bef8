import { keyOf, indexKeysOf, type PrimaryKey } from '../platform/data/keys';
import { batchGetItems, queryRaw } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

export interface TrackedEventRecord {
  eventId: string;
  memberId: string;
  type: string;
  /** UTC, millisecond ISO: sorts as a string. */
  occurredAt: string;
  day: string;
  properties: Record<string, unknown>;
  receivedAt: string;
}

/** The event was accepted before, by another request that committed first. */
export class AlreadyTracked extends Error {
  constructor(readonly eventId: string) {
    super(`event ${eventId} already tracked`);
  }
}

/** Which of these event ids are already stored. */
export async function existingEventIds(workspaceId: string, eventIds: string[]): Promise<Set<string>> {
  const items = await batchGetItems(
    eventIds.map((eventId) => keyOf('trackedEvent', { workspaceId, eventId })),
    { attributes: ['eventId'] },
  );
  return new Set(items.map((i) => i.eventId as string));
}

/** Which of these member ids name members of the workspace. */
export async function existingMemberIds(workspaceId: string, memberIds: string[]): Promise<Set<string>> {
  const keys: PrimaryKey[] = memberIds.map((memberId) => keyOf('member', { workspaceId, memberId }));
  const items = await batchGetItems(keys, { attributes: ['id'] });
  return new Set(items.map((i) => i.id as string));
}

/**
 * Accepts events: each is put only if its eventId is new (the dedupe key), and the per-(day, type)
 * counters move by the number accepted, in the same transaction, so stats are exact reads.
 */
export function acceptSteps(workspaceId: string, events: TrackedEventRecord[]): TransactStep[] {
  const counts = new Map<string, { day: string; type: string; n: number }>();
  for (const e of events) {
    const k = `${e.day}#${e.type}`;
    const c = counts.get(k) ?? { day: e.day, type: e.type, n: 0 };
    c.n++;
    counts.set(k, c);
  }
  return [
    ...events.map(
      (e): TransactStep => ({
        op: {
          Put: {
            Item: {
              ...keyOf('trackedEvent', { workspaceId, eventId: e.eventId }),
              ...indexKeysOf('trackedEvent', { workspaceId, memberId: e.memberId, occurredAt: e.occurredAt, eventId: e.eventId }),
              entity: 'trackedEvent',
              workspaceId,
              ...e,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => new AlreadyTracked(e.eventId),
      }),
    ),
    ...[...counts.values()].map(
      (c): TransactStep => ({
        op: {
          Update: {
            Key: keyOf('trackCounter', { workspaceId, day: c.day, type: c.type }),
            UpdateExpression: 'SET entity = :e, #day = :day, #type = :type ADD #count :n',
            ExpressionAttributeNames: { '#day': 'day', '#type': 'type', '#count': 'count' },
            ExpressionAttributeValues: { ':e': 'trackCounter', ':day': c.day, ':type': c.type, ':n': c.n },
          },
        },
      }),
    ),
  ];
}

/** Every (day, type) counter from `from` to `to` (days included): one range Query of the workspace's counters. */
export async function countersBetween(workspaceId: string, from: string, to: string): Promise<{ day: string; type: string; count: number }[]> {
  const { pk } = keyOf('trackCounter', { workspaceId, day: from, type: 'x' });
  const out: { day: string; type: string; count: number }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryRaw({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      // '~' sorts after every character a type may contain.
      ExpressionAttributeValues: { ':pk': pk, ':from': `${from}#`, ':to': `${to}#~` },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    });
    for (const i of page.Items ?? []) out.push({ day: i.day as string, type: i.type as string, count: i.count as number });
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}
