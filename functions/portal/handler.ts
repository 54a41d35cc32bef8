import { portalArea } from '../../shared/contracts/portal';
import { createPortalSession } from '../../shared/domain/portal/sessions';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { created } from '../../shared/http/responses';

export const handler = defineArea(portalArea, {
  createPortalSession: async ({ principal, params }) => created(await createPortalSession(principalOf(principal).workspaceId, params.id)),
});
