import * as accounts from '../auth';
import * as repo from './repository';
import { AppError, conflict, notFound } from '../platform/errors';
import { type User, type UserRecord, publicUser } from '../auth';
import type { Role } from '../platform/contract/roles';
import { audited, diffOf, type AuditContext } from '../audit';
import type { SessionPrincipal } from '../platform/contract/principal';
import { revokeOutlivedInvitations } from './invitations';
import { assertMayGrant } from './rules';

export async function listMembers(principal: SessionPrincipal, limit: number, cursor?: string) {
  const page = await repo.listUsers(principal.workspaceId, limit, cursor);
  return { items: page.items.map(publicUser), nextCursor: page.nextCursor ?? null };
}

async function memberOf(principal: SessionPrincipal, userId: string): Promise<UserRecord> {
  const user = await accounts.getUser(principal.workspaceId, userId);
  if (!user) throw notFound('Team member');
  return user;
}

/**
 * Another owner than `userId`, which the write then checks is still an owner (so two owners
 * demoting each other at once leave one). None: the member is the last owner, 409. A team is tens
 * of users: read whole.
 */
async function anotherOwner(workspaceId: string, userId: string): Promise<string> {
  let cursor: string | undefined;
  do {
    const page = await repo.listUsers(workspaceId, 200, cursor);
    const other = page.items.find((u) => u.role === 'owner' && u.id !== userId);
    if (other) return other.id;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  throw conflict(repo.LAST_OWNER);
}

/** Changes a member's role; the pending invitations the new role could not send are revoked with it. */
export async function changeRole(principal: SessionPrincipal, userId: string, role: Role, audit: AuditContext, now = new Date()): Promise<User> {
  const user = await memberOf(principal, userId);
  if (user.role === 'owner') assertMayGrant(principal, 'owner', 'id');
  assertMayGrant(principal, role, 'role');
  if (user.role === role) return publicUser(user);
  const otherOwner = user.role === 'owner' ? await anotherOwner(principal.workspaceId, user.id) : undefined;
  const step = audited(principal.workspaceId, audit, 'team.role_changed', { type: 'user', id: user.id }, now, diffOf({ role: user.role }, { role }));
  await repo.changeRole(user, role, now.toISOString(), otherOwner, [step]);
  await revokeOutlivedInvitations(principal, user.id, role, audit, now);
  return publicUser({ ...user, role, updatedAt: now.toISOString() });
}

/** Removes a member: their login, every session and their pending invitations end. The last owner stays (409). */
export async function removeMember(principal: SessionPrincipal, userId: string, audit: AuditContext, now = new Date()): Promise<void> {
  const user = await memberOf(principal, userId);
  if (user.role === 'owner') assertMayGrant(principal, 'owner', 'id');
  const otherOwner = user.role === 'owner' ? await anotherOwner(principal.workspaceId, user.id) : undefined;
  const step = audited(principal.workspaceId, audit, 'team.member_removed', { type: 'user', id: user.id }, now);
  await repo.removeUser(user, otherOwner, [step]);
  await revokeOutlivedInvitations(principal, user.id, undefined, audit, now);
}

/**
 * Ends every session of a team member at once (a lost phone, someone who left in a hurry): only an
 * owner may, for anyone, themselves included. Their login stays; they sign in again.
 */
export async function endMemberSessions(principal: SessionPrincipal, userId: string, audit: AuditContext, now = new Date()): Promise<void> {
  if (principal.role !== 'owner') {
    throw new AppError('FORBIDDEN', "Only an owner ends another person's sessions", [{ in: 'path', field: 'id', message: 'needs an owner' }]);
  }
  const user = await memberOf(principal, userId);
  const step = audited(principal.workspaceId, audit, 'team.sessions_ended', { type: 'user', id: user.id }, now);
  await accounts.endUserSessions(principal.workspaceId, user.id, now.toISOString(), [step]);
}
