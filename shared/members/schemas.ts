import * as z from 'zod';
import { ledgerEntryRecordSchema, MEMBER_STATUSES } from './entities';
import { TIER_WINDOWS } from '../program';
import { filterValue, pageQueryShape } from '../platform/validation/pagination';
import { emailSchema } from '../auth';
import { freeFormMap, isoDateTime, rawItemKey, storableNumber } from '../platform/validation/common';

export const externalIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@#-]{0,127}$/, { message: 'letters, digits and . _ : @ # - (max 128)' })
  .describe("The member's id in your own system");

const attributeValue = z.union([z.string().max(1000), storableNumber, z.boolean(), z.null()]);
const attributeKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, { message: 'identifier of at most 64 characters' });
export const MAX_CUSTOM_ATTRIBUTES = 50;

const profileFields = {
  email: emailSchema.nullable().optional(),
  externalId: externalIdSchema.nullable().optional(),
  firstName: z.string().trim().min(1).max(100).nullable().optional(),
  lastName: z.string().trim().min(1).max(100).nullable().optional(),
  phone: z
    .string()
    .regex(/^\+?[0-9 ()-]{5,32}$/, { message: 'a phone number, ideally E.164 (+4930...)' })
    .nullable()
    .optional(),
  birthDate: z.iso.date().nullable().optional().describe('YYYY-MM-DD'),
  customAttributes: freeFormMap(attributeKey, attributeValue, { max: MAX_CUSTOM_ATTRIBUTES, noun: 'attributes' })
    .optional()
    .describe('Your own member fields. On PATCH keys merge one by one; a key sent as null is removed.'),
};

const identified = (b: { email?: string | null; externalId?: string | null }) => Boolean(b.email || b.externalId);

export const createMemberBody = z
  .strictObject(profileFields)
  .meta({ id: 'CreateMember' })
  .refine(identified, { message: 'give email or externalId (or both)', path: ['email'] });

export const updateMemberBody = z
  .strictObject({ ...profileFields, status: z.enum(MEMBER_STATUSES).optional().describe('unenrolled: leaves the program; wallet passes answer 410') })
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' });

export const MAX_BATCH = 500;
export const batchMembersBody = z.strictObject({
  members: z
    .array(z.record(rawItemKey, z.unknown()).describe('A CreateMember body; each is validated on its own and fails on its own'))
    .min(1)
    .max(MAX_BATCH)
    .describe('Matched by externalId first, then e-mail; created when neither matches'),
});

export const batchResultSchema = z.object({
  index: z.number().int(),
  outcome: z.enum(['created', 'updated', 'unchanged', 'failed']),
  memberId: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string(), details: z.array(z.unknown()).optional() }).nullable(),
});

export const pointsBalanceSchema = z.object({
  balance: z.number().int().describe('Spendable points; may be negative after a refund reversal of spent points'),
  pending: z
    .number()
    .int()
    .describe('Points not yet spendable: of pending orders (until the order completes) and of orders waiting out the program’s pendingDays'),
  lifetime: z.number().int().describe('Points ever earned, net of reversals; spending does not lower it'),
});

/** The balance explained: what is spendable, what waits, and what expires when (next dates first). */
export const pointsExplanationSchema = pointsBalanceSchema.extend({
  expiring: z
    .array(z.object({ points: z.number().int(), expiresAt: isoDateTime }))
    .describe('Points by the date they expire, next dates first (at most 10 dates); empty when nothing expires'),
});

/** A member's points as they stood at a moment, replayed from the ledger (`GET /api/v2/members/{id}/explain`). */
export const pointsAtSchema = z
  .object({
    at: isoDateTime.describe('The moment explained'),
    points: pointsBalanceSchema,
    lots: z
      .array(
        z.object({
          entryId: z.string().describe('ple_...: the ledger entry that earned the lot'),
          points: z.number().int().describe('Points of the lot not yet spent, expired or taken back'),
          earnedAt: isoDateTime,
          expiresAt: isoDateTime.nullable().describe('When the lot expires (its own date, or the member’s inactivity date if earlier); null: never'),
          orderId: z.string().nullable().describe('The order that earned the lot: its refund takes from it first'),
        }),
      )
      .describe('The open lots, in the order a spend takes from them (what expires first, first)'),
    waiting: z
      .array(z.object({ orderId: z.string(), points: z.number().int(), activatesAt: isoDateTime }))
      .describe('Points of orders waiting out the program’s pendingDays at that moment, and when each became (or becomes) spendable'),
    tier: z.object({
      key: z.string().describe('The tier the member held'),
      metric: z.enum(['lifetime_points', 'order_count']),
      window: z.enum(TIER_WINDOWS),
      value: z.number().int().describe('The metric in the window at that moment'),
      windowFrom: isoDateTime.nullable().describe('The first instant the window counted; null: a lifetime window'),
      reachedAt: isoDateTime,
      retainedUntil: isoDateTime.nullable().describe('The tier was kept at least until then; null: no retention'),
    }),
    ledger: z.object({
      replayed: z.number().int().describe('Ledger entries written up to the moment and replayed'),
      truncated: z
        .boolean()
        .describe('true: the member has more entries before the moment than one explanation replays; the figures are those after the last replayed entry'),
      lastEntryAt: isoDateTime.nullable().describe('When the last replayed entry was written; null: none'),
    }),
  })
  .meta({ id: 'PointsAtMoment' });

