import { randomBytes } from 'node:crypto';
import { config } from '../platform/config';
import { runtimeConfig } from '../platform/config';
import * as accounts from './accounts-repository';
import { newId } from '../platform/ids';
import { AppError, badRequest, gone, notFound, rateLimited, RESET_TOKEN_GONE, unauthenticated } from '../platform/errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import type { SessionPrincipal } from '../platform/contract/principal';
import { randomToken, sha256Hex, TOKEN_PREFIX } from '../platform/tokens';
import type { SessionRecord, User, UserRecord, Workspace } from './entities';
import type { Mailer } from '../platform/ports/mailer';
import { audited, recordRefusal, type AuditContext } from '../audit';
import { permissionsOf } from '../platform/contract/permissions';

export interface IssuedSession {
  token: string;
  expiresAt: string;
}

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

/** The user as callers see it: no hash, no generation, no version. */
export function publicUser(u: UserRecord): User {
  return { id: u.id, workspaceId: u.workspaceId, email: u.email, name: u.name, role: u.role, createdAt: u.createdAt, updatedAt: u.updatedAt };
}

/** A bearer session, or with `browser` one for the console's cookie: shorter-lived, with an idle limit and a CSRF token. */
function newSession(
  user: Pick<UserRecord, 'id' | 'workspaceId' | 'sessionGeneration'>,
  now: Date,
  browser = false,
): { record: SessionRecord; issued: IssuedSession } {
  const token = randomToken(TOKEN_PREFIX.session);
  const expiresAt = epoch(now) + (browser ? config.browserSession.absoluteSeconds : config.auth.sessionTtlSeconds);
  return {
    record: {
      tokenHash: sha256Hex(token),
      workspaceId: user.workspaceId,
      userId: user.id,
      generation: user.sessionGeneration,
      createdAt: now.toISOString(),
      expiresAt,
      ...(browser ? { browser: { csrfToken: randomBytes(32).toString('base64url'), lastSeenAt: epoch(now) } } : {}),
    },
    issued: { token, expiresAt: new Date(expiresAt * 1000).toISOString() },
  };
}

/** The request a public operation runs in: who acts is only known once the credential is checked. */
export interface PublicRequest {
  requestId: string;
}

export async function register(
  input: { workspaceName: string; email: string; password: string; name?: string; sandbox?: boolean },
  request: PublicRequest,
  now = new Date(),
): Promise<{ workspace: Workspace; user: User; session: IssuedSession }> {
  const at = now.toISOString();
  const workspace: Workspace = { id: newId('ws'), name: input.workspaceName, createdAt: at, sandbox: input.sandbox ?? false };
  const owner: UserRecord = {
    id: newId('usr'),
    workspaceId: workspace.id,
    email: input.email,
    name: input.name ?? null,
    role: 'owner',
    createdAt: at,
    updatedAt: at,
    passwordHash: await hashPassword(input.password),
    sessionGeneration: 1,
    credentialsVersion: 0,
    version: 1,
  };
  const session = newSession(owner, now);
  const audit = audited(
    workspace.id,
    { actor: { type: 'user', id: owner.id }, requestId: request.requestId },
    'workspace.created',
    { type: 'workspace', id: workspace.id },
    now,
  );
  await accounts.createWorkspaceWithOwner({ workspace, owner, session: session.record }, [audit]);
  return { workspace, user: publicUser(owner), session: session.issued };
}

const throttleWindow = (now: Date) => Math.floor(epoch(now) / config.auth.loginFailureWindowSeconds);

export async function login(
  input: { email: string; password: string },
  request: PublicRequest,
  now = new Date(),
  opts: { browser?: boolean } = {},
): Promise<{ session: IssuedSession; user: User; workspace: Workspace; csrfToken?: string }> {
  const emailHash = sha256Hex(input.email);
  const window = throttleWindow(now);
  const windowEnds = (window + 1) * config.auth.loginFailureWindowSeconds;
  // The attempt is counted before its password is checked, atomically: of any number of parallel
  // attempts at most `loginFailureLimit` get a password check per window.
  if (!(await accounts.reserveLoginAttempt(emailHash, window, config.auth.loginFailureLimit, windowEnds))) {
    throw rateLimited(windowEnds - epoch(now), 'Too many failed logins for this e-mail; try again later');
  }
  const user = await accounts.findUserByEmail(input.email);
  // Unknown e-mail and wrong password take the same time and give the same answer.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) {
    // The account's workspace learns of a wrong password; an unknown e-mail names no workspace, so
    // only its counter is stamped. Both writes run side by side, so the answer takes about one
    // write's time whether the account exists or not. Throttled attempts (429, above) are not
    // recorded, which bounds what anyone can add to a workspace's trail.
    await Promise.all([
      accounts.noteLoginFailure(emailHash, window, now.toISOString(), windowEnds),
      user
        ? recordRefusal(
            user.workspaceId,
            {
              action: 'auth.login_failed',
              actor: { type: 'anonymous' },
              target: { type: 'user', id: user.id },
              requestId: request.requestId,
              reason: 'wrong_password',
            },
            now,
          )
        : undefined,
    ]);
    throw unauthenticated('Invalid e-mail or password');
  }
  const workspace = await accounts.getWorkspace(user.workspaceId);
  if (!workspace) throw unauthenticated('Invalid e-mail or password');
  const session = newSession(user, now, opts.browser);
  const actor = { type: 'user', id: user.id } as const;
  await accounts.putSession(session.record, [
    audited(user.workspaceId, { actor, requestId: request.requestId }, 'auth.login', { type: 'user', id: user.id }, now),
  ]);
  await accounts.clearLoginFailures(emailHash, window);
  const csrfToken = session.record.browser?.csrfToken;
  return { session: session.issued, user: publicUser(user), workspace, ...(csrfToken ? { csrfToken } : {}) };
}

