import { auditArea } from '../../shared/audit';
import * as audit from '../../shared/audit';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea(auditArea, {
  listAuditEntries: async ({ principal, query }) => {
    const page = await audit.listAuditEntries(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
});
