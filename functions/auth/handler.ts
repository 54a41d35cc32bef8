import { authContract } from '../../shared/contracts/auth';
import * as auth from '../../shared/domain/auth/service';
import { defineArea } from '../../shared/http/area';
import { sessionOf } from '../../shared/http/principal';
import { accepted, created, noContent, ok } from '../../shared/http/responses';

export const handler = defineArea('auth', authContract, {
  'POST /api/v2/auth/register': async ({ body }) => created(await auth.register(body)),
  'POST /api/v2/auth/login': async ({ body }) => ok(await auth.login(body)),
  'GET /api/v2/auth/profile': async ({ principal }) => ok(await auth.profile(sessionOf(principal))),
  'PATCH /api/v2/auth/profile': async ({ body, principal }) => ok(await auth.updateProfile(sessionOf(principal), body)),
  'POST /api/v2/auth/change-password': async ({ body, principal }) => {
    await auth.changePassword(sessionOf(principal), body);
    return noContent();
  },
  'POST /api/v2/auth/forgot-password': async ({ body }) => {
    await auth.forgotPassword(body.email);
    return accepted({ message: 'If an account exists for this e-mail, a reset token is on its way.' });
  },
  'POST /api/v2/auth/reset-password': async ({ body }) => {
    await auth.resetPassword(body);
    return noContent();
  },
});