/** Signs in for the console: a browser session, whose token the caller puts in the cookie and never in the answer. */
export async function startBrowserSession(input: { email: string; password: string }, request: PublicRequest, now = new Date()) {
  const { session, user, workspace, csrfToken } = await login(input, request, now, { browser: true });
  const idleExpiresAt = new Date((epoch(now) + config.browserSession.idleSeconds) * 1000).toISOString();
  return {
    token: session.token,
    answer: { user, workspace, permissions: permissionsOf(user.role), session: { expiresAt: session.expiresAt, idleExpiresAt, csrfToken: csrfToken! } },
  };
}

/** What the console knows of its session: user, workspace, the role's permissions, both limits and the CSRF token (never the cookie's token). */
export async function browserSession(principal: SessionPrincipal) {
  if (!principal.browser) throw unauthenticated('This is not a browser session: sign in at POST /api/flash/session');
  const { user, workspace } = await profile(principal);
  return {
    user,
    workspace,
    permissions: permissionsOf(user.role),
    session: {
      expiresAt: new Date(principal.expiresAt * 1000).toISOString(),
      idleExpiresAt: new Date(Math.min(principal.browser.idleExpiresAt, principal.expiresAt) * 1000).toISOString(),
      csrfToken: principal.browser.csrfToken,
    },
  };
}

/** How many of a user's newest sessions the list reads: a person signs in from a few places, a script may sign in often. */
const LISTED_SESSIONS = 50;

/** A session's public id: derived from the hash of its token (which no answer holds), and not reversible to it. */
export const sessionIdOf = (tokenHash: string): string => `ses_${sha256Hex(tokenHash).slice(0, 26)}`;

/** When a stored session stops letting its holder in (epoch seconds): its absolute end, or for a console session its idle end if sooner. */
export const sessionEndsAt = (s: Pick<SessionRecord, 'expiresAt' | 'browser'>): number =>
  s.browser ? Math.min(s.expiresAt, s.browser.lastSeenAt + config.browserSession.idleSeconds) : s.expiresAt;

/** Whether a stored session still lets its holder in, as the credential check judges it: the user's generation, before its end. */
const isLive = (s: SessionRecord, user: Pick<UserRecord, 'sessionGeneration'>, now: Date): boolean =>
  s.generation === user.sessionGeneration && sessionEndsAt(s) > epoch(now);

async function liveSessions(principal: SessionPrincipal, now: Date): Promise<SessionRecord[]> {
  const [user, sessions] = await Promise.all([currentUser(principal), accounts.listUserSessions(principal.workspaceId, principal.userId, LISTED_SESSIONS)]);
  return sessions.filter((s) => isLive(s, user, now));
}

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The caller's own sessions that still let them in, newest first: where they are signed in, and which one is this. */
export async function listSessions(principal: SessionPrincipal, now = new Date()) {
  return (await liveSessions(principal, now)).map((s) => ({
    id: sessionIdOf(s.tokenHash),
    kind: s.browser ? ('console' as const) : ('api' as const),
    createdAt: s.createdAt,
    lastSeenAt: s.browser ? isoOf(s.browser.lastSeenAt) : null,
    expiresAt: isoOf(sessionEndsAt(s)),
    current: s.tokenHash === principal.tokenHash,
  }));
}

/** Ends one of the caller's own sessions (a lost laptop, a forgotten script), audited; this one too if asked (then it is a sign-out). */
export async function endSession(principal: SessionPrincipal, sessionId: string, audit: AuditContext, now = new Date()): Promise<void> {
  const session = (await liveSessions(principal, now)).find((s) => sessionIdOf(s.tokenHash) === sessionId);
  if (!session) throw notFound('Session');
  await accounts.deleteSession(session.tokenHash, [audited(principal.workspaceId, audit, 'auth.session_ended', { type: 'user', id: principal.userId }, now)]);
}

