import { config, runtimeConfig } from '../platform/config';
import * as accounts from '../auth';
import * as repo from './repository';
import { AppError, badRequest, conflict, gone, notFound } from '../platform/errors';
import { newId } from '../platform/ids';
import type { Mailer } from '../platform/ports/mailer';
import { type UserRecord, type Workspace, hashPassword, publicUser, type PublicRequest } from '../auth';
import { ROLE_SUMMARIES, type Role } from '../platform/contract/roles';
import type { Invitation, InvitationRecord } from './entities';
import { audited, type AuditContext } from '../audit';
import type { SessionPrincipal } from '../platform/contract/principal';
import { randomToken, sha256Hex, TOKEN_PREFIX } from '../platform/tokens';
import type { AcceptInvitationInput, InviteInput } from './schemas';
import { assertMayGrant, mayStillInvite, rolesThatMayInvite } from './rules';

/** A stored pending invitation past its time reads as `expired`. */
export function publicInvitation(r: InvitationRecord, now = new Date()): Invitation {
  const expired = r.status === 'pending' && r.expiresAt <= now.toISOString();
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    status: expired ? 'expired' : r.status,
    invitedBy: r.invitedBy,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    acceptedAt: r.acceptedAt,
    revokedAt: r.revokedAt,
    userId: r.userId,
  };
}

/** How long an expired or used link still answers 410 (not 400) before its lookup item is deleted. */
const TOKEN_RETENTION_SECONDS = 30 * 24 * 3600;

/**
 * Invites an e-mail with a role and mails the link. The link opens the console's accept page with
 * the token in the fragment, which browsers send to no server (no access log, no Referer holds it).
 */
export async function invite(principal: SessionPrincipal, input: InviteInput, audit: AuditContext, mailer: Mailer, now = new Date()): Promise<Invitation> {
  assertMayGrant(principal, input.role, 'role');
  const existing = await accounts.findUserByEmail(input.email);
  if (existing?.workspaceId === principal.workspaceId) throw conflict('This e-mail is already a member of the team');
  const token = randomToken(TOKEN_PREFIX.invitation);
  const expiresAt = new Date(now.getTime() + config.team.invitationTtlSeconds * 1000);
  const record: InvitationRecord = {
    id: newId('inv'),
    workspaceId: principal.workspaceId,
    email: input.email,
    role: input.role,
    status: 'pending',
    invitedBy: principal.userId,
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    acceptedAt: null,
    revokedAt: null,
    userId: null,
  };
  const lookup = {
    tokenHash: sha256Hex(token),
    workspaceId: record.workspaceId,
    invitationId: record.id,
    expiresAt: Math.floor(expiresAt.getTime() / 1000) + TOKEN_RETENTION_SECONDS,
  };
  await repo.createInvitation(record, lookup, [audited(principal.workspaceId, audit, 'team.invited', { type: 'invitation', id: record.id }, now)]);
  await mailInvitation(record, token, mailer);
  return publicInvitation(record, now);
}

/** Who sent an invitation, as the invited person knows them: a name and an e-mail (null once they left the team). */
async function inviterOf(invitation: InvitationRecord): Promise<{ name: string | null; email: string } | null> {
  const user = await accounts.getUser(invitation.workspaceId, invitation.invitedBy);
  return user ? { name: user.name ?? null, email: user.email } : null;
}

/** "Ada Lovelace (ada@shop.example)", or the e-mail alone without a name. */
const inviterText = (inviter: { name: string | null; email: string } | null): string =>
  inviter ? (inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email) : 'A team member';

async function mailInvitation(invitation: InvitationRecord, token: string, mailer: Mailer): Promise<void> {
  const [workspace, inviter] = await Promise.all([accounts.getWorkspace(invitation.workspaceId), inviterOf(invitation)]);
  const days = Math.round(config.team.invitationTtlSeconds / 86_400);
  const team = workspace?.name ?? 'a workspace';
  await mailer.send({
    to: invitation.email,
    template: 'team_invitation',
    subject: `${inviterText(inviter)} invited you to ${team} on the loyalty platform`,
    text: [
      `${inviterText(inviter)} invited you to join ${team} as ${invitation.role}: ${ROLE_SUMMARIES[invitation.role]}.`,
      `Accept and choose your password (the link works once, for ${days} days):`,
      `${runtimeConfig().PUBLIC_BASE_URL}/console/accept#token=${encodeURIComponent(token)}`,
      'If you did not expect this, ignore this message.',
    ].join('\n'),
  });
}

