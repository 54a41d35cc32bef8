import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import { pageQuery } from '../platform/validation/pagination';
import { acceptInvitationBody, changeRoleBody, inviteBody, previewInvitationBody, teamSecurityBody } from './schemas';
import { ROLES } from '../platform/contract/roles';
import { INVITATION_STATUSES } from './entities';
import { userSchema, workspaceSchema } from '../auth';
import { dataOf, errorBody, isoDateTime, pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';
import { config } from '../platform/config';

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    status: z.enum(INVITATION_STATUSES).describe('`expired`: still pending when `expiresAt` passed; its link answers 410'),
    invitedBy: z.string().describe('The id of the user who invited'),
    createdAt: isoDateTime,
    expiresAt: isoDateTime,
    acceptedAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
    userId: z.string().nullable().describe('The user the acceptance created'),
  })
  .meta({ id: 'Invitation' });

const byId = z.object({ id: idSchema });

const teamSecuritySchema = z
  .object({ mfaRequired: z.boolean().describe('Every user must sign in with a second factor (an authenticator app)') })
  .meta({ id: 'TeamSecurity' });

const invitationPreviewSchema = z
  .object({
    workspace: z.object({ name: z.string() }),
    email: z.string().describe('The invited e-mail: the login the acceptance creates'),
    role: z.enum(ROLES),
    roleSummary: z.string().describe("The role's job in a few words"),
    invitedBy: z
      .object({ name: z.string().nullable(), email: z.string() })
      .nullable()
      .describe('Who invited, as the team knows them; null once they left the team'),
    expiresAt: isoDateTime,
  })
  .meta({ id: 'InvitationPreview' });
const days = Math.round(config.team.invitationTtlSeconds / 86_400);

export const teamArea = declareArea({
  area: 'team',
  description:
    "The workspace's team: the users who sign in to it, their roles (`owner`, `admin` and the job roles `marketer`, `support`, `analyst`, `developer`; each role a set of permissions, one per console route) and invitations to join it. Owners and admins manage it; only an owner grants or removes `owner`, and the last owner stays.",
  access: { table: 'readWrite', mail: true, secrets: ['pageCursors'] },
  endpoints: {
    listTeamMembers: {
      method: 'GET',
      path: '/api/flash/team/members',
      auth: ['adminSession'],
      permission: 'team:manage',
      summary: 'List the users of the workspace',
      query: pageQuery,
      responses: { 200: pageOf(userSchema) },
    },
    changeTeamMemberRole: {
      method: 'PATCH',
      path: '/api/flash/team/members/{id}',
      auth: ['adminSession'],
      permission: 'team:manage',
      summary: "Change a user's role",
      params: byId,
      body: changeRoleBody,
      responses: { 200: dataOf(userSchema) },
      description:
        'Only an owner may make someone an owner or change an owner (403). The last owner cannot be demoted (409), also when two owners demote each other at once. The new role applies from the next request. Audited as `team.role_changed`.',
    },
    removeTeamMember: {
      method: 'DELETE',
      path: '/api/flash/team/members/{id}',
      auth: ['adminSession'],
      permission: 'team:manage',
      summary: 'Remove a user from the workspace',
      params: byId,
      responses: { 204: null },
      description:
        'Deletes the user and their login: every session of theirs is refused from the next request. Only an owner may remove an owner (403); the last owner cannot be removed (409). Audited as `team.member_removed`.',
    },
    endTeamMemberSessions: {
      method: 'DELETE',
      path: '/api/flash/team/members/{id}/sessions',
      auth: ['adminSession'],
      permission: 'team:manage',
      summary: 'End every session of a team member (owners)',
      params: byId,
      responses: { 204: null },
      description:
        'Every console sign-in and bearer token of the user is refused from their next request; their login stays and they can sign in again. Only an owner may (403 for an admin), for anyone, themselves included. Unknown user: 404. Audited as `team.sessions_ended`. A person ends one of their own sessions with `DELETE /api/flash/sessions/{id}`.',
    },
    getTeamSecurity: {
      method: 'GET',
      path: '/api/flash/team/security',
      auth: ['adminSession'],
      permission: 'team:manage',
      summary: 'Whether the workspace requires two-factor sign-in',
      responses: { 200: dataOf(teamSecuritySchema) },
    },
    setTeamSecurity: {
      method: 'PUT',
      path: '/api/flash/team/security',
      auth: ['adminSession'],
      permission: 'team:manage',
      summary: 'Require two-factor sign-in of every user (owners and admins)',
      body: teamSecurityBody,
      responses: { 200: dataOf(teamSecuritySchema) },
      description:
        'With `mfaRequired: true`, a user without two-factor sign-in who signs in from then on may only enrol: every other route answers 403 `MFA_ENROLMENT_REQUIRED` until they confirm an authenticator app. ' +
        'Sessions signed in before the change are not affected. A change is audited (`workspace.mfa_required`, `workspace.mfa_not_required`); setting what is already set changes nothing.',
    },
    listInvitations: {
      method: 'GET',
      path: '/api/flash/team/invitations',
      auth: ['adminSession'],
      permission: 'team:manage',
      summary: 'List invitations, newest first',
      query: pageQuery,
      responses: { 200: pageOf(invitationSchema) },
    },
    invite: {
      method: 'POST',
      path: '/api/flash/team/invitations',
      auth: ['adminSession'],
      permission: 'team:manage',
      idempotent: true,
      summary: 'Invite an e-mail to the team with a role',
      body: inviteBody,
      responses: { 201: dataOf(invitationSchema) },
      description: `Mails a link to the console's accept page (\`/console/accept#token=fl_inv_...\`) that works once, for ${days} days. Only an owner may invite an owner (403); an e-mail already in the team is a 409. Audited as \`team.invited\`.`,
    },
    revokeInvitation: {
      method: 'DELETE',
      path: '/api/flash/team/invitations/{id}',
      auth: ['adminSession'],
      permission: 'team:manage',
      summary: 'Revoke a pending invitation',
      params: byId,
      responses: { 204: null },
      description: 'Its link answers 410 from now on. An invitation already accepted or revoked is a 409. Audited as `team.invitation_revoked`.',
    },
    previewInvitation: {
      method: 'POST',
      path: '/api/flash/team/invitations/preview',
      auth: ['public'],
      throttle: 'credentialAttempts',
      summary: 'What an invitation opens to: workspace, inviter and role',
      body: previewInvitationBody,
      responses: { 200: dataOf(invitationPreviewSchema), 410: errorBody },
      description:
        'The accept page shows it before anything is accepted, so the person knows whom they join, at whose invitation and with which job. The token goes in the body (never the address). Unknown token: 400. Used, revoked or expired: 410. Changes nothing.',
    },
    acceptInvitation: {
      method: 'POST',
      path: '/api/flash/team/invitations/accept',
      auth: ['public'],
      throttle: 'credentialAttempts',
      summary: 'Accept an invitation: create the user with a password',
      body: acceptInvitationBody,
      responses: { 201: dataOf(z.object({ user: userSchema, workspace: workspaceSchema })), 410: errorBody },
      description:
        'Creates the invited user with the invited role; they then sign in (`POST /api/flash/session`). Unknown token: 400. Used, revoked or expired: 410. An e-mail that already has an account (a login belongs to one workspace): 409. Audited as `team.invitation_accepted` (actor: the new user).',
    },
  },
});
