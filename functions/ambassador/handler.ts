import { ambassadorContract } from '../../shared/contracts/ambassador';
import * as ambassador from '../../shared/domain/ambassador/service';
import { defineArea } from '../../shared/http/area';
import { recorder } from '../../shared/http/idempotency';
import { principalOf } from '../../shared/http/principal';
import { created, ok, type Reply } from '../../shared/http/responses';

const issueReply = (r: { code: unknown; issued: boolean }): Reply => (r.issued ? created(r.code) : ok(r.code));

export const handler = defineArea('ambassador', ambassadorContract, {
  'GET /api/v2/ambassador/candidates': async ({ principal, query }) => {
    const page = await ambassador.listCandidates(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'GET /api/v2/ambassador/metrics': async ({ principal }) => ok(await ambassador.metrics(principalOf(principal).workspaceId)),
  'POST /api/v2/ambassador/members/{id}/issue-code': async ({ principal, params, context }) =>
    issueReply(await ambassador.issueReferralCode(principalOf(principal).workspaceId, params.id, { seal: recorder(context, issueReply) })),
});