export async function listInvitations(principal: SessionPrincipal, limit: number, cursor?: string, now = new Date()) {
  const page = await repo.listInvitations(principal.workspaceId, limit, cursor);
  return { items: page.items.map((r) => publicInvitation(r, now)), nextCursor: page.nextCursor ?? null };
}

export async function revokeInvitation(principal: SessionPrincipal, invitationId: string, audit: AuditContext, now = new Date()): Promise<void> {
  const step = audited(principal.workspaceId, audit, 'team.invitation_revoked', { type: 'invitation', id: invitationId }, now);
  await repo.revokeInvitation(principal.workspaceId, invitationId, now.toISOString(), [step]);
}

/**
 * Revokes the pending invitations `inviterId` sent that they could no longer send, now that they
 * hold `role` (`undefined`: removed from the team): all of a removed member or one demoted to
 * `member`, the owner invitations of an owner made admin. Each is audited as revoked by whoever
 * changed the inviter. One revoked or accepted meanwhile is left as it is. Accepting checks the
 * inviter again in its own transaction, so an invitation this misses (sent while the change ran)
 * cannot be accepted either.
 */
export async function revokeOutlivedInvitations(
  principal: SessionPrincipal,
  inviterId: string,
  role: Role | undefined,
  audit: AuditContext,
  now = new Date(),
): Promise<number> {
  let revoked = 0;
  let cursor: string | undefined;
  do {
    const page = await repo.listInvitations(principal.workspaceId, 200, cursor);
    for (const invitation of page.items) {
      if (invitation.status !== 'pending' || invitation.invitedBy !== inviterId || mayStillInvite(role, invitation.role)) continue;
      try {
        await revokeInvitation(principal, invitation.id, audit, now);
        revoked++;
      } catch (error) {
        if (!(error instanceof AppError && (error.code === 'CONFLICT' || error.code === 'NOT_FOUND'))) throw error;
      }
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return revoked;
}

/** The invitation a presented token opens: unknown is 400, used, revoked or expired is 410. */
async function invitationOfToken(token: string, now: Date): Promise<InvitationRecord> {
  const lookup = token.startsWith(TOKEN_PREFIX.invitation) ? await repo.getInvitationToken(sha256Hex(token)) : undefined;
  const invitation = lookup ? await repo.getInvitation(lookup.workspaceId, lookup.invitationId) : undefined;
  if (!invitation) throw badRequest('Invalid invitation token');
  if (publicInvitation(invitation, now).status !== 'pending') throw gone(repo.INVITATION_GONE);
  return invitation;
}

/**
 * What an invitation's link opens to, before anything is accepted: the workspace, who invited, the
 * role and its job, so the person knows what they join. Answers as acceptance would for a token
 * that is unknown (400) or no longer pending (410).
 */
export async function previewInvitation(token: string, now = new Date()) {
  const invitation = await invitationOfToken(token, now);
  const [workspace, inviter] = await Promise.all([accounts.getWorkspace(invitation.workspaceId), inviterOf(invitation)]);
  if (!workspace) throw notFound('Workspace');
  return {
    workspace: { name: workspace.name },
    email: invitation.email,
    role: invitation.role,
    roleSummary: ROLE_SUMMARIES[invitation.role],
    invitedBy: inviter,
    expiresAt: invitation.expiresAt,
  };
}

/**
 * Accepts an invitation: creates the user with the invited role and the chosen password. The new
 * user then signs in like any other (the answer holds no session).
 */
export async function acceptInvitation(
  input: AcceptInvitationInput,
  request: PublicRequest,
  now = new Date(),
): Promise<{ user: ReturnType<typeof publicUser>; workspace: Workspace }> {
  const invitation = await invitationOfToken(input.token, now);
  if (await accounts.findUserByEmail(invitation.email)) throw conflict('An account with this e-mail already exists');
  const workspace = await accounts.getWorkspace(invitation.workspaceId);
  if (!workspace) throw notFound('Workspace');
  const at = now.toISOString();
  const user: UserRecord = {
    id: newId('usr'),
    workspaceId: invitation.workspaceId,
    email: invitation.email,
    name: input.name ?? null,
    role: invitation.role,
    createdAt: at,
    updatedAt: at,
    passwordHash: await hashPassword(input.password),
    sessionGeneration: 1,
    credentialsVersion: 0,
    version: 1,
  };
  // The token proved who acts: the user it creates.
  const ctx: AuditContext = { actor: { type: 'user', id: user.id }, requestId: request.requestId };
  await repo.acceptInvitation(invitation, user, now, rolesThatMayInvite(invitation.role), [
    audited(workspace.id, ctx, 'team.invitation_accepted', { type: 'invitation', id: invitation.id }, now),
  ]);
  return { user: publicUser(user), workspace };
}
