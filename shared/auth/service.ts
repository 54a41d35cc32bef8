import { randomBytes } from 'node:crypto';
import { config } from '../platform/config';
import { runtimeConfig } from '../platform/config';
import * as accounts from './accounts-repository';
import { newId } from '../platform/ids';
import { AppError, badRequest, gone, notFound, rateLimited, RESET_TOKEN_GONE, unauthenticated } from '../platform/errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import type { SessionPrincipal } from '../platform/contract/principal';
import { randomToken, sha256Hex, TOKEN_PREFIX } from '../platform/tokens';
import type { MfaState, SessionRecord, User, UserRecord, Workspace, WorkspaceRecord } from './entities';
import { publicWorkspace } from './accounts-repository';
import type { TransactStep } from '../platform/data/transactions';
import { acceptedStep, normaliseRecoveryCode, recoveryCodeHash } from './totp';
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
  enrolmentOnly = false,
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
      ...(enrolmentOnly ? { enrolmentOnly: true as const } : {}),
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
const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** What a correct password leads to for a user with two-factor sign-in: no session yet, a challenge to answer with a code. */
export interface MfaChallenge {
  mfa: { challenge: string; expiresAt: string; methods: ('totp' | 'recovery_code')[] };
}

export interface SignedIn {
  session: IssuedSession;
  user: User;
  workspace: Workspace;
}

/** A sign-in as the console needs it too: the CSRF token, and whether the session may only enrol in two-factor. */
interface OpenedSession extends SignedIn {
  csrfToken?: string;
  enrolmentOnly: boolean;
}

const signedInOf = (r: OpenedSession | MfaChallenge): SignedIn | MfaChallenge =>
  'mfa' in r ? r : { session: r.session, user: r.user, workspace: r.workspace };

export async function login(input: { email: string; password: string }, request: PublicRequest, now = new Date()): Promise<SignedIn | MfaChallenge> {
  return signedInOf(await passwordStep(input, request, now, false));
}

/**
 * The second step of a sign-in with two-factor: a current code of the user's authenticator app (or
 * one unused recovery code) ends the challenge in a session.
 */
export async function completeMfaSignIn(input: MfaSignInInput, request: PublicRequest, now = new Date()): Promise<SignedIn> {
  return signedInOf(await codeStep(input, request, now, false)) as SignedIn;
}

type MfaSignInInput = { challenge: string; code?: string; recoveryCode?: string };

/** The sign-in throttle's counter of an e-mail at `now`: wrong passwords and wrong codes count in it alike. */
function throttleOf(emailHash: string, now: Date) {
  const window = throttleWindow(now);
  return { emailHash, window, windowEnds: (window + 1) * config.auth.loginFailureWindowSeconds };
}
type Throttle = ReturnType<typeof throttleOf>;

/**
 * Counts the attempt before its secret is checked, atomically: of any number of parallel attempts at
 * most `loginFailureLimit` get a check per window.
 */
async function reserveAttempt(t: Throttle, now: Date): Promise<void> {
  if (!(await accounts.reserveLoginAttempt(t.emailHash, t.window, config.auth.loginFailureLimit, t.windowEnds))) {
    throw rateLimited(t.windowEnds - epoch(now), 'Too many failed logins for this e-mail; try again later');
  }
}

/**
 * A refused attempt: the counter stamped and, for an existing account, its workspace told, side by
 * side, so the answer takes about one write's time whether the account exists or not. Throttled
 * attempts (429) are not recorded, which bounds what anyone can add to a workspace's trail.
 */
async function noteFailure(t: Throttle, user: UserRecord | undefined, reason: 'wrong_password' | 'wrong_code', request: PublicRequest, now: Date) {
  await Promise.all([
    accounts.noteLoginFailure(t.emailHash, t.window, now.toISOString(), t.windowEnds),
    user
      ? recordRefusal(
          user.workspaceId,
          { action: 'auth.login_failed', actor: { type: 'anonymous' }, target: { type: 'user', id: user.id }, requestId: request.requestId, reason },
          now,
        )
      : undefined,
  ]);
}

async function passwordStep(
  input: { email: string; password: string },
  request: PublicRequest,
  now: Date,
  browser: boolean,
): Promise<OpenedSession | MfaChallenge> {
  const throttle = throttleOf(sha256Hex(input.email), now);
  await reserveAttempt(throttle, now);
  const user = await accounts.findUserByEmail(input.email);
  // Unknown e-mail and wrong password take the same time and give the same answer.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) {
    await noteFailure(throttle, user, 'wrong_password', request, now);
    throw unauthenticated('Invalid e-mail or password');
  }
  const workspace = await accounts.getWorkspaceRecord(user.workspaceId);
  if (!workspace) throw unauthenticated('Invalid e-mail or password');
  // The password's attempt stays counted until the code is right too: someone who has the password
  // gets no more code guesses by typing it again.
  if (user.mfa) return startMfaChallenge(user, throttle.emailHash, now, browser);
  const signedIn = await openSession(user, workspace, request, now, browser);
  await accounts.clearLoginFailures(throttle.emailHash, throttle.window);
  return signedIn;
}

