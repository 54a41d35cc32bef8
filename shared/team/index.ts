/**
 * The door of the team area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { actorDirectory } from './actors';
export { invitationSchema, teamArea } from './contract';
export { acceptInvitation, invite, listInvitations, previewInvitation, revokeInvitation } from './invitations';
export { changeRole, endMemberSessions, listMembers, removeMember } from './members';
