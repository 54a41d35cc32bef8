/**
 * Two-factor sign-in of a console user: enrolling an authenticator app (a secret handed out, on only
 * once a code from it is confirmed), the recovery codes shown once, turning it off, and a
 * workspace's requirement of it. Signing in with it is the sign-in's second step (service.ts).
 */
import * as accounts from './accounts-repository';
import { config } from '../platform/config';
import { AppError, conflict, notFound, unauthenticated } from '../platform/errors';
import type { SessionPrincipal } from '../platform/contract/principal';
import { audited, type AuditContext } from '../audit';
import { verifyPassword } from './password';
import { acceptedStep, newRecoveryCode, newTotpSecret, otpauthUri, recoveryCodeHash, stepAt } from './totp';
import type { UserRecord } from './entities';

async function userOf(principal: SessionPrincipal): Promise<UserRecord> {
  const user = await accounts.getUser(principal.workspaceId, principal.userId);
  if (!user) throw unauthenticated();
  return user;
}

const wrongCode = (field: string) =>
  new AppError('VALIDATION_FAILED', 'The code is wrong or expired: type the code your authenticator app shows now', [
    { in: 'body', field, message: 'is not a current code of this authenticator' },
  ]);

/** Whether the caller has two-factor sign-in on, how many recovery codes are left, and whether their workspace requires it. */
export async function mfaStatus(principal: SessionPrincipal) {
  const [user, workspace] = await Promise.all([userOf(principal), accounts.getWorkspaceRecord(principal.workspaceId)]);
  if (!workspace) throw notFound('Workspace');
  return {
    enabled: user.mfa !== undefined,
    enabledAt: user.mfa?.enabledAt ?? null,
    recoveryCodesLeft: user.mfa ? Object.keys(user.mfa.recovery).length : 0,
    required: workspace.mfaRequired === true,
  };
}

/** Hands out a new secret to add to an authenticator app; two-factor is on only once a code from it is confirmed. */
export async function startMfaEnrolment(principal: SessionPrincipal, now = new Date()) {
  const user = await userOf(principal);
  if (user.mfa) throw conflict('Two-factor sign-in is already on: turn it off first to enrol another device');
  const secret = newTotpSecret();
  await accounts.putPendingMfa(user, { secret, startedAt: now.toISOString() });
  return { secret, otpauthUri: otpauthUri(config.auth.mfaIssuer, user.email, secret) };
}

/** Confirms the enrolment with a current code: two-factor is on, and the recovery codes are answered, this once only. */
export async function confirmMfaEnrolment(principal: SessionPrincipal, code: string, audit: AuditContext, now = new Date()) {
  const user = await userOf(principal);
  if (user.mfa) throw conflict('Two-factor sign-in is already on');
  if (!user.mfaPending) throw conflict('No enrolment to confirm: start one first');
  const step = await acceptedStep(user.mfaPending.secret, code, now, 0);
  if (step === undefined) throw wrongCode('code');
  const recoveryCodes = Array.from({ length: config.auth.mfaRecoveryCodes }, () => newRecoveryCode());
  const recovery = Object.fromEntries(recoveryCodes.map((c) => [recoveryCodeHash(c), true as const]));
  const mfa = { secret: user.mfaPending.secret, enabledAt: now.toISOString(), lastStep: step, recovery };
  await accounts.enableMfa(user, mfa, [audited(user.workspaceId, audit, 'auth.mfa_enabled', { type: 'user', id: user.id }, now)]);
  return { recoveryCodes };
}

/** Turns two-factor off, proved by a current code or the password (whoever holds only the session cannot). */
export async function disableMfa(
  principal: SessionPrincipal,
  proof: { code?: string; password?: string },
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  const user = await userOf(principal);
  if (!user.mfa) throw conflict('Two-factor sign-in is not on');
  if (proof.code !== undefined) {
    // Any code of the window, the last one used at sign-in included: the session already proved it.
    if ((await acceptedStep(user.mfa.secret, proof.code, now, stepAt(now) - 2)) === undefined) throw wrongCode('code');
  } else if (!(await verifyPassword(proof.password ?? '', user.passwordHash))) {
    throw new AppError('VALIDATION_FAILED', 'The password is wrong', [{ in: 'body', field: 'password', message: 'does not match the current password' }]);
  }
  await accounts.disableMfa(user, user.mfa.secret, [audited(user.workspaceId, audit, 'auth.mfa_disabled', { type: 'user', id: user.id }, now)]);
}

/** Whether the workspace requires two-factor sign-in of every user. */
export async function mfaRequirement(workspaceId: string): Promise<{ mfaRequired: boolean }> {
  const workspace = await accounts.getWorkspaceRecord(workspaceId);
  if (!workspace) throw notFound('Workspace');
  return { mfaRequired: workspace.mfaRequired === true };
}

/** Requires (or stops requiring) two-factor sign-in of every user of the workspace; a change is audited, a repeat is not. */
export async function setMfaRequired(workspaceId: string, required: boolean, audit: AuditContext, now = new Date()): Promise<{ mfaRequired: boolean }> {
  if ((await mfaRequirement(workspaceId)).mfaRequired === required) return { mfaRequired: required };
  const action = required ? 'workspace.mfa_required' : 'workspace.mfa_not_required';
  await accounts.setMfaRequired(workspaceId, required, [audited(workspaceId, audit, action, { type: 'workspace', id: workspaceId }, now)]);
  return { mfaRequired: required };
}
