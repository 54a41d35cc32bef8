import { auditArea } from '../../shared/audit';
import * as audit from '../../shared/audit';
import { actorDirectory } from '../../shared/team';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea(auditArea, {
  listAuditEntries: async ({ principal, query }) => {
    const page = await audit.listAuditEntries(principalOf(principal).workspaceId, query, actorDirectory);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  exportAuditEntries: async ({ principal, query }) => {
    const { csv, truncated } = await audit.auditCsvOf(principalOf(principal).workspaceId, query, actorDirectory);
    return {
      status: 200,
      headers: { 'content-disposition': 'attachment; filename="audit-log.csv"', ...(truncated ? { 'x-audit-truncated': 'true' } : {}) },
      raw: { contentType: 'text/csv; charset=utf-8', bytes: Buffer.from(csv) },
    };
  },
});
