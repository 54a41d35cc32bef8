import {
  attemptEntity,
  attemptExpiry,
  type AttemptRecord,
  deliveryEntity,
  type DeliveryRecord,
  type DeliveryState,
  endpointEntity,
  type EndpointRecord,
  type FinalDeliveryState,
} from './entities';
import { notFound } from '../platform/errors';
import { indexKeysOf, indexPartition, keyOf, skPrefix } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem, isConditionFailed, updateItem } from '../platform/data/items';
import { batchGetItems, indexPage, prefixPage, type Page } from '../platform/data/queries';
import { MAX_TRANSACTION_ITEMS, transactWrite, type TransactStep } from '../platform/data/transactions';

const endpointKey = (workspaceId: string, endpointId: string) => keyOf('webhookEndpoint', { workspaceId, endpointId });

/** Endpoint changes take `steps` (their audit entry) into the same transaction. */
export async function putEndpoint(e: EndpointRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([{ op: { Put: { Item: endpointEntity.toItem(e), ConditionExpression: 'attribute_not_exists(pk)' } } }, ...steps]);
}

export async function getEndpoint(workspaceId: string, endpointId: string): Promise<EndpointRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(endpointKey(workspaceId, endpointId));
  return item ? endpointEntity.fromItem(item) : undefined;
}

/** Several endpoints in one consistent read; the ones that do not exist are left out. */
export async function getEndpoints(ids: readonly { workspaceId: string; endpointId: string }[]): Promise<EndpointRecord[]> {
  const items = await batchGetItems<Record<string, unknown>>(ids.map((i) => endpointKey(i.workspaceId, i.endpointId)));
  return items.map(endpointEntity.fromItem);
}

/** Whole-item replace of an endpoint we read, conditional on its version. */
export async function replaceEndpoint(next: EndpointRecord, expectedVersion: number, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Put: {
          Item: endpointEntity.toItem({ ...next, version: expectedVersion + 1 }),
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':v': expectedVersion },
        },
      },
      onConditionFailed: () => new StaleRead('endpoint'),
    },
    ...steps,
  ]);
}

export async function deleteEndpoint(workspaceId: string, endpointId: string, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: { Delete: { Key: endpointKey(workspaceId, endpointId), ConditionExpression: 'attribute_exists(pk)' } },
      onConditionFailed: () => notFound('Webhook endpoint'),
    },
    ...steps,
  ]);
}

export async function listEndpoints(workspaceId: string, limit: number, cursor?: string, consistent = false): Promise<Page<EndpointRecord>> {
  const page = await prefixPage<Record<string, unknown>>(keyOf('workspace', { workspaceId }).pk, skPrefix('webhookEndpoint'), { limit, cursor, consistent });
  return { ...page, items: page.items.map(endpointEntity.fromItem) };
}

/**
 * Every endpoint of a workspace (fan-out), read consistently (the fan-out keeps it for a few
 * seconds); a workspace has few, so one query page after another.
 */
