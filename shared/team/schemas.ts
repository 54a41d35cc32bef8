import * as z from 'zod';
import { ROLES } from '../platform/contract/roles';
import { emailSchema, passwordSchema } from '../auth';
import { config } from '../platform/config';

const role = z
  .enum(ROLES)
  .describe(
    'The built-in role: `owner`, `admin`, `marketer`, `support`, `analyst` or `developer` (what each may do: `x-permission` of each console route), or `member`, which may use no console route; only an owner may grant `owner`',
  );

export const inviteBody = z.strictObject({
  email: emailSchema.describe('Who is invited; the link is mailed to this address, which becomes their login'),
  role,
});

export const changeRoleBody = z.strictObject({ role });

export const acceptInvitationBody = z.strictObject({
  token: z.string().min(1).max(200).describe('The fl_inv_... token of the invitation link'),
  password: passwordSchema.describe(`The new user's password, ${config.auth.minPasswordLength}-256 characters`),
  name: z.string().trim().min(1).max(120).optional(),
});

export const previewInvitationBody = z.strictObject({
  token: z.string().min(1).max(200).describe('The fl_inv_... token of the invitation link'),
});

export type InviteInput = z.infer<typeof inviteBody>;
export type AcceptInvitationInput = z.infer<typeof acceptInvitationBody>;

export const teamSecurityBody = z.strictObject({ mfaRequired: z.boolean().describe('true: every user must sign in with a second factor') });
