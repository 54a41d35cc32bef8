import * as z from 'zod';
import { config } from '../platform/config';

/** E-mail as stored and looked up: trimmed, lower case. */
export const emailSchema = z
  .string()
  .max(254, { message: 'must be at most 254 characters' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'must be a valid e-mail address' }).max(254));

export const passwordSchema = z
  .string()
  .min(config.auth.minPasswordLength, { message: `must be at least ${config.auth.minPasswordLength} characters` })
  .max(256, { message: 'must be at most 256 characters' });

const nameSchema = z.string().trim().min(1).max(120);

export const registerBody = z.strictObject({
  workspaceName: z.string().trim().min(1).max(120).describe('Your company or brand, e.g. Northwind Coffee'),
  email: emailSchema.describe("The owner's e-mail: the login of the new workspace"),
  password: passwordSchema.describe(`The owner's password, ${config.auth.minPasswordLength}-256 characters`),
  name: nameSchema.optional(),
  sandbox: z
    .boolean()
    .optional()
    .describe(
      'A sandbox workspace (default false): its API keys start `fl_test_` and an admin can advance its program clock (`POST /api/flash/clock/advance`)',
    ),
});

/** Login takes any string as password: the policy applies when one is set, not when one is tried. */
export const loginBody = z.strictObject({
  email: emailSchema.describe('The e-mail you registered with'),
  password: z.string().min(1).max(256).describe('Your password'),
});

export const profilePatchBody = z
  .strictObject({ name: nameSchema.nullable().optional(), email: emailSchema.optional() })
  .refine((b) => b.name !== undefined || b.email !== undefined, { message: 'give at least one of name, email' });

export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1).max(256).describe('The password you signed in with'),
  newPassword: passwordSchema.describe(`${config.auth.minPasswordLength}-256 characters`),
});

export const forgotPasswordBody = z.strictObject({ email: emailSchema.describe('The e-mail of the account; the answer is the same whether it exists or not') });

export const resetPasswordBody = z.strictObject({
  token: z.string().min(1).max(200).describe('The fl_reset_... token of the reset e-mail'),
  newPassword: passwordSchema.describe(`${config.auth.minPasswordLength}-256 characters`),
});

const totpCode = z.string().trim().min(6).max(12).describe('The 6 digits your authenticator app shows now (spaces allowed)');
const recoveryCode = z.string().trim().min(10).max(20).describe('One of your unused recovery codes, `xxxxx-xxxxx`');

/** The second step of a sign-in with two-factor: the challenge and either a current code or a recovery code. */
export const mfaSignInBody = z
  .strictObject({
    challenge: z.string().min(1).max(200).describe('The `mfa.challenge` the password step answered (fl_mfa_..., valid 5 minutes)'),
    code: totpCode.optional(),
    recoveryCode: recoveryCode.optional(),
  })
  .refine((b) => (b.code === undefined) !== (b.recoveryCode === undefined), { message: 'give exactly one of code, recoveryCode' });

export const mfaConfirmBody = z.strictObject({ code: totpCode });

export const mfaDisableBody = z
  .strictObject({ code: totpCode.optional(), password: z.string().min(1).max(256).optional().describe('Your password') })
  .refine((b) => (b.code === undefined) !== (b.password === undefined), { message: 'give exactly one of code, password' });
