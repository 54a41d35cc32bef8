import { invitationSchema, type teamArea } from '../../team';
import { ROLE_SUMMARIES } from '../../platform/contract/roles';
import { outputOf, type AreaExamples } from './types';
import { user, workspace } from './world';

const colleague = { ...user, id: 'usr_01jq2b7c8d9e0f1g2h3j4k5m6n', email: 'alan.turing@example.com', name: 'Alan Turing', role: 'admin' as const };

const invitation = outputOf(invitationSchema, {
  id: 'inv_01jq2a4b5c6d7e8f9g0h1j2k3m',
  email: 'alan.turing@example.com',
  role: 'admin',
  status: 'pending',
  invitedBy: user.id,
  createdAt: '2026-03-05T09:00:00.000Z',
  expiresAt: '2026-03-12T09:00:00.000Z',
  acceptedAt: null,
  revokedAt: null,
  userId: null,
});

export const teamExamples: AreaExamples<typeof teamArea> = {
  listTeamMembers: { query: { limit: 50 }, responses: { 200: { data: [colleague, user], nextCursor: null } } },
  changeTeamMemberRole: {
    summary: 'Give an admin the support role',
    params: { id: colleague.id },
    request: { role: 'support' },
    responses: { 200: { data: { ...colleague, role: 'support', updatedAt: '2026-03-20T10:00:00.000Z' } } },
  },
  removeTeamMember: { params: { id: colleague.id }, responses: {} },
  endTeamMemberSessions: { params: { id: colleague.id }, responses: {} },
  getTeamSecurity: { responses: { 200: { data: { mfaRequired: false } } } },
  setTeamSecurity: {
    summary: 'Everyone signs in with an authenticator app',
    request: { mfaRequired: true },
    responses: { 200: { data: { mfaRequired: true } } },
  },
  listInvitations: { query: { limit: 50 }, responses: { 200: { data: [invitation], nextCursor: null } } },
  invite: {
    summary: 'Invite an admin',
    request: { email: 'alan.turing@example.com', role: 'admin' },
    responses: { 201: { data: invitation } },
  },
  revokeInvitation: { params: { id: invitation.id }, responses: {} },
  previewInvitation: {
    summary: 'What Alan’s link opens to',
    request: { token: 'fl_inv_Zm9yIGV4YW1wbGUgb25seSwgbm90IGEgcmVhbCB0b2tlbg' },
    responses: {
      200: {
        data: {
          workspace: { name: workspace.name },
          email: colleague.email,
          role: invitation.role,
          roleSummary: ROLE_SUMMARIES[invitation.role],
          invitedBy: { name: user.name, email: user.email },
          expiresAt: invitation.expiresAt,
        },
      },
    },
  },
  acceptInvitation: {
    summary: 'Accept with a password',
    request: { token: 'fl_inv_Zm9yIGV4YW1wbGUgb25seSwgbm90IGEgcmVhbCB0b2tlbg', password: 'correct horse battery', name: 'Alan Turing' },
    responses: {
      201: {
        data: {
          user: { ...colleague, createdAt: '2026-03-06T14:00:00.000Z', updatedAt: '2026-03-06T14:00:00.000Z' },
          workspace,
        },
      },
    },
  },
};
