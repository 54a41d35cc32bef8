import * as z from 'zod';
import { changePasswordBody, forgotPasswordBody, loginBody, profilePatchBody, registerBody, resetPasswordBody } from './schemas';
import { ROLES } from '../platform/contract/roles';
import { PERMISSION_NAMES } from '../platform/contract/permissions';
import { dataOf, errorBody, isoDateTime } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';
import { config } from '../platform/config';

export const workspaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: isoDateTime,
    sandbox: z.boolean().describe('A sandbox: keys `fl_test_...`, a program clock an admin can advance'),
  })
  .meta({ id: 'Workspace' });

export const userSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(ROLES),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'User' });

const issuedSession = z.object({ token: z.string().describe('fl_sess_... bearer token'), expiresAt: isoDateTime });
const signedIn = dataOf(z.object({ workspace: workspaceSchema, user: userSchema, session: issuedSession }));
const browserSessionBody = dataOf(
  z
    .object({
      workspace: workspaceSchema,
      user: userSchema,
      permissions: z
        .array(z.enum(PERMISSION_NAMES).meta({ id: 'Permission' }))
        .describe("What the user's role may do in the console, in a fixed order: each console route needs one (`x-permission`)"),
      session: z.object({
        expiresAt: isoDateTime.describe('When the session ends whatever happens (12 hours after signing in)'),
        idleExpiresAt: isoDateTime.describe('When it ends if no request comes before (30 minutes after the last one)'),
        csrfToken: z.string().describe(`Send it as ${config.browserSession.csrfHeader} with every write made with the cookie`),
      }),
    })
    .meta({ id: 'BrowserSession' }),
);
const sessionSchema = z
  .object({
    id: z.string().describe('ses_...: names the session without its token'),
    kind: z.enum(['console', 'api']).describe('console: a browser sign-in (the cookie); api: a bearer token from POST /api/v2/auth/login'),
    createdAt: isoDateTime.describe('When it was signed in'),
    lastSeenAt: isoDateTime.nullable().describe('A console session: its last request (to the minute); null for a bearer token'),
    expiresAt: isoDateTime.describe('When it ends unless used again: its absolute end, or its idle end if sooner'),
    current: z.boolean().describe('The session of this request'),
  })
  .meta({ id: 'Session' });

const profile = dataOf(z.object({ user: userSchema, workspace: workspaceSchema, session: z.object({ expiresAt: isoDateTime }) }));

