import { targetCheckFromConfig } from '../../shared/platform/adapters/egress-address';
import { queueFromConfig } from '../../shared/platform/adapters/queue';
import { secretSealerFromConfig } from '../../shared/platform/adapters/secret-sealer';
import { twinned } from '../../shared/platform/contract/admin-twins';
import { type WebhookOperations, webhooksArea, replayDeadDeliveries, eventCatalog } from '../../shared/webhooks';
import * as webhooks from '../../shared/webhooks';
import { type AreaHandlers, defineArea } from '../../shared/http/area';
import { auditOf, principalOf } from '../../shared/http/principal';
import { accepted, created, noContent, ok } from '../../shared/http/responses';

// Adapters are built on first use (per container), not at import.
const ports = {
  get egress() {
    return targetCheckFromConfig();
  },
  get queue() {
    return queueFromConfig();
  },
  get sealer() {
    return secretSealerFromConfig();
  },
};

const handlers: AreaHandlers<WebhookOperations> = {
  createWebhookEndpoint: async (input) => created(await webhooks.createEndpoint(principalOf(input.principal).workspaceId, input.body, ports, auditOf(input))),
  listWebhookEndpoints: async ({ principal, query }) => {
    const page = await webhooks.listEndpoints(principalOf(principal).workspaceId, query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  updateWebhookEndpoint: async (input) =>
    ok(await webhooks.updateEndpoint(principalOf(input.principal).workspaceId, input.params.id, input.body, ports, auditOf(input))),
  deleteWebhookEndpoint: async (input) => {
    await webhooks.deleteEndpoint(principalOf(input.principal).workspaceId, input.params.id, auditOf(input));
    return noContent();
  },
  getEventCatalog: async () => ok(eventCatalog()),
  listWebhookDeliveries: async ({ principal, params, query }) => {
    const page = await webhooks.listDeliveries(principalOf(principal).workspaceId, params.id, query);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  replayWebhookDelivery: async ({ principal, params }) =>
    accepted(await webhooks.replayDelivery(principalOf(principal).workspaceId, params.id, params.deliveryId, ports)),
  triggerWebhookEvent: async ({ principal, body }) => accepted(await webhooks.triggerSampleEvent(principalOf(principal).workspaceId, body.eventType, ports)),
  testWebhookEndpoint: async ({ principal, params }) => accepted(await webhooks.sendTestPing(principalOf(principal).workspaceId, params.id, ports)),
  replayDeadWebhookDeliveries: async (input) =>
    accepted(await replayDeadDeliveries(principalOf(input.principal).workspaceId, input.params.id, ports, auditOf(input))),
};

// The API-key endpoints and their admin-session twins run the same handlers.
export const handler = defineArea(webhooksArea, twinned(handlers));
