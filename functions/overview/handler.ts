import { overviewArea, overview, membersReportOf, pointsReportOf } from '../../shared/overview';
import { exportsRunning } from '../../shared/exports';
import { campaignNames } from '../../shared/campaigns';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea(overviewArea, {
  getOverview: async ({ principal }) => ok(await overview(principalOf(principal).workspaceId, exportsRunning)),
  getPointsReport: async ({ principal, query }) => ok(await pointsReportOf(principalOf(principal).workspaceId, query, campaignNames)),
  getMembersReport: async ({ principal, query }) => ok(await membersReportOf(principalOf(principal).workspaceId, query)),
});
