import { teamArea } from '../../shared/team';
import * as auth from '../../shared/auth';
import { mailerFromConfig } from '../../shared/platform/adapters/mailer';
import * as invitations from '../../shared/team';
import * as members from '../../shared/team';
import { notFound } from '../../shared/platform/errors';
import { defineArea } from '../../shared/http/area';
import { auditOf, sessionOf } from '../../shared/http/principal';
import { created, noContent, ok } from '../../shared/http/responses';
import { ID_PATTERN } from '../../shared/platform/ids';

/** A malformed id names nothing in any workspace. */
const ensureId = (prefix: string, id: string, what: string) => {
  if (!ID_PATTERN(prefix).test(id)) throw notFound(what);
  return id;
};

export const handler = defineArea(teamArea, {
  getTeamSecurity: async ({ principal }) => ok(await auth.mfaRequirement(sessionOf(principal).workspaceId)),
  setTeamSecurity: async (input) => ok(await auth.setMfaRequired(sessionOf(input.principal).workspaceId, input.body.mfaRequired, auditOf(input))),
  listTeamMembers: async ({ query, principal }) => {
    const page = await members.listMembers(sessionOf(principal), query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  changeTeamMemberRole: async (input) => {
    const id = ensureId('usr', input.params.id, 'Team member');
    return ok(await members.changeRole(sessionOf(input.principal), id, input.body.role, auditOf(input)));
  },
  removeTeamMember: async (input) => {
    await members.removeMember(sessionOf(input.principal), ensureId('usr', input.params.id, 'Team member'), auditOf(input));
    return noContent();
  },
  endTeamMemberSessions: async (input) => {
    await members.endMemberSessions(sessionOf(input.principal), ensureId('usr', input.params.id, 'Team member'), auditOf(input));
    return noContent();
  },
  listInvitations: async ({ query, principal }) => {
    const page = await invitations.listInvitations(sessionOf(principal), query.limit, query.cursor);
    return ok(page.items, { nextCursor: page.nextCursor });
  },
  invite: async (input) => created(await invitations.invite(sessionOf(input.principal), input.body, auditOf(input), mailerFromConfig())),
  revokeInvitation: async (input) => {
    await invitations.revokeInvitation(sessionOf(input.principal), ensureId('inv', input.params.id, 'Invitation'), auditOf(input));
    return noContent();
  },
  previewInvitation: async ({ body }) => ok(await invitations.previewInvitation(body.token)),
  acceptInvitation: async ({ body, requestId }) => created(await invitations.acceptInvitation(body, { requestId })),
});
