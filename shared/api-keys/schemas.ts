import * as z from 'zod';
import { PRESETS } from './scopes';
import { SCOPES } from '../platform/contract/scopes';

export const createApiKeyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).describe('What the key is for, e.g. Checkout integration'),
    preset: z.enum(Object.keys(PRESETS) as [keyof typeof PRESETS]).optional(),
    scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length).optional(),
  })
  .refine((b) => (b.preset === undefined) !== (b.scopes === undefined), {
    message: 'give exactly one of preset or scopes',
  });

export type CreateApiKeyInput = z.infer<typeof createApiKeyBody>;
