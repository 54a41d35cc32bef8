import * as z from 'zod';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  mfaConfirmBody,
  mfaDisableBody,
  mfaSignInBody,
  profilePatchBody,
  registerBody,
  resetPasswordBody,
} from './schemas';
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
const signedInSchema = z.object({ workspace: workspaceSchema, user: userSchema, session: issuedSession });
const signedIn = dataOf(signedInSchema);
const mfaChallengeSchema = z
  .object({
    mfa: z.object({
      challenge: z.string().describe('fl_mfa_...: send it with a code to the second step (no session yet)'),
      expiresAt: isoDateTime.describe('When the challenge ends (5 minutes after the password)'),
      methods: z.array(z.enum(['totp', 'recovery_code'])).describe('What the second step accepts: `code` (totp) or `recoveryCode`'),
    }),
  })
  .meta({ id: 'MfaChallenge' });
const mfaStatusSchema = z
  .object({
    enabled: z.boolean().describe('Two-factor sign-in is on: signing in asks for a code after the password'),
    enabledAt: isoDateTime.nullable(),
    recoveryCodesLeft: z.number().int().describe('Unused recovery codes (10 when turned on; each works once)'),
    required: z.boolean().describe('The workspace requires two-factor sign-in of every user'),
  })
  .meta({ id: 'MfaStatus' });
const MFA_SECOND_STEP =
  'A user with two-factor sign-in gets, after the right password, `{ mfa: { challenge, expiresAt, methods } }` instead (no session yet): send the challenge with a current code to ';
const browserSessionSchema = z
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
      mfaEnrolmentRequired: z
        .boolean()
        .describe(
          'The workspace requires two-factor sign-in and this user has none: until they enrol, every route but the enrolment answers 403 MFA_ENROLMENT_REQUIRED',
        ),
    }),
  })
  .meta({ id: 'BrowserSession' });
const browserSessionBody = dataOf(browserSessionSchema);
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
      responses: { 200: dataOf(z.union([signedInSchema, mfaChallengeSchema])), 401: errorBody },
      description:
        `${MFA_SECOND_STEP}\`POST /api/v2/auth/login/mfa\`. ` +
        'Wrong e-mail or password: 401 (one message for both). 5 failures for one e-mail in 15 minutes: 429 with Retry-After; parallel attempts count as they arrive, so no more than 5 passwords are ever checked in a window. A successful login resets the count.',
    },
    getProfile: {
      method: 'GET',
      path: '/api/v2/auth/profile',
      auth: ['session'],
      enrolment: true,
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
      responses: { 200: dataOf(z.union([browserSessionSchema, mfaChallengeSchema])), 401: errorBody },
      description:
        `${MFA_SECOND_STEP}\`POST /api/flash/session/mfa\`, which sets the cookie. ` +
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
      enrolment: true,
      summary: "The console's session: user, workspace, limits and CSRF token",
      responses: { 200: browserSessionBody, 401: errorBody },
      description: 'For a page that was reloaded: the CSRF token again, and when the session ends. A bearer session (not a browser one) is a 401.',
    },
    endSession: {
      method: 'DELETE',
      path: '/api/flash/session',
      auth: ['session'],
      enrolment: true,
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
    completeMfaLogin: {
      method: 'POST',
      path: '/api/v2/auth/login/mfa',
      auth: ['public'],
      throttle: 'credentialAttempts',
      summary: 'Second step of a sign-in with two-factor: a code for a session',
      body: mfaSignInBody,
      responses: { 200: signedIn, 401: errorBody },
      description:
        'The `challenge` of `POST /api/v2/auth/login` with a current code of the authenticator app (the one before or after is accepted too) or one unused recovery code. ' +
        'A code is accepted once: the same code again, or an older one, is refused; a recovery code works once, also when sent twice at the same moment. ' +
        'A wrong code is a 401 and counts with wrong passwords toward the 5 failures per e-mail in 15 minutes (then 429). An unknown, used or expired challenge (5 minutes) is a 401: sign in again.',
    },
    completeMfaBrowserSession: {
      method: 'POST',
      path: '/api/flash/session/mfa',
      auth: ['public'],
      setsCookie: true,
      throttle: 'credentialAttempts',
      summary: 'Second step of a console sign-in with two-factor: a code for the session cookie',
      body: mfaSignInBody,
      responses: { 200: browserSessionBody, 401: errorBody },
      description:
        'As `POST /api/v2/auth/login/mfa`, for the `challenge` of `POST /api/flash/session`: answers the console session and sets its cookie. A request from a page of another origin is a 403.',
    },
    getMfa: {
      method: 'GET',
      path: '/api/flash/mfa',
      auth: ['session'],
      enrolment: true,
      summary: 'Your two-factor sign-in: on or off, recovery codes left',
      responses: { 200: dataOf(mfaStatusSchema) },
    },
    startMfaEnrolment: {
      method: 'POST',
      path: '/api/flash/mfa/enrolment',
      auth: ['session'],
      enrolment: true,
      summary: 'Start enrolling an authenticator app',
      responses: {
        201: dataOf(
          z.object({
            secret: z.string().describe('The base32 secret, for typing into the app by hand; never answered again once confirmed'),
            otpauthUri: z.string().describe('otpauth://totp/... for a QR code the app scans'),
          }),
        ),
        409: errorBody,
      },
      description:
        'A new secret (replacing one not yet confirmed). Two-factor sign-in is on only once a code from the app is confirmed (`POST /api/flash/mfa/confirm`). Already on: 409 (turn it off first).',
    },
    confirmMfaEnrolment: {
      method: 'POST',
      path: '/api/flash/mfa/confirm',
      auth: ['session'],
      enrolment: true,
      summary: 'Confirm the authenticator app with a code: two-factor sign-in is on',
      body: mfaConfirmBody,
      responses: {
        200: dataOf(
          z.object({ recoveryCodes: z.array(z.string()).describe('10 one-time codes for when the app is lost: shown this once, stored only hashed') }),
        ),
        409: errorBody,
        422: errorBody,
      },
      description:
        'A wrong code: 422 (try the next one). No enrolment started, or already on: 409. Audited (`auth.mfa_enabled`). From the next sign-in on, the password is followed by a code.',
    },
    disableMfa: {
      method: 'POST',
      path: '/api/flash/mfa/disable',
      auth: ['session'],
      summary: 'Turn two-factor sign-in off',
      body: mfaDisableBody,
      responses: { 204: null, 409: errorBody, 422: errorBody },
      description:
        'Proved by a current code or the password (the session alone is not enough). The secret and the unused recovery codes are deleted. Not on: 409. Audited (`auth.mfa_disabled`). ' +
        'In a workspace that requires two-factor, the next sign-in may only enrol again.',
    },
  },
});
