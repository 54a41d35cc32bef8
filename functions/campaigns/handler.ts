import { campaignsArea, simulateCampaigns } from '../../shared/campaigns';
import * as campaigns from '../../shared/campaigns';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { auditOf, principalOf } from '../../shared/http/principal';
import { created, noContent, ok } from '../../shared/http/responses';

export const handler = defineArea(campaignsArea, {
  listCampaigns: async ({ principal, query }) => {
    const page = await campaigns.listCampaigns(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createCampaign: sealed(created, (input, write) => campaigns.createCampaign(principalOf(input.principal).workspaceId, input.body, auditOf(input), write)),
  simulateCampaigns: async ({ principal, body }) => ok(await simulateCampaigns(principalOf(principal).workspaceId, body)),
  getCampaign: async ({ principal, params }) => ok(await campaigns.getCampaign(principalOf(principal).workspaceId, params.id)),
  updateCampaign: async (input) => ok(await campaigns.updateCampaign(principalOf(input.principal).workspaceId, input.params.id, input.body, auditOf(input))),
  deleteCampaign: async (input) => {
    await campaigns.deleteCampaign(principalOf(input.principal).workspaceId, input.params.id, auditOf(input));
    return noContent();
  },
});