/** The session of a sign-in that proved everything it had to, with its audit entry. */
async function openSession(
  user: UserRecord,
  workspace: WorkspaceRecord,
  request: PublicRequest,
  now: Date,
  browser: boolean,
  take?: (session: SessionRecord, steps: TransactStep[]) => Promise<void>,
): Promise<OpenedSession> {
  const enrolmentOnly = workspace.mfaRequired === true && !user.mfa;
  const session = newSession(user, now, browser, enrolmentOnly);
  const actor = { type: 'user', id: user.id } as const;
  const steps = [audited(user.workspaceId, { actor, requestId: request.requestId }, 'auth.login', { type: 'user', id: user.id }, now)];
  await (take ? take(session.record, steps) : accounts.putSession(session.record, steps));
  const csrfToken = session.record.browser?.csrfToken;
  return { session: session.issued, user: publicUser(user), workspace: publicWorkspace(workspace), enrolmentOnly, ...(csrfToken ? { csrfToken } : {}) };
}

async function startMfaChallenge(user: UserRecord, emailHash: string, now: Date, browser: boolean): Promise<MfaChallenge> {
  const challenge = randomToken(TOKEN_PREFIX.mfaChallenge);
  const expiresAt = epoch(now) + config.auth.mfaChallengeTtlSeconds;
  await accounts.putMfaChallenge({ tokenHash: sha256Hex(challenge), workspaceId: user.workspaceId, userId: user.id, emailHash, browser, expiresAt });
  return { mfa: { challenge, expiresAt: isoOf(expiresAt), methods: ['totp', 'recovery_code'] } };
}

const CHALLENGE_GONE = 'This sign-in step expired or was used: sign in with your password again';

/**
 * A wrong code counts where a wrong password does; the code taken (its step, or the recovery code)
 * cannot be used again, and the challenge ends with the session it opens.
 */
async function codeStep(input: MfaSignInInput, request: PublicRequest, now: Date, browser: boolean): Promise<OpenedSession> {
  const challenge = input.challenge.startsWith(TOKEN_PREFIX.mfaChallenge) ? await accounts.getMfaChallenge(sha256Hex(input.challenge)) : undefined;
  if (!challenge || challenge.expiresAt <= epoch(now) || challenge.browser !== browser) throw unauthenticated(CHALLENGE_GONE);
  const throttle = throttleOf(challenge.emailHash, now);
  await reserveAttempt(throttle, now);
  const [user, workspace] = await Promise.all([accounts.getUser(challenge.workspaceId, challenge.userId), accounts.getWorkspaceRecord(challenge.workspaceId)]);
  if (!user?.mfa || !workspace) throw unauthenticated(CHALLENGE_GONE);
  const use = await secondFactorOf(user.mfa, input, now);
  const refuse = async () => {
    await noteFailure(throttle, user, 'wrong_code', request, now);
    return unauthenticated('Invalid code');
  };
  if (!use) throw await refuse();
  const secret = user.mfa.secret;
  try {
    const signedIn = await openSession(user, workspace, request, now, challenge.browser, (session, steps) =>
      accounts.completeMfaSignIn(challenge, user, secret, use, session, steps),
    );
    await accounts.clearLoginFailures(throttle.emailHash, throttle.window);
    return signedIn;
  } catch (err) {
    // Taken meanwhile (the same code or recovery code in a parallel request): a wrong code now.
    if (err instanceof accounts.MfaCodeTaken) throw await refuse();
    throw err;
  }
}

/** What a typed second factor would take from the user, if it is right; undefined if it is not. */
async function secondFactorOf(mfa: MfaState, input: { code?: string; recoveryCode?: string }, now: Date): Promise<accounts.MfaUse | undefined> {
  if (input.code !== undefined) {
    const step = await acceptedStep(mfa.secret, input.code, now, mfa.lastStep);
    return step === undefined ? undefined : { step };
  }
  const recovery = input.recoveryCode === undefined ? undefined : normaliseRecoveryCode(input.recoveryCode);
  if (!recovery) return undefined;
  const recoveryHash = recoveryCodeHash(recovery);
  return mfa.recovery[recoveryHash] ? { recoveryHash } : undefined;
}

/** Signs in for the console: a browser session, whose token the caller puts in the cookie and never in the answer. */
export async function startBrowserSession(input: { email: string; password: string }, request: PublicRequest, now = new Date()) {
  return browserSignIn(await passwordStep(input, request, now, true), now);
}

/** The console's second step of a sign-in with two-factor: a browser session, as `startBrowserSession` answers it. */
export async function completeBrowserMfaSignIn(input: MfaSignInInput, request: PublicRequest, now = new Date()) {
  const { token, answer } = browserSignIn(await codeStep(input, request, now, true), now);
  return { token: token!, answer: answer as Exclude<typeof answer, MfaChallenge> };
}

function browserSignIn(result: OpenedSession | MfaChallenge, now: Date) {
  if ('mfa' in result) return { token: undefined, answer: result };
  const { session, user, workspace, csrfToken, enrolmentOnly } = result;
  const idleExpiresAt = new Date((epoch(now) + config.browserSession.idleSeconds) * 1000).toISOString();
  return {
    token: session.token,
    answer: {
      user,
      workspace,
      permissions: permissionsOf(user.role),
      session: { expiresAt: session.expiresAt, idleExpiresAt, csrfToken: csrfToken!, mfaEnrolmentRequired: enrolmentOnly },
    },
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
      mfaEnrolmentRequired: principal.mustEnrolMfa === true,
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
