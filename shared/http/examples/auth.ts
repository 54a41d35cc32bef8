import type { authArea } from '../../auth';
import type { AreaExamples } from './types';
import { at, user, workspace } from './world';
import { permissionsOf } from '../../platform/contract/permissions';

const session = { token: 'fl_sess_Zk3qP9xW2mR7tV4yB8nC1dF6gH0jK5lM3sQ2uA9eE7r', expiresAt: '2026-03-27T10:00:00.000Z' };
const password = 'correct horse battery staple';
const permissions = permissionsOf(user.role);
const browserSession = {
  expiresAt: '2026-03-20T22:00:00.000Z',
  idleExpiresAt: '2026-03-20T10:30:00.000Z',
  csrfToken: 'q8Jm2Vx7sLk4Rz9Tn1Bw6Yc3Hd5Gf0Pa8Ue2Io4Ks7M',
  mfaEnrolmentRequired: false,
};
const challenge = {
  mfa: {
    challenge: 'fl_mfa_Vb4nT8qK2wP6xR0zL3mC7hF1dJ5sG9yA2eU6iO0kE4r',
    expiresAt: '2026-03-20T08:05:00.000Z',
    methods: ['totp', 'recovery_code'] as ('totp' | 'recovery_code')[],
  },
};
const mfaSecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export const authExamples: AreaExamples<typeof authArea> = {
  register: {
    summary: 'Open a workspace and sign in as its owner',
    request: { workspaceName: 'Northwind Coffee', email: user.email, password, name: 'Grace Hopper' },
    responses: { 201: { data: { workspace, user, session: { ...session, expiresAt: '2026-03-09T08:15:00.000Z' } } } },
  },
  login: {
    request: { email: user.email, password },
    responses: { 200: { data: { workspace, user, session } } },
  },
  getProfile: { responses: { 200: { data: { user, workspace, session: { expiresAt: session.expiresAt } } } } },
  updateProfile: {
    summary: 'Change the display name',
    request: { name: 'Rear Admiral Grace Hopper' },
    responses: {
      200: { data: { user: { ...user, name: 'Rear Admiral Grace Hopper', updatedAt: at.now }, workspace, session: { expiresAt: session.expiresAt } } },
    },
  },
  startBrowserSession: {
    summary: 'Sign in to the console: the token travels in the HttpOnly cookie, never in the body',
    request: { email: user.email, password },
    responses: { 200: { data: { workspace, user, permissions, session: browserSession } } },
  },
  getBrowserSession: { responses: { 200: { data: { workspace, user, permissions, session: browserSession } } } },
  endSession: { responses: {} },
  listSessions: {
    summary: 'Signed in on a laptop (this request) and with a script’s token',
    responses: {
      200: {
        data: [
          {
            id: 'ses_3f9a0c6d2e8b4a1f7c5d9e0b2a',
            kind: 'console',
            createdAt: '2026-03-20T08:00:00.000Z',
            lastSeenAt: '2026-03-20T09:41:00.000Z',
            expiresAt: '2026-03-20T10:11:00.000Z',
            current: true,
          },
          {
            id: 'ses_8b1e4d7a0c3f6b9e2d5a8c1f4e',
            kind: 'api',
            createdAt: '2026-03-18T16:30:00.000Z',
            lastSeenAt: null,
            expiresAt: '2026-04-17T16:30:00.000Z',
            current: false,
          },
        ],
      },
    },
  },
  revokeSession: { params: { id: 'ses_8b1e4d7a0c3f6b9e2d5a8c1f4e' }, responses: {} },
  changePassword: { request: { currentPassword: password, newPassword: 'a longer passphrase 2026' }, responses: {} },
  forgotPassword: {
    request: { email: user.email },
    responses: { 202: { data: { message: 'If an account exists for this e-mail, a reset link is on its way' } } },
  },
  completeMfaLogin: {
    summary: 'The code of the authenticator app after the password',
    request: { challenge: challenge.mfa.challenge, code: '492 039' },
    responses: { 200: { data: { workspace, user, session } } },
  },
  completeMfaBrowserSession: {
    summary: 'A recovery code instead, the phone being lost',
    request: { challenge: challenge.mfa.challenge, recoveryCode: 'k7m2p-x9q4t' },
    responses: { 200: { data: { workspace, user, permissions, session: browserSession } } },
  },
  getMfa: { responses: { 200: { data: { enabled: true, enabledAt: '2026-03-12T09:30:00.000Z', recoveryCodesLeft: 9, required: true } } } },
  startMfaEnrolment: {
    responses: {
      201: {
        data: {
          secret: mfaSecret,
          otpauthUri: `otpauth://totp/Loyalty%20platform:${encodeURIComponent(user.email)}?secret=${mfaSecret}&issuer=Loyalty%20platform`,
        },
      },
    },
  },
  confirmMfaEnrolment: {
    request: { code: '492039' },
    responses: {
      200: {
        data: {
          recoveryCodes: [
            'k7m2p-x9q4t',
            'c3vh8-rw2ny',
            'a9tk4-mz7pq',
            'e2xw6-hd3kv',
            'n8qr5-tb2ja',
            'p4yc7-gk9ms',
            'w6dz3-qh8tx',
            's2mv9-jc4re',
            'h7kt2-xa6pw',
            'z3nf8-vq5mb',
          ],
        },
      },
    },
  },
  disableMfa: { summary: 'With the password (the phone is not at hand)', request: { password }, responses: {} },
  resetPassword: { request: { token: 'fl_reset_Qm8vT2xR5kW9pZ3nB7cF1hJ4dL6sG0yA2eU8iO5wX1t', newPassword: 'a longer passphrase 2026' }, responses: {} },
};
