import { webhooksContract } from '../../shared/contracts/webhooks';
import { eventCatalog } from '../../shared/domain/webhooks/catalog';
import * as webhooks from '../../shared/domain/webhooks/service';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { accepted, created, noContent, ok } from '../../shared/http/responses';

export const handler = defineArea('webhooks', webhooksContract, {
  'POST /api/v2/webhooks': async ({ principal, body }) => created(await webhooks.createEndpoint(principalOf(principal).workspaceId, body)),
  'GET /api/v2/webhooks': async ({ principal, query }) => {
    const page = await webhooks.listEndpoints(principalOf(principal).workspaceId, query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  'PATCH /api/v2/webhooks/{id}': async ({ principal, params, body }) =>
    ok(await webhooks.updateEndpoint(principalOf(principal).workspaceId, params.id, body)),
  'DELETE /api/v2/webhooks/{id}': async ({ principal, params }) => {
    await webhooks.deleteEndpoint(principalOf(principal).workspaceId, params.id);
    return noContent();
  },
  'GET /api/v2/events/catalog': async () => ok(eventCatalog()),
  'GET /api/v2/webhooks/{id}/deliveries': async ({ principal, params, query }) => {
    const page = await webhooks.listDeliveries(principalOf(principal).workspaceId, params.id, query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  'POST /api/v2/webhooks/{id}/deliveries/{deliveryId}/replay': async ({ principal, params }) =>
    accepted(await webhooks.replayDelivery(principalOf(principal).workspaceId, params.id, params.deliveryId)),
  'POST /api/v2/webhooks/{id}/test': async ({ principal, params }) => accepted(await webhooks.sendTestPing(principalOf(principal).workspaceId, params.id)),
});