export const authArea = declareArea({
  area: 'auth',
  description: 'Workspaces and their users: register, sign in, manage the profile and password. Sessions (`fl_sess_...`) come from here.',
  access: { table: 'readWrite', mail: true },
  endpoints: {
    register: {
      method: 'POST',
      path: '/api/v2/auth/register',
      auth: ['public'],
      throttle: 'credentialAttempts',
      summary: 'Create a workspace and its owner',
      body: registerBody,
      responses: { 201: signedIn },
    },
    login: {
      method: 'POST',
      path: '/api/v2/auth/login',
      auth: ['public'],
      throttle: 'credentialAttempts',
      summary: 'Start a session',
      body: loginBody,
      responses: { 200: signedIn, 401: errorBody },
      description:
        'Wrong e-mail or password: 401 (one message for both). 5 failures for one e-mail in 15 minutes: 429 with Retry-After; parallel attempts count as they arrive, so no more than 5 passwords are ever checked in a window. A successful login resets the count.',
    },
    getProfile: {
      method: 'GET',
      path: '/api/v2/auth/profile',
      auth: ['session'],
      summary: 'The signed-in user, workspace and session',
      responses: { 200: profile },
    },
    updateProfile: {
      method: 'PATCH',
      path: '/api/v2/auth/profile',
      auth: ['session'],
      summary: 'Change name or e-mail',
      body: profilePatchBody,
      responses: { 200: profile },
      description: 'A new e-mail voids every outstanding reset token of the user.',
    },
    changePassword: {
      method: 'POST',
      path: '/api/v2/auth/change-password',
      auth: ['session'],
      summary: 'Change password; revokes other sessions',
      body: changePasswordBody,
      responses: { 204: null },
      description: 'Signs out every other session of the user and voids every outstanding reset token.',
    },
    forgotPassword: {
      method: 'POST',
      path: '/api/v2/auth/forgot-password',
      auth: ['public'],
      throttle: 'credentialAttempts',
      summary: 'Mail a single-use reset token',
      body: forgotPasswordBody,
      responses: { 202: dataOf(z.object({ message: z.string() })) },
      description:
        'Always 202, whether the account exists or not. A single-use token valid for 1 hour is e-mailed to existing accounts; a reset, a password change or an e-mail change voids every token mailed before it.',
    },
    startBrowserSession: {
      method: 'POST',
      path: '/api/flash/session',
      auth: ['public'],
      setsCookie: true,
      throttle: 'credentialAttempts',
      summary: 'Sign in to the console (a session cookie)',
      body: loginBody,
      responses: { 200: browserSessionBody, 401: errorBody },
      description:
        `Checks the password like \`POST /api/v2/auth/login\` (same 401, same throttling and 429) and answers \`Set-Cookie: __Host-${config.browserSession.cookie}=...; ` +
        `Path=/; HttpOnly; SameSite=Strict; Secure\` instead of a bearer token (over plain http, as the local runtime serves, \`${config.browserSession.cookie}\` without \`Secure\`). ` +
        'A request from a page of another origin (its `Origin`, or `Sec-Fetch-Site` without one) is a 403, so no other site can sign a browser in. The cookie stands in for the bearer token on every route a ' +
        'user session may call (never on API-key routes); it ends 12 hours after signing in, or after 30 minutes without a request. A write made with ' +
        `the cookie must carry an \`Origin\` of this platform and the answered \`csrfToken\` in \`${config.browserSession.csrfHeader}\`, else 403.`,
    },
    getBrowserSession: {
      method: 'GET',
      path: '/api/flash/session',
      auth: ['session'],
      summary: "The console's session: user, workspace, limits and CSRF token",
      responses: { 200: browserSessionBody, 401: errorBody },
      description: 'For a page that was reloaded: the CSRF token again, and when the session ends. A bearer session (not a browser one) is a 401.',
    },
    endSession: {
      method: 'DELETE',
      path: '/api/flash/session',
      auth: ['session'],
      setsCookie: true,
      summary: 'Sign out: revoke this session',
      responses: { 204: null },
      description:
        'Deletes the session server-side (the cookie or bearer token is refused from now on) and clears the cookie. Audited (`auth.logout`). A request from a page of another origin is a 403.',
    },
    listSessions: {
      method: 'GET',
      path: '/api/flash/sessions',
      auth: ['session'],
      summary: 'Your sessions: where you are signed in',
      responses: { 200: dataOf(z.array(sessionSchema)) },
      description:
        'The sessions of the signed-in user that still let them in, newest first (the 50 newest sign-ins are looked at): console sign-ins and bearer tokens, which one is this request, when each was last used and when it ends. Ended, signed-out and revoked sessions are not listed.',
    },
    revokeSession: {
      method: 'DELETE',
      path: '/api/flash/sessions/{id}',
      auth: ['session'],
      summary: 'End one of your sessions',
      params: z.object({ id: z.string().max(64) }),
      responses: { 204: null },
      description:
        "Ends one of the signed-in user's own sessions (a lost laptop, a forgotten script): its token is refused from the next request. Not one of theirs, or already ended: 404. Audited (`auth.session_ended`). Another person's sessions are an owner's to end (`DELETE /api/flash/team/members/{id}/sessions`).",
    },
    resetPassword: {
      method: 'POST',
      path: '/api/v2/auth/reset-password',
      auth: ['public'],
      throttle: 'credentialAttempts',
      summary: 'Set a new password with a reset token',
      body: resetPasswordBody,
      responses: { 204: null, 410: errorBody },
      description: 'Unknown token: 400. Used, expired or voided token (by a later reset, password change or e-mail change): 410. Signs out every session.',
    },
  },
});
