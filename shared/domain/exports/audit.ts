import * as repo from '../../data/repositories/audit';
import { logger } from '../../observability/logger';
import type { AuditAction } from '../audit/catalog';
import { auditEntry, type AuditTarget } from '../audit/entry';
import type { AuditContext } from '../audit/service';

/**
 * An export request that changes nothing (a deduplicated start, a download link) still leaves an
 * entry: written on its own. `required`: the request fails if the entry cannot be written (a link is
 * never handed out unaudited); otherwise the failure is logged.
 */
export async function appendAudit(
  workspaceId: string,
  ctx: AuditContext,
  action: AuditAction,
  target: AuditTarget,
  now: Date,
  opts: { required?: boolean } = {},
): Promise<void> {
  try {
    await repo.appendAuditEntry(workspaceId, auditEntry({ action, actor: ctx.actor, target, requestId: ctx.requestId }, now));
  } catch (error) {
    if (opts.required) throw error;
    logger.error('audit entry not written', { requestId: ctx.requestId, workspaceId, action, error: error as Error });
  }
}
