import { targetCheckFromConfig } from '../../shared/adapters/egress-address';
import { queueFromConfig } from '../../shared/adapters/queue';
import { webhooksArea } from '../../shared/contracts/webhooks';
import { eventCatalog } from '../../shared/domain/webhooks/catalog';
import * as webhooks from '../../shared/domain/webhooks/service';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { accepted, created, noContent, ok } from '../../shared/http/responses';

// Adapters are built on first use (per container), not at import.
const ports = { get egress() { return targetCheckFromConfig(); }, get queue() { return queueFromConfig(); } };

export const handler = defineArea(webhooksArea, {
  createWebhookEndpoint: async ({ principal, body }) => created(await webhooks.createEndpoint(principalOf(principal).workspaceId, body, ports)),
  listWebhookEndpoints: async ({ principal, query }) => {
    const page = await webhooks.listEndpoints(principalOf(principal).workspaceId, query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  updateWebhookEndpoint: async ({ principal, params, body }) =>
    ok(await webhooks.updateEndpoint(principalOf(principal).workspaceId, params.id, body, ports)),
  deleteWebhookEndpoint: async ({ principal, params }) => {
    await webhooks.deleteEndpoint(principalOf(principal).workspaceId, params.id);
    return noContent();
  },
  getEventCatalog: async () => ok(eventCatalog()),
  listWebhookDeliveries: async ({ principal, params, query }) => {
    const page = await webhooks.listDeliveries(principalOf(principal).workspaceId, params.id, query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  replayWebhookDelivery: async ({ principal, params }) =>
    accepted(await webhooks.replayDelivery(principalOf(principal).workspaceId, params.id, params.deliveryId, ports)),
  testWebhookEndpoint: async ({ principal, params }) => accepted(await webhooks.sendTestPing(principalOf(principal).workspaceId, params.id, ports)),
});
