import { config } from '../platform/config';
import { allEndpoints } from './repository';
import { TtlCache } from '../platform/cache';
import type { EndpointRecord } from './entities';

/** What the fan-out needs of an endpoint: which events it takes, and whether it takes any now. */
export type Subscription = Pick<EndpointRecord, 'id' | 'eventTypes' | 'status'>;

/**
 * A workspace's endpoints as the fan-out sees them, read once per `config.caches.webhookEndpointsMs`
 * (5 s) per container instead of once per outbox item. A change made by this process applies at
 * once (`forgetSubscriptions`); in AWS, where the fan-out is its own function, a new, changed or
 * removed endpoint takes effect on events fanned out up to 5 s later. The delivery worker still
 * reads the endpoint itself, so a removed or disabled endpoint is never sent to.
 */
const cache = new TtlCache<Subscription[]>(config.caches.webhookEndpointsMs, config.caches.maxEntries);

export function subscriptions(workspaceId: string): Promise<Subscription[]> {
  return cache.load(workspaceId, async () => (await allEndpoints(workspaceId)).map(({ id, eventTypes, status }) => ({ id, eventTypes, status })));
}

/** Call after this process changed an endpoint of the workspace (once the change is committed). */
export function forgetSubscriptions(workspaceId: string): void {
  cache.invalidate(workspaceId);
}