export async function allEndpoints(workspaceId: string): Promise<EndpointRecord[]> {
  const out: EndpointRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await listEndpoints(workspaceId, 100, cursor, true);
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/**
 * Health bookkeeping: the first failure since the last success opens the failing span. These
 * updates may be sent again when an attempt's answer is lost (each says how to recognise its own
 * effect in the stored endpoint), so a lost answer is retried rather than reported unknown.
 */
export async function markFailing(workspaceId: string, endpointId: string, nowEpoch: number): Promise<number | undefined> {
  try {
    const out = await updateItem<{ failingSince?: number }>(
      {
        Key: endpointKey(workspaceId, endpointId),
        UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': nowEpoch },
      },
      { appliedIn: (stored) => stored?.failingSince !== undefined },
    );
    return out?.failingSince ?? undefined;
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}

export async function markHealthy(workspaceId: string, endpointId: string): Promise<void> {
  try {
    await updateItem<{ failingSince?: number }>(
      {
        Key: endpointKey(workspaceId, endpointId),
        UpdateExpression: 'REMOVE failingSince',
        ConditionExpression: 'attribute_exists(failingSince)',
        ReturnValues: 'NONE',
      },
      { appliedIn: (stored) => stored?.failingSince === undefined },
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

/** Disables an active endpoint that is still failing (a success meanwhile keeps it active). */
export async function disableFailingEndpoint(workspaceId: string, endpointId: string, reason: string, nowIso: string): Promise<boolean> {
  try {
    await updateItem<{ status?: string; disabledReason?: string; updatedAt?: string }>(
      {
        Key: endpointKey(workspaceId, endpointId),
        UpdateExpression: 'SET #status = :disabled, disabledReason = :reason, updatedAt = :now, version = version + :one',
        ConditionExpression: '#status = :active AND attribute_exists(failingSince)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':disabled': 'disabled', ':active': 'active', ':reason': reason, ':now': nowIso, ':one': 1 },
        ReturnValues: 'NONE',
      },
      // Once applied, a re-send fails the condition (no longer active) and finds this very change.
      { appliedIn: (stored) => stored?.status === 'disabled' && stored.disabledReason === reason && stored.updatedAt === nowIso },
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

const deliveryKey = (workspaceId: string, endpointId: string, deliveryId: string) => keyOf('webhookDelivery', { workspaceId, endpointId, deliveryId });

export async function getDelivery(workspaceId: string, endpointId: string, deliveryId: string): Promise<DeliveryRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(deliveryKey(workspaceId, endpointId, deliveryId));
  return item ? deliveryEntity.fromItem(item) : undefined;
}

/** A dead delivery enters the endpoint's dead index; any other state takes it out. */
function deadIndexOf(workspaceId: string, endpointId: string, deliveryId: string, dead: boolean): { expression: string; values: Record<string, string> } {
  if (!dead) return { expression: ' REMOVE gsi1pk, gsi1sk', values: {} };
  const keys = indexKeysOf('webhookDelivery', { workspaceId, endpointId, deliveryId });
  return { expression: ', gsi1pk = :gpk, gsi1sk = :gsk', values: { ':gpk': keys.gsi1pk!, ':gsk': keys.gsi1sk! } };
}

/** The log entry and the delivery's current state of one attempt: written together. */
function attemptSteps(workspaceId: string, endpointId: string, payload: string, entry: AttemptRecord): TransactStep[] {
  const expiresAt = attemptExpiry(entry.at);
  const deadIndex = deadIndexOf(workspaceId, endpointId, entry.deliveryId, entry.state === 'dead');
  return [
    {
      op: {
        Put: {
          Item: attemptEntity.toItem(entry, { workspaceId, endpointId }),
        },
      },
    },
    {
      op: {
        Update: {
          Key: deliveryKey(workspaceId, endpointId, entry.deliveryId),
          UpdateExpression:
            'SET entity = :e, deliveryId = :d, endpointId = :ep, eventId = :evt, eventType = :type, payload = if_not_exists(payload, :p), ' +
            `#state = :state, attempts = :n, lastAttemptAt = :at, createdAt = if_not_exists(createdAt, :at), expiresAt = :x${deadIndex.expression}`,
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ...deadIndex.values,
            ':e': 'webhookDelivery',
            ':d': entry.deliveryId,
            ':ep': endpointId,
            ':evt': entry.eventId,
            ':type': entry.eventType,
            ':p': payload,
            ':state': entry.state,
            ':n': entry.attempt,
            ':at': entry.at,
            ':x': expiresAt,
          },
        },
      },
    },
  ];
}

/** Records one attempt: the log entry and the delivery's current state, together. */
export async function recordAttempt(workspaceId: string, endpointId: string, payload: string, entry: AttemptRecord): Promise<void> {
  await transactWrite(attemptSteps(workspaceId, endpointId, payload, entry));
}

export interface AttemptToRecord {
  workspaceId: string;
  endpointId: string;
  payload: string;
  entry: AttemptRecord;
}

/**
 * Records the attempts of one queue batch in as few transactions as they fit (each attempt's two
 * items stay together), and answers one outcome per attempt, in order. A transaction may name an
 * item once, so a delivery that appears twice (the queue handed one message over twice) goes into
 * the next transaction.
 */
export function recordAttempts(attempts: readonly AttemptToRecord[]): Promise<void>[] {
  const groups: { deliveries: Set<string>; steps: TransactStep[]; members: number[] }[] = [];
  attempts.forEach((a, i) => {
    const delivery = `${a.workspaceId}/${a.endpointId}/${a.entry.deliveryId}`;
    let group = groups.find((g) => !g.deliveries.has(delivery) && g.steps.length + 2 <= MAX_TRANSACTION_ITEMS);
    if (!group) groups.push((group = { deliveries: new Set(), steps: [], members: [] }));
    group.deliveries.add(delivery);
    group.members.push(i);
    group.steps.push(...attemptSteps(a.workspaceId, a.endpointId, a.payload, a.entry));
  });
  const outcomes: Promise<void>[] = [];
  for (const g of groups) {
    const written = transactWrite(g.steps);
    for (const i of g.members) outcomes[i] = written;
  }
  return outcomes;
}

/** What the delivery log can be narrowed to: the state after an attempt, one delivery. */
export interface AttemptFilter {
  state?: DeliveryState | undefined;
  deliveryId?: string | undefined;
}

/** The delivery log, newest first; a filter may answer a short page with a cursor (see queryPage). */
export async function listAttempts(
  workspaceId: string,
  endpointId: string,
  limit: number,
  cursor?: string,
  filter: AttemptFilter = {},
): Promise<Page<AttemptRecord>> {
  const { pk } = keyOf('webhookDelivery', { workspaceId, endpointId, deliveryId: 'x' });
  const filters = [
    { attr: 'state', op: '=' as const, value: filter.state },
    { attr: 'deliveryId', op: '=' as const, value: filter.deliveryId },
  ];
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('webhookAttempt'), { limit, cursor, filters });
  return { ...page, items: page.items.map(attemptEntity.fromItem) };
}

/** Dead deliveries of an endpoint (its sparse dead index; eventually consistent, so a claim re-checks). */
export async function deadDeliveries(workspaceId: string, endpointId: string, limit: number): Promise<Page<DeliveryRecord>> {
  const partition = indexPartition('webhookDelivery', 'gsi1', { workspaceId, endpointId });
  const page = await indexPage<Record<string, unknown>>('gsi1', partition, { limit, forward: true });
  return { ...page, items: page.items.map(deliveryEntity.fromItem) };
}

/**
 * Starts a replay's chain: takes a delivery that is in the final state `from` to `pending` (and a
 * dead one out of the dead index), if it still is. Of two replays (or a retried one, or a bulk
 * replay beside a single one) exactly one claims the delivery, so no chain is started twice.
 */
export async function claimDelivery(workspaceId: string, endpointId: string, deliveryId: string, from: FinalDeliveryState = 'dead'): Promise<boolean> {
  try {
    await updateItem(
      {
        Key: deliveryKey(workspaceId, endpointId, deliveryId),
        UpdateExpression: 'SET #state = :pending REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#state = :from',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'pending', ':from': from },
        ReturnValues: 'NONE',
      },
      { appliedIn: (stored: { state?: string } | undefined) => stored?.state === 'pending' },
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Gives back a single replay's claim whose message could not be queued: it is in its final state again. */
export async function unclaimDelivery(workspaceId: string, endpointId: string, deliveryId: string, back: FinalDeliveryState): Promise<void> {
  if (back === 'dead') return unclaimDeadDeliveries(workspaceId, endpointId, [deliveryId]);
  await updateItem({
    Key: deliveryKey(workspaceId, endpointId, deliveryId),
    UpdateExpression: 'SET #state = :back',
    ConditionExpression: '#state = :pending',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':pending': 'pending', ':back': back },
    ReturnValues: 'NONE',
  }).catch((err: unknown) => {
    if (!isConditionFailed(err)) throw err;
  });
}

/** Gives back claims whose messages could not be queued: they are dead again, and in the index. */
export async function unclaimDeadDeliveries(workspaceId: string, endpointId: string, deliveryIds: readonly string[]): Promise<void> {
  await Promise.all(
    deliveryIds.map((deliveryId) => {
      const keys = indexKeysOf('webhookDelivery', { workspaceId, endpointId, deliveryId });
      return updateItem({
        Key: deliveryKey(workspaceId, endpointId, deliveryId),
        UpdateExpression: 'SET #state = :dead, gsi1pk = :gpk, gsi1sk = :gsk',
        ConditionExpression: '#state = :pending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'pending', ':dead': 'dead', ':gpk': keys.gsi1pk, ':gsk': keys.gsi1sk },
        ReturnValues: 'NONE',
      }).catch((err: unknown) => {
        if (!isConditionFailed(err)) throw err;
      });
    }),
  );
}
