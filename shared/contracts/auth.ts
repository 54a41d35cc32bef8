import { z } from 'zod';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  profilePatchBody,
  registerBody,
  resetPasswordBody,
} from '../domain/auth/schemas';
import { ROLES } from '../domain/auth/types';
import { contract, dataOf, errorBody, isoDateTime } from './contract';

export const workspaceSchema = z.object({ id: z.string(), name: z.string(), createdAt: isoDateTime }).meta({ id: 'Workspace' });

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
const profile = dataOf(z.object({ user: userSchema, workspace: workspaceSchema, session: z.object({ expiresAt: isoDateTime }) }));

export const authContract = contract({
  'POST /api/v2/auth/register': { body: registerBody, responses: { 201: signedIn } },
  'POST /api/v2/auth/login': {
    body: loginBody,
    responses: { 200: signedIn, 401: errorBody },
    description: 'Wrong e-mail or password: 401 (one message for both). 5 failures for one e-mail in 15 minutes: 429 with Retry-After.',
  },
  'GET /api/v2/auth/profile': { responses: { 200: profile } },
  'PATCH /api/v2/auth/profile': { body: profilePatchBody, responses: { 200: profile } },
  'POST /api/v2/auth/change-password': { body: changePasswordBody, responses: { 204: null }, description: 'Signs out every other session of the user.' },
  'POST /api/v2/auth/forgot-password': {
    body: forgotPasswordBody,
    responses: { 202: dataOf(z.object({ message: z.string() })) },
    description: 'Always 202, whether the account exists or not. A single-use token valid for 1 hour is e-mailed to existing accounts.',
  },
  'POST /api/v2/auth/reset-password': {
    body: resetPasswordBody,
    responses: { 204: null, 410: errorBody },
    description: 'Unknown token: 400. Used or expired token: 410. Signs out every session.',
  },
});
