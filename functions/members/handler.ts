import { membersContract } from '../../shared/contracts/members';
import { upsertMembers } from '../../shared/domain/members/batch';
import * as members from '../../shared/domain/members/service';
import { listOrders } from '../../shared/domain/orders/service';
import { defineArea } from '../../shared/http/area';
import { recorder } from '../../shared/http/idempotency';
import { principalOf } from '../../shared/http/principal';
import { created, ok, type Reply } from '../../shared/http/responses';

const pointsReply = (r: members.PointsResult): Reply => created(r);

export const handler = defineArea('members', membersContract, {
  'GET /api/v2/members': async ({ principal, query }) => {
    const page = await members.listMembers(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'POST /api/v2/members': async ({ principal, body, context }) =>
    created(await members.createMember(principalOf(principal).workspaceId, body, { seal: recorder(context, created) })),
  'POST /api/v2/members/batch': async ({ principal, body }) => ok(await upsertMembers(principalOf(principal).workspaceId, body.members)),
  'GET /api/v2/members/{id}': async ({ principal, params }) => ok(await members.getMember(principalOf(principal).workspaceId, params.id)),
  'PATCH /api/v2/members/{id}': async ({ principal, params, body }) =>
    ok(await members.updateMember(principalOf(principal).workspaceId, params.id, body)),
  'GET /api/v2/members/{id}/points': async ({ principal, params, query }) => {
    const { data, nextCursor } = await members.pointsOf(principalOf(principal).workspaceId, params.id, query.limit, query.cursor);
    return ok(data, { nextCursor });
  },
  'POST /api/v2/members/{id}/points': async ({ principal, params, body, context }) => {
    const p = principalOf(principal);
    const actor = { apiKeyId: p.kind === 'apiKey' ? p.keyId : null };
    return pointsReply(await members.changePointsManually(p.workspaceId, params.id, body, actor, { seal: recorder(context, pointsReply) }));
  },
  'GET /api/v2/members/{id}/tier': async ({ principal, params }) => ok(await members.tierStatus(principalOf(principal).workspaceId, params.id)),
  'GET /api/v2/members/{id}/receipts': async ({ principal, params, query }) => {
    const workspaceId = principalOf(principal).workspaceId;
    await members.getMember(workspaceId, params.id);
    const page = await listOrders(workspaceId, { ...query, memberId: params.id });
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
});
