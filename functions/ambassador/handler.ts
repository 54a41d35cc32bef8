import { ambassadorArea } from '../../shared/ambassador';
import * as ambassador from '../../shared/ambassador';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { principalOf } from '../../shared/http/principal';
import { created, ok, type Reply } from '../../shared/http/responses';

const issueReply = (r: { code: unknown; issued: boolean }): Reply => (r.issued ? created(r.code) : ok(r.code));

export const handler = defineArea(ambassadorArea, {
  listAmbassadorCandidates: async ({ principal, query }) => {
    const page = await ambassador.listCandidates(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  getAmbassadorMetrics: async ({ principal }) => ok(await ambassador.metrics(principalOf(principal).workspaceId)),
  issueReferralCode: sealed(issueReply, ({ principal, params }, write) => ambassador.issueReferralCode(principalOf(principal).workspaceId, params.id, write)),
});
