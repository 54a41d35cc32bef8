import { membersArea, upsertMembers, reverseEntry, explainPoints, tableReversalStore } from '../../shared/members';
import * as members from '../../shared/members';
import { memberTriggers } from '../../shared/campaigns';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { auditOf, principalOf, sessionOf } from '../../shared/http/principal';
import { created, ok, type Reply } from '../../shared/http/responses';

const pointsReply = (r: members.PointsResult): Reply => created(r);

export const handler = defineArea(membersArea, {
  listMembers: async ({ principal, query }) => {
    const page = await members.listMembers(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createMember: sealed(created, ({ principal, body }, write) => members.createMember(principalOf(principal).workspaceId, body, memberTriggers, write)),
  upsertMembers: async ({ principal, body }) => ok(await upsertMembers(principalOf(principal).workspaceId, body.members, memberTriggers)),
  getMember: async ({ principal, params }) => ok(await members.getMember(principalOf(principal).workspaceId, params.id)),
  updateMember: async ({ principal, params, body }) => ok(await members.updateMember(principalOf(principal).workspaceId, params.id, body)),
  getMemberPoints: async ({ principal, params, query }) => {
    const { data, nextCursor } = await members.pointsOf(principalOf(principal).workspaceId, params.id, query.limit, query.cursor);
    return ok(data, { nextCursor });
  },
  changeMemberPoints: sealed(pointsReply, (input, write) =>
    members.changePointsManually(principalOf(input.principal).workspaceId, input.params.id, input.body, { audit: auditOf(input) }, write),
  ),
  explainMemberPoints: async ({ principal, params, query }) => ok(await explainPoints(principalOf(principal).workspaceId, params.id, query.at)),
  explainMemberPointsInConsole: async ({ principal, params, query }) => ok(await explainPoints(principalOf(principal).workspaceId, params.id, query.at)),
  searchMembersInConsole: async ({ principal, query }) => {
    const page = await members.listMembers(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  getMemberProfile: async ({ principal, params }) => ok(await members.memberProfile(principalOf(principal).workspaceId, params.id)),
  getMemberLedger: async ({ principal, params, query }) => {
    const { data, nextCursor } = await members.pointsOf(principalOf(principal).workspaceId, params.id, query.limit, query.cursor);
    return ok(data, { nextCursor });
  },
  adjustMemberPoints: sealed(pointsReply, (input, write) => {
    const { workspaceId, role } = sessionOf(input.principal);
    return members.changePointsManually(workspaceId, input.params.id, input.body, { audit: auditOf(input), role }, write);
  }),
  reverseLedgerEntry: sealed(pointsReply, (input, write) => {
    const p = principalOf(input.principal);
    const actor = { apiKeyId: p.kind === 'apiKey' ? p.keyId : null, audit: auditOf(input) };
    return reverseEntry(p.workspaceId, input.params.id, input.params.entryId, input.body, actor, tableReversalStore, write);
  }),
  reverseLedgerEntryInConsole: sealed(pointsReply, (input, write) => {
    const { workspaceId, role } = sessionOf(input.principal);
    return reverseEntry(
      workspaceId,
      input.params.id,
      input.params.entryId,
      input.body,
      { apiKeyId: null, audit: auditOf(input), role },
      tableReversalStore,
      write,
    );
  }),
  getMemberTier: async ({ principal, params }) => ok(await members.tierStatus(principalOf(principal).workspaceId, params.id)),
});