export type PointsAt = z.infer<typeof pointsAtSchema>;

export const explainQuery = z.strictObject({
  at: isoDateTime.optional().describe('The moment to explain; default: now (the program clock). Not after now'),
});

export const memberSchema = z
  .object({
    id: z.string().describe('mbr_...'),
    email: z.string().nullable(),
    externalId: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    phone: z.string().nullable(),
    birthDate: z.string().nullable(),
    status: z.enum(MEMBER_STATUSES),
    tier: z.string().describe('Key of the current tier'),
    points: pointsBalanceSchema,
    orderCount: z.number().int(),
    customAttributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    tags: z.array(z.string()),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Member' });

export type Member = z.infer<typeof memberSchema>;
export type CreateMemberInput = z.infer<typeof createMemberBody>;
export type UpdateMemberInput = z.infer<typeof updateMemberBody>;

export const listMembersQuery = z.strictObject({
  ...pageQueryShape,
  email: z.string().max(254).trim().toLowerCase().min(1, { message: 'must not be empty' }).optional().describe('Exact e-mail'),
  externalId: filterValue(128).optional().describe('Exact externalId'),
  tier: filterValue().optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
  tag: filterValue().optional(),
  q: z.string().trim().min(1).max(100).optional().describe('Free text: part of e-mail, name, phone or externalId (case-insensitive)'),
});

// What is answered is what is stored, less the member and its revision.
export const ledgerEntrySchema = ledgerEntryRecordSchema().omit({ memberId: true, rev: true }).extend({ createdAt: isoDateTime }).meta({ id: 'LedgerEntry' });

export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const reverseEntryBody = z.strictObject({
  reason: z.string().trim().min(1).max(500).describe('Shown in the ledger and the audit trail, e.g. Granted by mistake'),
});

export const changePointsBody = z
  .strictObject({
    type: z
      .enum(['earn', 'deduct', 'correction'])
      .describe(
        'earn adds points, deduct takes them away (a spend: lifetime points stay), correction takes back points that should not have been given (lifetime points and the tier metric lose them too)',
      ),
    amount: z.number().int().min(1).max(1e9).describe('Whole points, always positive; the type gives the direction'),
    reason: z.string().trim().min(1).max(500).describe('Shown in the ledger, e.g. Welcome bonus'),
    countTowardTier: z
      .boolean()
      .optional()
      .describe(
        'An earn only. false keeps the points out of lifetime points and the tier metric (a goodwill gesture that should not lift a tier); the ledger entry says `outsideTier`. Default true',
      ),
  })
  .superRefine((b, ctx) => {
    if (b.countTowardTier === false && b.type !== 'earn') {
      ctx.addIssue({ code: 'custom', path: ['countTowardTier'], message: 'only an earn can be kept out of the tier; a deduct or correction never lifts one' });
    }
  });

export const tierStatusSchema = z
  .object({
    current: z.object({ key: z.string(), name: z.string(), threshold: z.number() }),
    next: z.object({ key: z.string(), name: z.string(), threshold: z.number() }).nullable(),
    metric: z.enum(['lifetime_points', 'order_count']),
    window: z.enum(TIER_WINDOWS).describe('What counts toward the metric: lifetime, rolling_365_days or calendar_year (the program’s tier rules)'),
    value: z.number().int().describe('The member’s value of the metric in the window, now'),
    remaining: z.number().int().nullable().describe('How much of the metric is missing for the next tier'),
    progress: z.number().min(0).max(1).describe('0..1 from the current tier threshold to the next; 1 at the top tier'),
    retainedUntil: isoDateTime
      .nullable()
      .describe(
        'The current tier is kept at least until then without further activity: its retention end, or when the window metric falls below the tier if later. null: no end (the first tier, or a lifetime metric that reaches it)',
      ),
  })
  .meta({ id: 'TierStatus' });
