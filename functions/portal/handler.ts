import { portalArea, getCorsSettings, putCorsSettings, createPortalSession } from '../../shared/portal';
import { defineArea } from '../../shared/http/area';
import { auditOf, principalOf } from '../../shared/http/principal';
import { created, ok } from '../../shared/http/responses';

export const handler = defineArea(portalArea, {
  createPortalSession: async ({ principal, params }) => created(await createPortalSession(principalOf(principal).workspaceId, params.id)),
  getCorsSettings: async ({ principal }) => ok(await getCorsSettings(principalOf(principal).workspaceId)),
  putCorsSettings: async (input) => ok(await putCorsSettings(principalOf(input.principal).workspaceId, input.body, auditOf(input))),
});
