import * as auth from '../../shared/domain/auth/service';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  profilePatchBody,
  registerBody,
  resetPasswordBody,
} from '../../shared/domain/auth/schemas';
import { defineArea } from '../../shared/http/area';
import { operation } from '../../shared/http/operation';
import { sessionOf } from '../../shared/http/principal';
import { accepted, created, noContent, ok } from '../../shared/http/responses';

export const handler = defineArea('auth', {
  'POST /api/v2/auth/register': operation({ body: registerBody }, async ({ body }) => created(await auth.register(body))),
  'POST /api/v2/auth/login': operation({ body: loginBody }, async ({ body }) => ok(await auth.login(body))),
  'GET /api/v2/auth/profile': operation({}, async ({ principal }) => ok(await auth.profile(sessionOf(principal)))),
  'PATCH /api/v2/auth/profile': operation({ body: profilePatchBody }, async ({ body, principal }) =>
    ok(await auth.updateProfile(sessionOf(principal), body)),
  ),
  'POST /api/v2/auth/change-password': operation({ body: changePasswordBody }, async ({ body, principal }) => {
    await auth.changePassword(sessionOf(principal), body);
    return noContent();
  }),
  'POST /api/v2/auth/forgot-password': operation({ body: forgotPasswordBody }, async ({ body }) => {
    await auth.forgotPassword(body.email);
    return accepted({ message: 'If an account exists for this e-mail, a reset token is on its way.' });
  }),
  'POST /api/v2/auth/reset-password': operation({ body: resetPasswordBody }, async ({ body }) => {
    await auth.resetPassword(body);
    return noContent();
  }),
});
