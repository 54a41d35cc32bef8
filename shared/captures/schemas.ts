import * as z from 'zod';
import type { CaptureRecord } from './entities';
import { REFERRAL_OUTCOMES, referralCodeInput } from '../ambassador';
import type { SameShape } from '../platform/data/same-shape';
import { emailSchema } from '../auth';
import { freeFormMap, isoDateTime, storableNumber } from '../platform/validation/common';

/** Submissions of one identity from one source within this window are one capture. */
export const CAPTURE_DEDUPE_WINDOW_SECONDS = 600;
export const MAX_CAPTURE_ATTRIBUTES = 50;

export const phoneSchema = z
  .string()
  .regex(/^\+?[0-9 ()-]{5,32}$/, { message: 'a phone number, ideally E.164 (+4930...)' })
  .refine((p) => p.replace(/\D/g, '').length >= 5, { message: 'a phone number needs at least 5 digits' });

/** The phone as matched: digits only, with the leading + kept. */
export const normalisePhone = (phone: string): string => (phone.trim().startsWith('+') ? '+' : '') + phone.replace(/\D/g, '');

const attributeKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, { message: 'identifier of at most 64 characters' });
const attributeValue = z.union([z.string().max(1000), storableNumber, z.boolean()]);

export const CAPTURE_SOURCE = /^[a-z0-9][a-z0-9_.:-]{0,63}$/;

export const createCaptureBody = z
  .strictObject({
    email: emailSchema.optional(),
    phone: phoneSchema.optional(),
    firstName: z.string().trim().min(1).max(100).optional(),
    lastName: z.string().trim().min(1).max(100).optional(),
    source: z
      .string()
      .regex(CAPTURE_SOURCE, { message: 'a source key: a-z, 0-9 and _ . : -, at most 64 characters' })
      .describe('Where the lead came from: the form or widget, e.g. `footer_form` or `popup:summer`'),
    consents: z
      .strictObject({
        marketingEmail: z.boolean().optional(),
        marketingSms: z.boolean().optional(),
        terms: z.boolean().optional(),
      })
      .describe('What the person agreed to on the form; a flag left out was not asked'),
    attributes: freeFormMap(attributeKey, attributeValue, { max: MAX_CAPTURE_ATTRIBUTES, noun: 'attributes' })
      .optional()
      .describe("Further form fields; they become a new member's customAttributes"),
    referralCode: referralCodeInput.optional().describe("An ambassador's referral code: links a member this capture creates to the ambassador"),
  })
  .meta({ id: 'CreateCapture' })
  .refine((b) => Boolean(b.email || b.phone), { message: 'give email or phone (or both)', path: ['email'] });

export type CreateCaptureInput = z.infer<typeof createCaptureBody>;

export const captureSchema = z
  .object({
    id: z.string().describe('cap_...'),
    memberId: z.string(),
    memberOutcome: z.enum(['created', 'matched']).describe('created: a new member (emits member.created); matched: an existing member, left unchanged'),
    matchedBy: z.enum(['email', 'phone']).nullable().describe('How an existing member was found (null when created)'),
    duplicate: z.boolean().describe('True when this answers an earlier capture of the same identity and source within the dedupe window'),
    source: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    consents: z.object({ marketingEmail: z.boolean().nullable(), marketingSms: z.boolean().nullable(), terms: z.boolean().nullable() }),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    referral: z
      .object({
        code: z.string(),
        outcome: z
          .enum(REFERRAL_OUTCOMES)
          .describe('linked: the new member counts as referred; unknown_code: no such code; existing_member: only new members are referred'),
        referrerId: z.string().nullable(),
      })
      .nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Capture' });

export type Capture = z.infer<typeof captureSchema>;
// A capture is answered as stored, plus whether this request repeated an earlier one.
true satisfies SameShape<Omit<Capture, 'duplicate'>, Omit<CaptureRecord, 'workspaceId'>>;
