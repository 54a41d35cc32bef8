import type { AttemptRecord, DeliveryState, EndpointRecord } from '../../records/webhooks';
import { notFound } from '../../errors';
import { keyOf, seqKey, skPrefix } from '../keys';
import {
  batchGetItems,
  getItem,
  isConditionFailed,
  MAX_TRANSACTION_ITEMS,
  prefixPage,
  StaleRead,
  transactWrite,
  updateItem,
  type Page,
  type TransactStep,
} from '../table';

/** Delivery log entries are kept 30 days. */
const LOG_TTL_SECONDS = 30 * 24 * 3600;

const strip = <T>({ pk: _pk, sk: _sk, entity: _e, ...rest }: Record<string, unknown>) => rest as T;
const endpointKey = (workspaceId: string, endpointId: string) => keyOf('webhookEndpoint', { workspaceId, endpointId });

/** Endpoint changes take `steps` (their audit entry) into the same transaction. */
export async function putEndpoint(e: EndpointRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    { op: { Put: { Item: { ...endpointKey(e.workspaceId, e.id), entity: 'webhookEndpoint', ...e }, ConditionExpression: 'attribute_not_exists(pk)' } } },
    ...steps,
  ]);
}

export async function getEndpoint(workspaceId: string, endpointId: string): Promise<EndpointRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(endpointKey(workspaceId, endpointId));
  return item ? strip<EndpointRecord>(item) : undefined;
}

/** Several endpoints in one consistent read; the ones that do not exist are left out. */
export async function getEndpoints(ids: readonly { workspaceId: string; endpointId: string }[]): Promise<EndpointRecord[]> {
  const items = await batchGetItems<Record<string, unknown>>(ids.map((i) => endpointKey(i.workspaceId, i.endpointId)));
  return items.map((i) => strip<EndpointRecord>(i));
}

/** Whole-item replace of an endpoint we read, conditional on its version. */
export async function replaceEndpoint(next: EndpointRecord, expectedVersion: number, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Put: {
          Item: { ...endpointKey(next.workspaceId, next.id), entity: 'webhookEndpoint', ...next, version: expectedVersion + 1 },
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
  return { ...page, items: page.items.map((i) => strip<EndpointRecord>(i)) };
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

export interface DeliveryRecord {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
  state: DeliveryState | 'pending';
  attempts: number;
  lastAttemptAt: string | null;
  createdAt: string;
}

const deliveryKey = (workspaceId: string, endpointId: string, deliveryId: string) => keyOf('webhookDelivery', { workspaceId, endpointId, deliveryId });

export async function getDelivery(workspaceId: string, endpointId: string, deliveryId: string): Promise<DeliveryRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(deliveryKey(workspaceId, endpointId, deliveryId));
  return item ? strip<DeliveryRecord>(item) : undefined;
}

/** The log entry and the delivery's current state of one attempt: written together. */
function attemptSteps(workspaceId: string, endpointId: string, payload: string, entry: AttemptRecord): TransactStep[] {
  const expiresAt = Math.floor(Date.parse(entry.at) / 1000) + LOG_TTL_SECONDS;
  return [
    {
      op: {
        Put: {
          Item: {
            ...keyOf('webhookAttempt', { workspaceId, endpointId, at: entry.at, deliveryId: entry.deliveryId, attempt: seqKey(entry.attempt) }),
            entity: 'webhookAttempt',
            ...entry,
            expiresAt,
          },
        },
      },
    },
    {
      op: {
        Update: {
          Key: deliveryKey(workspaceId, endpointId, entry.deliveryId),
          UpdateExpression:
            'SET entity = :e, deliveryId = :d, endpointId = :ep, eventId = :evt, eventType = :type, payload = if_not_exists(payload, :p), ' +
            '#state = :state, attempts = :n, lastAttemptAt = :at, createdAt = if_not_exists(createdAt, :at), expiresAt = :x',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
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

export async function listAttempts(workspaceId: string, endpointId: string, limit: number, cursor?: string): Promise<Page<AttemptRecord>> {
  const { pk } = keyOf('webhookDelivery', { workspaceId, endpointId, deliveryId: 'x' });
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('webhookAttempt'), { limit, cursor });
  return { ...page, items: page.items.map(({ expiresAt: _x, ...i }) => strip<AttemptRecord>(i)) };
}
