import * as z from 'zod';
import { isoDateTime, queryInteger } from '../platform/validation/common';
import { pageQueryShape } from '../platform/validation/pagination';

/** Generated codes: 8 characters without look-alikes (no 0/O, 1/I/L). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 8;
/** What a referral code may look like when it comes back in (case-insensitive). */
export const REFERRAL_CODE = /^[A-Z0-9]{4,32}$/;

/** Candidate rules (defaults; each overridable per request). */
export const DEFAULT_MIN_LIFETIME_POINTS = 500;
export const DEFAULT_MIN_ORDER_COUNT = 3;

export const referralCodeInput = z
  .string()
  .max(64)
  .trim()
  .toUpperCase()
  .pipe(z.string().regex(REFERRAL_CODE, { message: 'a referral code: 4-32 letters and digits' }))
  .describe("An ambassador's referral code (case-insensitive)");

export const referralCodeSchema = z
  .object({
    memberId: z.string().describe('The ambassador (mbr_...)'),
    code: z.string().describe('Unique in the workspace; the same for every later call'),
    issuedAt: isoDateTime,
    referredSignups: z.number().int().describe('Members who signed up with this code'),
  })
  .meta({ id: 'ReferralCode' });

export const candidatesQuery = z.strictObject({
  ...pageQueryShape,
  minLifetimePoints: queryInteger(z.number().int().min(0).max(1e9).default(DEFAULT_MIN_LIFETIME_POINTS)).describe(
    `Qualifies with at least this many lifetime points (default ${DEFAULT_MIN_LIFETIME_POINTS})`,
  ),
  minOrderCount: queryInteger(z.number().int().min(1).max(1e6).default(DEFAULT_MIN_ORDER_COUNT)).describe(
    `... or at least this many completed orders (default ${DEFAULT_MIN_ORDER_COUNT})`,
  ),
});

export const QUALIFIERS = ['lifetime_points', 'order_count'] as const;

export const candidateSchema = z
  .object({
    memberId: z.string(),
    email: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    tier: z.string(),
    lifetimePoints: z.number().int(),
    orderCount: z.number().int().describe('Completed orders'),
    qualifiesBy: z.array(z.enum(QUALIFIERS)).describe('The rules the member meets'),
    referralCode: z.string().nullable().describe('The code, once issued (the member is then already an ambassador)'),
    referredSignups: z.number().int(),
  })
  .meta({ id: 'AmbassadorCandidate' });

export const metricsSchema = z
  .object({
    codesIssued: z.number().int(),
    referredSignups: z.number().int().describe('Members created by a capture that carried a valid referral code'),
    referredRevenue: z
      .array(z.object({ currency: z.string(), amount: z.number(), orders: z.number().int() }))
      .describe('Completed orders of referred members, net of refunds, per currency'),
    referredRevenueComplete: z.boolean().describe('False when the workspace has more referred members than one answer sums up (the first 2,000 are counted)'),
  })
  .meta({ id: 'AmbassadorMetrics' });

export type ReferralCode = z.infer<typeof referralCodeSchema>;
export type Candidate = z.infer<typeof candidateSchema>;
export type AmbassadorMetrics = z.infer<typeof metricsSchema>;
