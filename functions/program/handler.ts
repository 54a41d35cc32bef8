import { programArea } from '../../shared/program/contract';
import * as campaigns from '../../shared/campaigns/definitions';
import * as clock from '../../shared/program/clock';
import { runDueProgramWork } from '../../shared/campaigns/due-work';
import * as program from '../../shared/program/service';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { auditOf, principalOf } from '../../shared/http/principal';
import { created, noContent, ok } from '../../shared/http/responses';

export const handler = defineArea(programArea, {
  getProgram: async ({ principal }) => ok(await program.getProgram(principalOf(principal).workspaceId)),
  putProgram: async (input) => ok(await program.putProgram(principalOf(input.principal).workspaceId, input.body, auditOf(input))),
  getClock: async ({ principal }) => ok(await clock.getClock(principalOf(principal).workspaceId)),
  advanceClock: sealed(ok, (input, write) =>
    clock.advanceClock(principalOf(input.principal).workspaceId, input.body.days, auditOf(input), runDueProgramWork, write),
  ),
  listCampaigns: async ({ principal, query }) => {
    const page = await campaigns.listCampaigns(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createCampaign: sealed(created, (input, write) => campaigns.createCampaign(principalOf(input.principal).workspaceId, input.body, auditOf(input), write)),
  simulateCampaigns: async ({ principal, body }) => ok(await campaigns.simulateCampaigns(principalOf(principal).workspaceId, body)),
  getCampaign: async ({ principal, params }) => ok(await campaigns.getCampaign(principalOf(principal).workspaceId, params.id)),
  updateCampaign: async (input) => ok(await campaigns.updateCampaign(principalOf(input.principal).workspaceId, input.params.id, input.body, auditOf(input))),
  deleteCampaign: async (input) => {
    await campaigns.deleteCampaign(principalOf(input.principal).workspaceId, input.params.id, auditOf(input));
    return noContent();
  },
});