/** Signs out: the session is deleted server-side, so its token (cookie or bearer) is refused from now on. */
export async function logout(principal: SessionPrincipal, audit: AuditContext, now = new Date()): Promise<void> {
  await accounts.deleteSession(principal.tokenHash, [audited(principal.workspaceId, audit, 'auth.logout', { type: 'user', id: principal.userId }, now)]);
}

async function currentUser(principal: SessionPrincipal): Promise<UserRecord> {
  const user = await accounts.getUser(principal.workspaceId, principal.userId);
  if (!user) throw unauthenticated();
  return user;
}

export async function profile(principal: SessionPrincipal) {
  const [user, workspace] = await Promise.all([currentUser(principal), accounts.getWorkspace(principal.workspaceId)]);
  if (!workspace) throw notFound('Workspace');
  return {
    user: publicUser(user),
    workspace,
    session: { expiresAt: new Date(principal.expiresAt * 1000).toISOString() },
  };
}

export async function updateProfile(principal: SessionPrincipal, changes: { name?: string | null; email?: string }, audit: AuditContext, now = new Date()) {
  const user = await currentUser(principal);
  const emailChanges = changes.email !== undefined && changes.email !== user.email;
  const steps = emailChanges ? [audited(user.workspaceId, audit, 'auth.email_changed', { type: 'user', id: user.id }, now)] : [];
  await accounts.updateProfile(user, changes, now.toISOString(), steps);
  return profile(principal);
}

export async function changePassword(
  principal: SessionPrincipal,
  input: { currentPassword: string; newPassword: string },
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  const user = await currentUser(principal);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new AppError('VALIDATION_FAILED', 'The current password is wrong', [
      { in: 'body', field: 'currentPassword', message: 'does not match the current password' },
    ]);
  }
  const step = audited(user.workspaceId, audit, 'auth.password_changed', { type: 'user', id: user.id }, now);
  await accounts.replacePassword(user, await hashPassword(input.newPassword), now.toISOString(), principal.tokenHash, [step]);
}

const credentialsVersionOf = (r: { credentialsVersion?: number }): number => r.credentialsVersion ?? 0;

/** Always succeeds for the caller; a token is mailed only when the account exists. */
export async function forgotPassword(email: string, mailer: Mailer, now = new Date()): Promise<void> {
  const user = await accounts.findUserByEmail(email);
  if (!user) return;
  const token = randomToken(TOKEN_PREFIX.resetToken);
  const expiresAt = epoch(now) + config.auth.resetTokenTtlSeconds;
  await accounts.putResetToken({
    tokenHash: sha256Hex(token),
    workspaceId: user.workspaceId,
    userId: user.id,
    expiresAt,
    credentialsVersion: credentialsVersionOf(user),
  });
  const minutes = Math.round(config.auth.resetTokenTtlSeconds / 60);
  await mailer.send({
    to: user.email,
    template: 'password_reset',
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your loyalty platform account.',
      `Reset token (valid for ${minutes} minutes, works once): ${token}`,
      `Or open: ${runtimeConfig().PUBLIC_BASE_URL}/console/reset-password#token=${encodeURIComponent(token)}`,
      'If this was not you, ignore this message; your password stays as it is.',
    ].join('\n'),
  });
}

export async function resetPassword(input: { token: string; newPassword: string }, request: PublicRequest, now = new Date()): Promise<void> {
  const record = input.token.startsWith(TOKEN_PREFIX.resetToken) ? await accounts.getResetToken(sha256Hex(input.token)) : undefined;
  if (!record) throw badRequest('Invalid reset token');
  if (record.usedAt || record.expiresAt <= epoch(now)) throw gone(RESET_TOKEN_GONE);
  const user = await accounts.getUser(record.workspaceId, record.userId);
  if (!user) throw badRequest('Invalid reset token');
  // A reset, password change or e-mail change since the token was mailed voids it (the change may
  // have been made to lock out whoever holds the old mailbox); the write checks this again.
  if (credentialsVersionOf(record) !== credentialsVersionOf(user)) throw gone(RESET_TOKEN_GONE);
  // The token proved who is acting: the user it was mailed to.
  const ctx: AuditContext = { actor: { type: 'user', id: user.id }, requestId: request.requestId };
  const step = audited(user.workspaceId, ctx, 'auth.password_reset', { type: 'user', id: user.id }, now);
  await accounts.consumeResetToken(record, user, await hashPassword(input.newPassword), now, [step]);
}
