import { missingPermission, roleMay } from '../platform/contract/permissions';
import type { Role } from '../platform/contract/roles';
import type { ExportJobRecord } from './entities';

/**
 * What a console role needs beyond the route's own permission to export or download a job's file:
 * the members' export holds their personal data (`members:read`), the workspace archive is the
 * whole workspace's (`exports:workspace`). Orders and the ledger name members by id only.
 */
export function assertMayExport(role: Role, job: Pick<ExportJobRecord, 'kind' | 'dataset'>): void {
  if (job.kind === 'archive' && !roleMay(role, 'exports:workspace')) throw missingPermission(role, 'exports:workspace');
  if (job.dataset === 'members' && !roleMay(role, 'members:read')) throw missingPermission(role, 'members:read');
}
