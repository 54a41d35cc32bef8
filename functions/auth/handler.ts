import { authArea } from '../../shared/contracts/auth';
import { mailerFromConfig } from '../../shared/adapters/mailer';
import * as auth from '../../shared/domain/auth/service';
import { defineArea } from '../../shared/http/area';
import { sessionOf } from '../../shared/http/principal';
import { accepted, created, noContent, ok } from '../../shared/http/responses';

export const handler = defineArea(authArea, {
  register: async ({ body }) => created(await auth.register(body)),
  login: async ({ body }) => ok(await auth.login(body)),
  getProfile: async ({ principal }) => ok(await auth.profile(sessionOf(principal))),
  updateProfile: async ({ body, principal }) => ok(await auth.updateProfile(sessionOf(principal), body)),
  changePassword: async ({ body, principal }) => {
    await auth.changePassword(sessionOf(principal), body);
    return noContent();
  },
  forgotPassword: async ({ body }) => {
    await auth.forgotPassword(body.email, mailerFromConfig());
    return accepted({ message: 'If an account exists for this e-mail, a reset token is on its way.' });
  },
  resetPassword: async ({ body }) => {
    await auth.resetPassword(body);
    return noContent();
  },
});
