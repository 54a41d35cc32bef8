import { targetCheckFromConfig } from '../../shared/platform/adapters/egress-address';
import { linkSignerFromConfig } from '../../shared/platform/adapters/link-signer';
import { secretSealerFromConfig } from '../../shared/platform/adapters/secret-sealer';
import { workflowsFromConfig } from '../../shared/platform/adapters/workflows';
import { assertMayExport, exportsArea, rotateSigningSecret } from '../../shared/exports';
import * as jobs from '../../shared/exports';
import * as schedules from '../../shared/exports';
import { defineArea } from '../../shared/http/area';
import { auditOf, principalOf, sessionOf } from '../../shared/http/principal';
import { accepted, created, noContent, ok } from '../../shared/http/responses';

// Adapters are built on first use (per container), not at import.
const ports = {
  get workflows() {
    return workflowsFromConfig();
  },
  get objectStore() {
    return linkSignerFromConfig();
  },
  get egress() {
    return targetCheckFromConfig();
  },
  get sealer() {
    return secretSealerFromConfig();
  },
};

const LISTED_JOBS = 50;

export const handler = defineArea(exportsArea, {
  startWorkspaceExport: async (input) => accepted(await jobs.startArchiveExport(principalOf(input.principal).workspaceId, ports, auditOf(input))),
  listWorkspaceExports: async ({ principal }) => ok(await jobs.listArchiveJobs(principalOf(principal).workspaceId, LISTED_JOBS)),
  getExportDownload: async (input) => {
    const session = sessionOf(input.principal);
    const { url } = await jobs.downloadLink(session.workspaceId, input.params.id, ports, auditOf(input), session.role);
    return ok({ url });
  },
  startOperationalExport: async (input) => {
    const session = sessionOf(input.principal);
    assertMayExport(session.role, { kind: 'operational', dataset: input.body.entity });
    return accepted(await jobs.startOperationalExport(session.workspaceId, input.body, ports, auditOf(input)));
  },
  listOperationalExports: async ({ principal }) => ok(await jobs.listOperationalJobs(principalOf(principal).workspaceId, LISTED_JOBS)),
  getOperationalExport: async ({ principal, params }) => ok(await jobs.getOperationalJob(principalOf(principal).workspaceId, params.id)),
  rotateExportSigningSecret: async (input) => created(await rotateSigningSecret(principalOf(input.principal).workspaceId, ports.sealer, auditOf(input))),
  createExportSchedule: async (input) => {
    const principal = sessionOf(input.principal);
    assertMayExport(principal.role, { kind: 'operational', dataset: input.body.entity });
    return created(await schedules.createSchedule(principal.workspaceId, input.body, principal, ports, auditOf(input)));
  },
  listExportSchedules: async ({ principal, query }) => {
    const page = await schedules.listSchedules(principalOf(principal).workspaceId, query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  deleteExportSchedule: async (input) => {
    await schedules.deleteSchedule(principalOf(input.principal).workspaceId, input.params.id, auditOf(input));
    return noContent();
  },
});
