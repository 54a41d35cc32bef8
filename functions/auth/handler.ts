import { authArea } from '../../shared/auth';
import { mailerFromConfig } from '../../shared/platform/adapters/mailer';
import * as auth from '../../shared/auth';
import { defineArea } from '../../shared/http/area';
import { auditOf, sessionOf } from '../../shared/http/principal';
import { clearedSessionCookie, overHttps, sessionCookie } from '../../shared/http/browser-session';
import { accepted, created, noContent, ok } from '../../shared/http/responses';

export const handler = defineArea(authArea, {
  register: async ({ body, requestId }) => created(await auth.register(body, { requestId })),
  login: async ({ body, requestId }) => ok(await auth.login(body, { requestId })),
  getProfile: async ({ principal }) => ok(await auth.profile(sessionOf(principal))),
  updateProfile: async (input) => ok(await auth.updateProfile(sessionOf(input.principal), input.body, auditOf(input))),
  changePassword: async (input) => {
    await auth.changePassword(sessionOf(input.principal), input.body, auditOf(input));
    return noContent();
  },
  forgotPassword: async ({ body }) => {
    await auth.forgotPassword(body.email, mailerFromConfig());
    return accepted({ message: 'If an account exists for this e-mail, a reset token is on its way.' });
  },
  startBrowserSession: async ({ body, requestId, headers }) => {
    const { token, answer } = await auth.startBrowserSession(body, { requestId });
    // A user with two-factor sign-in gets a challenge, and no cookie until the code.
    return token ? { ...ok(answer), cookies: [sessionCookie(token, overHttps({ headers }))] } : ok(answer);
  },
  completeMfaLogin: async ({ body, requestId }) => ok(await auth.completeMfaSignIn(body, { requestId })),
  completeMfaBrowserSession: async ({ body, requestId, headers }) => {
    const { token, answer } = await auth.completeBrowserMfaSignIn(body, { requestId });
    return { ...ok(answer), cookies: [sessionCookie(token, overHttps({ headers }))] };
  },
  getMfa: async ({ principal }) => ok(await auth.mfaStatus(sessionOf(principal))),
  startMfaEnrolment: async ({ principal }) => created(await auth.startMfaEnrolment(sessionOf(principal))),
  confirmMfaEnrolment: async (input) => ok(await auth.confirmMfaEnrolment(sessionOf(input.principal), input.body.code, auditOf(input))),
  disableMfa: async (input) => {
    await auth.disableMfa(sessionOf(input.principal), input.body, auditOf(input));
    return noContent();
  },
  getBrowserSession: async ({ principal }) => ok(await auth.browserSession(sessionOf(principal))),
  endSession: async (input) => {
    await auth.logout(sessionOf(input.principal), auditOf(input));
    return { ...noContent(), cookies: [clearedSessionCookie(overHttps(input))] };
  },
  listSessions: async ({ principal }) => ok(await auth.listSessions(sessionOf(principal))),
  revokeSession: async (input) => {
    await auth.endSession(sessionOf(input.principal), input.params.id, auditOf(input));
    return noContent();
  },
  resetPassword: async ({ body, requestId }) => {
    await auth.resetPassword(body, { requestId });
    return noContent();
  },
});
