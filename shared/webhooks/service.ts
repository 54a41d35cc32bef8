import { webhookSettings } from '../platform/config';
import * as repo from './repository';
import type { AttemptFilter } from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { ID_PATTERN, newId } from '../platform/ids';
import type { Egress } from '../platform/ports/egress';
import type { Queue } from '../platform/ports/queue';
import type { SecretSealer } from '../platform/ports/secret-sealer';
import { audited, type AuditContext } from '../audit';
import { AppError, notFound, validationFailed } from '../platform/errors';
import { PING_EVENT } from './catalog';
import { EVENTS, type EventType } from '../platform/events/registry';
import { subscribesTo } from './schemas';
import { deliveryIdOf } from './delivery-id';
import type { CreateEndpointInput, Endpoint, UpdateEndpointInput } from './schemas';
import { sealAll, sealedSecret, overlapping, webhookSecretOwner } from './secret-storage';
import { newSecret } from './signing';
import { forgetSubscriptions } from './subscriptions';
import { toEndpoint, type DeliveryMessage } from './types';
import { isFinalDeliveryState, type EndpointRecord } from './entities';
import { refuseOversized } from '../platform/data/stored-size';
import { correlationId } from '../platform/observability/correlation';

/** What the endpoint operations reach beyond the table. */
export interface WebhookPorts {
  /** Refuses target URLs no delivery could reach (same rules as the delivery itself). */
  egress: Pick<Egress, 'check'>;
  queue: Queue;
  /** Seals signing secrets before they are stored. */
  sealer: SecretSealer;
}

function checkUrl(egress: WebhookPorts['egress'], url: string): void {
  const reason = egress.check(url);
  if (reason) throw validationFailed([{ in: 'body', field: 'url', message: reason }]);
}

const isEndpointId = (id: string) => ID_PATTERN('whe').test(id);

