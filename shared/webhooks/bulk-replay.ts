import { webhookSettings } from '../platform/config';
import * as repo from './repository';
import { recordAccess, type AuditContext } from '../audit';
import { enqueue, loadEndpoint, refuseDisabled, type WebhookPorts } from './service';

/**
 * Replays an endpoint's dead deliveries, at most `bulkReplayMax` per call, each with its recorded
 * payload and webhook-id. Each one is claimed first (dead -> pending, out of the dead index): a
 * second call, at once or concurrently, finds it claimed and skips it, so each dead delivery is sent
 * once. `more` says that dead deliveries are left for the next call; a call that queues nothing
 * changes nothing and writes no audit entry.
 */
export async function replayDeadDeliveries(
  workspaceId: string,
  endpointId: string,
  ports: Pick<WebhookPorts, 'queue'>,
  audit: AuditContext,
  now = new Date(),
): Promise<{ queued: number; more: boolean }> {
  const endpoint = await loadEndpoint(workspaceId, endpointId);
  refuseDisabled(endpoint);
  const max = webhookSettings().bulkReplayMax;
  // One more than the bound is read, to know whether any are left after this call.
  const page = await repo.deadDeliveries(workspaceId, endpointId, max + 1);
  const candidates = page.items.slice(0, max);
  const claimed = (await Promise.all(candidates.map(async (d) => ((await repo.claimDelivery(workspaceId, endpointId, d.deliveryId)) ? d : undefined)))).filter(
    (d) => d !== undefined,
  );
  if (claimed.length === 0) return { queued: 0, more: page.items.length > max };
  try {
    await enqueue(
      ports.queue,
      ...claimed.map((d) => ({
        workspaceId,
        endpointId,
        deliveryId: d.deliveryId,
        eventId: d.eventId,
        eventType: d.eventType,
        payload: d.payload,
        trigger: 'replay' as const,
      })),
    );
  } catch (error) {
    // Nothing may stay claimed without a message on its way: those are dead again, for the next call.
    await repo.unclaimDeadDeliveries(
      workspaceId,
      endpointId,
      claimed.map((d) => d.deliveryId),
    );
    throw error;
  }
  await recordAccess(workspaceId, audit, 'webhook_endpoint.dead_deliveries_replayed', { type: 'webhookEndpoint', id: endpointId }, now, { required: true });
  return { queued: claimed.length, more: page.items.length > max || Boolean(page.nextCursor) };
}