export async function loadEndpoint(workspaceId: string, endpointId: string): Promise<EndpointRecord> {
  const endpoint = isEndpointId(endpointId) ? await repo.getEndpoint(workspaceId, endpointId) : undefined;
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

export async function createEndpoint(
  workspaceId: string,
  input: CreateEndpointInput,
  ports: Pick<WebhookPorts, 'egress' | 'sealer'>,
  audit: AuditContext,
  now = new Date(),
): Promise<Endpoint & { secret: string }> {
  checkUrl(ports.egress, input.url);
  const at = now.toISOString();
  const secret = newSecret();
  const id = newId('whe');
  const record: EndpointRecord = {
    id,
    workspaceId,
    url: input.url,
    description: input.description,
    eventTypes: input.eventTypes,
    status: 'active',
    disabledReason: null,
    secrets: [await sealedSecret(ports.sealer, webhookSecretOwner(workspaceId, id), secret, at)],
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  refuseOversized(record, 'webhookEndpoint');
  await repo.putEndpoint(record, [audited(workspaceId, audit, 'webhook_endpoint.created', { type: 'webhookEndpoint', id: record.id }, now)]);
  forgetSubscriptions(workspaceId);
  return { ...toEndpoint(record), secret };
}

export async function listEndpoints(workspaceId: string, limit: number, cursor?: string) {
  const page = await repo.listEndpoints(workspaceId, limit, cursor);
  return { items: page.items.map(toEndpoint), nextCursor: page.nextCursor ?? null };
}

/**
 * Changes fields, or rotates the secret: the new secret is returned once; the old one keeps signing
 * next to it for the overlap (24 h), so receivers can switch without dropping a delivery.
 */
export async function updateEndpoint(
  workspaceId: string,
  endpointId: string,
  input: UpdateEndpointInput,
  ports: Pick<WebhookPorts, 'egress' | 'sealer'>,
  audit: AuditContext,
  now = new Date(),
): Promise<Endpoint & { secret?: string }> {
  if ('url' in input && input.url !== undefined) checkUrl(ports.egress, input.url);
  return withOptimisticRetry(async () => {
    const current = await loadEndpoint(workspaceId, endpointId);
    const at = now.toISOString();
    const target = { type: 'webhookEndpoint', id: current.id } as const;
    const owner = webhookSecretOwner(workspaceId, current.id);
    if ('action' in input) {
      const secret = newSecret();
      const overlapEnds = Math.floor(now.getTime() / 1000) + webhookSettings().rotationOverlapSeconds;
      // Only the newest previous secret overlaps; anything older stops signing now.
      const previous = await overlapping(ports.sealer, owner, current.secrets[0], overlapEnds);
      const next: EndpointRecord = { ...current, secrets: [await sealedSecret(ports.sealer, owner, secret, at), ...previous], updatedAt: at };
      await repo.replaceEndpoint(next, current.version, [audited(workspaceId, audit, 'webhook_endpoint.secret_rotated', target, now)]);
      forgetSubscriptions(workspaceId);
      return { ...toEndpoint(next), secret };
    }
    const reactivated = input.status === 'active' && current.status === 'disabled';
    const next: EndpointRecord = {
      ...current,
      // An endpoint stored before secrets were sealed leaves this write with sealed ones.
      secrets: await sealAll(ports.sealer, owner, current.secrets),
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.eventTypes !== undefined ? { eventTypes: input.eventTypes } : {}),
      ...(input.status !== undefined ? { status: input.status, disabledReason: input.status === 'active' ? null : current.disabledReason } : {}),
      // Re-enabling starts a fresh health span.
      ...(reactivated ? { failingSince: undefined } : {}),
      updatedAt: at,
    };
    refuseOversized(next, 'webhookEndpoint');
    await repo.replaceEndpoint(next, current.version, [audited(workspaceId, audit, 'webhook_endpoint.updated', target, now)]);
    forgetSubscriptions(workspaceId);
    return toEndpoint(next);
  });
}

export async function deleteEndpoint(workspaceId: string, endpointId: string, audit: AuditContext, now = new Date()): Promise<void> {
  if (!isEndpointId(endpointId)) throw notFound('Webhook endpoint');
  await repo.deleteEndpoint(workspaceId, endpointId, [
    audited(workspaceId, audit, 'webhook_endpoint.deleted', { type: 'webhookEndpoint', id: endpointId }, now),
  ]);
  forgetSubscriptions(workspaceId);
}

/** The delivery log, narrowed to the state after each attempt (`dead`: the deliveries that died) or to one delivery. */
export async function listDeliveries(
  workspaceId: string,
  endpointId: string,
  query: { limit: number; cursor?: string | undefined; status?: AttemptFilter['state']; deliveryId?: string | undefined },
) {
  await loadEndpoint(workspaceId, endpointId);
  const page = await repo.listAttempts(workspaceId, endpointId, query.limit, query.cursor, { state: query.status, deliveryId: query.deliveryId });
  return { items: page.items, nextCursor: page.nextCursor ?? null };
}

/** Queues deliveries; a replay or test is caused by the request asking for it, so its id follows the send. */
export async function enqueue(queue: Queue, ...messages: DeliveryMessage[]): Promise<void> {
  const requestId = correlationId();
  await queue.send(
    'webhookDeliveries',
    messages.map((message) => ({ body: JSON.stringify({ ...message, ...(requestId ? { requestId } : {}) }) })),
  );
}

export const refuseDisabled = (endpoint: EndpointRecord) => {
  if (endpoint.status !== 'active') throw new AppError('CONFLICT', 'The endpoint is disabled; set status to active first');
};

/**
 * Sends a recorded delivery again: same payload, same webhook-id. Only a delivery whose chain has
 * ended (delivered, failed, dead, cancelled) is replayed, and claiming it (to `pending`) is
 * conditional, so a replay never runs beside a live retry chain or a second replay's chain.
 */
export async function replayDelivery(workspaceId: string, endpointId: string, deliveryId: string, ports: Pick<WebhookPorts, 'queue'>) {
  const endpoint = await loadEndpoint(workspaceId, endpointId);
  const delivery = /^dlv_[0-9a-z]{26}$/.test(deliveryId) ? await repo.getDelivery(workspaceId, endpointId, deliveryId) : undefined;
  if (!delivery) throw notFound('Delivery');
  refuseDisabled(endpoint);
  const from = delivery.state;
  if (!isFinalDeliveryState(from) || !(await repo.claimDelivery(workspaceId, endpointId, deliveryId, from))) throw deliveryInProgress();
  const message = { workspaceId, endpointId, deliveryId, eventId: delivery.eventId, eventType: delivery.eventType, payload: delivery.payload };
  await enqueue(ports.queue, { ...message, trigger: 'replay' }).catch(async (error: unknown) => {
    await repo.unclaimDelivery(workspaceId, endpointId, deliveryId, from);
    throw error;
  });
  return { deliveryId, eventId: delivery.eventId, state: 'pending' as const };
}

const deliveryInProgress = () =>
  new AppError('DELIVERY_IN_PROGRESS', 'The delivery is still being sent (retries or a replay are under way); replay it once it is delivered, failed or dead');

/** A `webhook.ping` to one endpoint, through the same queue, signing and log as real events. */
export async function sendTestPing(workspaceId: string, endpointId: string, ports: Pick<WebhookPorts, 'queue'>, now = new Date()) {
  const endpoint = await loadEndpoint(workspaceId, endpointId);
  refuseDisabled(endpoint);
  const eventId = newId('evt');
  const payload = JSON.stringify({ id: eventId, type: PING_EVENT, created_at: now.toISOString(), data: { resource_id: endpointId } });
  const deliveryId = deliveryIdOf(eventId, endpointId);
  await enqueue(ports.queue, { workspaceId, endpointId, deliveryId, eventId, eventType: PING_EVENT, payload, trigger: 'test' });
  return { deliveryId, eventId, state: 'pending' as const };
}

/**
 * A sample of one event of the catalog (its registry example as `data`) to every active endpoint
 * subscribed to it, through the same queue, signing and log as real events: how an integrator sees
 * an event arrive without causing it. Marked `trigger: 'test'` in the delivery log.
 */
export async function triggerSampleEvent(workspaceId: string, eventType: EventType, ports: Pick<WebhookPorts, 'queue'>, now = new Date()) {
  const endpoints = (await repo.allEndpoints(workspaceId)).filter((e) => e.status === 'active' && subscribesTo(e.eventTypes, eventType));
  const eventId = newId('evt');
  const payload = JSON.stringify({ id: eventId, type: eventType, created_at: now.toISOString(), data: EVENTS[eventType].example });
  const deliveries = endpoints.map((e) => ({ endpointId: e.id, deliveryId: deliveryIdOf(eventId, e.id) }));
  for (const d of deliveries) await enqueue(ports.queue, { workspaceId, ...d, eventId, eventType, payload, trigger: 'test' });
  return { eventId, eventType, deliveries };
}
