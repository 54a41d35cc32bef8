import * as z from 'zod';
import { idSchema, isoDateTime } from '../platform/validation/common';
import { pageQueryShape } from '../platform/validation/pagination';
import {
  CAMPAIGN_STATUSES,
  CAMPAIGN_TRIGGERS,
  CONDITION_FIELDS,
  CONDITION_OPS,
  OPS_BY_KIND,
  OUTCOMES,
  isWeekday,
  DAY_NAMES,
  type ConditionField,
} from './evaluation';
import { createOrderBody } from '../orders';

export const MAX_CONDITIONS = 20;
export const MAX_CONDITION_VALUES = 100;

const scalar = z.union([z.string().min(1).max(100), z.number().min(-1e12).max(1e12), z.boolean()]);

/** The value type each kind of field compares with (a list field compares with its elements). */
const VALUE_TYPE = { number: 'number', string: 'string', boolean: 'boolean', list: 'string' } as const;

export const conditionSchema = z
  .strictObject({
    field: z.enum(Object.keys(CONDITION_FIELDS) as [ConditionField, ...ConditionField[]]).describe('What the condition reads'),
    op: z.enum(CONDITION_OPS).describe('eq, neq, gte, lte (numbers), in (one of a list), contains (a list field holds the value)'),
    value: z.union([scalar, z.array(scalar).min(1).max(MAX_CONDITION_VALUES)]).describe('A value, or a list of values for `in`'),
  })
  .superRefine((c, ctx) => {
    const kind = CONDITION_FIELDS[c.field];
    if (!OPS_BY_KIND[kind].includes(c.op)) {
      ctx.addIssue({ code: 'custom', path: ['op'], message: `${c.field} takes ${OPS_BY_KIND[kind].join(', ')}` });
      return;
    }
    if ((c.op === 'in') !== Array.isArray(c.value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: c.op === 'in' ? '`in` takes a list of values' : `\`${c.op}\` takes one value` });
      return;
    }
    const values = Array.isArray(c.value) ? c.value : [c.value];
    if (values.some((v) => typeof v !== VALUE_TYPE[kind])) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `${c.field} compares with a ${VALUE_TYPE[kind]}` });
      return;
    }
    const misspelt = c.field === 'date.weekday' ? values.find((v) => !isWeekday(String(v))) : undefined;
    if (misspelt !== undefined) ctx.addIssue({ code: 'custom', path: ['value'], message: `${misspelt} is not a day of the week (${DAY_NAMES.join(', ')})` });
  });

export const campaignEffectSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('bonus_points'), points: z.number().int().min(1).max(1_000_000).describe('Points granted, 1-1000000') }),
  z.strictObject({
    type: z.literal('multiplier'),
    factor: z
      .number()
      .gt(0)
      .max(100)
      .refine((f) => Number.isInteger(Math.round(f * 100)) && Math.abs(Math.round(f * 100) - f * 100) < 1e-9, { message: 'at most 2 decimals' })
      .describe("The order's base points are multiplied by this (above 0, at most 100, 2 decimals); the grant is what it adds"),
  }),
  z.strictObject({ type: z.literal('coupon'), poolId: idSchema.describe('A coupon from this pool (cpl_...)') }),
]);

export const campaignTriggerSchema = z
  .strictObject({
    type: z
      .enum(CAMPAIGN_TRIGGERS)
      .describe(
        'order, member_created, birthday (the birth date, a day in the program time zone), tag_added (where member.tags holds the tags just added) or inactivity (the win-back rule: days without an earn or spend)',
      ),
    days: z.number().int().min(1).max(3650).optional().describe('inactivity only: days without an earn or spend, 1-3650'),
  })
  .superRefine((t, ctx) => {
    if (t.type === 'inactivity' && t.days === undefined) ctx.addIssue({ code: 'custom', path: ['days'], message: 'an inactivity trigger needs days (1-3650)' });
    if (t.type !== 'inactivity' && t.days !== undefined) ctx.addIssue({ code: 'custom', path: ['days'], message: 'only an inactivity trigger takes days' });
  });

const campaignFields = {
  name: z.string().trim().min(1).max(100).describe('Shown in the console and in ledger reasons, 1-100 characters'),
  status: z.enum(CAMPAIGN_STATUSES).describe('draft, active, paused or ended (ended is final)'),
  startsAt: isoDateTime.nullable(),
  endsAt: isoDateTime.nullable(),
  trigger: campaignTriggerSchema.describe('What the campaign listens to'),
  conditions: z.array(conditionSchema).max(MAX_CONDITIONS).describe(`All must hold (0-${MAX_CONDITIONS})`),
  effect: campaignEffectSchema.describe('What a grant gives: bonus points, a multiplier of the order points, or a coupon'),
  limits: z.strictObject({
    perMember: z.number().int().min(1).max(1_000_000).nullable().default(null).describe('Grants per member; null: no limit'),
    totalPoints: z.number().int().min(1).max(1e12).nullable().default(null).describe('Points budget of the campaign; null: no limit'),
  }),
  priority: z.number().int().min(0).max(1000).describe('Higher goes first'),
  stackable: z.boolean().describe('false: applies alone (first in line it ends the evaluation)'),
};

const datesInOrder = (c: { startsAt?: string | null; endsAt?: string | null }) => !c.startsAt || !c.endsAt || Date.parse(c.startsAt) < Date.parse(c.endsAt);

export const createCampaignBody = z
  .strictObject({
    ...campaignFields,
    status: campaignFields.status.default('draft'),
    startsAt: campaignFields.startsAt.default(null),
    endsAt: campaignFields.endsAt.default(null),
    conditions: campaignFields.conditions.default([]),
    limits: campaignFields.limits.default({ perMember: null, totalPoints: null }),
    priority: campaignFields.priority.default(0),
    stackable: campaignFields.stackable.default(true),
  })
  .refine(datesInOrder, { path: ['endsAt'], message: 'must be after startsAt' });

export const updateCampaignBody = z
  .strictObject({ ...campaignFields, version: z.number().int().min(0).optional() })
  .partial()
  .refine(datesInOrder, { path: ['endsAt'], message: 'must be after startsAt' });

export type CreateCampaignInput = z.infer<typeof createCampaignBody>;

export type UpdateCampaignInput = z.infer<typeof updateCampaignBody>;

export const campaignSchema = z
  .object({
    id: z.string().describe('cmp_...'),
    name: z.string(),
    status: z.enum(CAMPAIGN_STATUSES),
    startsAt: isoDateTime.nullable(),
    endsAt: isoDateTime.nullable(),
    trigger: z.object({ type: z.enum(CAMPAIGN_TRIGGERS), days: z.number().int().optional() }),
    conditions: z.array(z.object({ field: z.string(), op: z.enum(CONDITION_OPS), value: z.unknown() })),
    effect: campaignEffectSchema.describe('What a grant gives: bonus points, a multiplier of the order points, or a coupon'),
    limits: z.object({ perMember: z.number().int().nullable(), totalPoints: z.number().int().nullable() }),
    priority: z.number().int(),
    stackable: z.boolean(),
    grants: z.number().int().describe('Rewards granted so far'),
    pointsGranted: z.number().int().describe('Points granted so far (what `limits.totalPoints` counts against)'),
    version: z.number().int().describe('Pass it back on PATCH to change only what you read'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Campaign' });

export type Campaign = z.infer<typeof campaignSchema>;

export const listCampaignsQuery = z.strictObject({
  ...pageQueryShape,
  status: z.enum(CAMPAIGN_STATUSES).optional().describe('Only campaigns in this status'),
});

/** An order item as POST /api/v2/orders takes it; a simulation may leave out the quantity. */
const orderItem = createOrderBody.shape.items.unwrap().element;
const simulatedItem = orderItem.extend({ quantity: orderItem.shape.quantity.optional() });

export const simulateCampaignsBody = z.strictObject({
  order: z
    .strictObject({
      ...createOrderBody.shape,
      externalOrderId: createOrderBody.shape.externalOrderId.optional(),
      memberId: createOrderBody.shape.memberId.describe('mbr_...: the member (or use `member` to look the member up, or the top-level memberId)'),
      status: createOrderBody.shape.status.optional().describe('Read and ignored: a simulation evaluates the order as completed'),
      items: z.array(simulatedItem).max(500).default([]),
      occurredAt: isoDateTime.optional().describe('When the order happens (default: now in program time); campaign dates and date.weekday read it'),
      isFirst: z.boolean().optional().describe("Without a member: whether it is the member's first order (default true)"),
    })
    .describe('The order to try, as POST /api/v2/orders takes it (externalOrderId, member and occurredAt optional)'),
  memberId: idSchema.optional().describe("mbr_...: the member's tier, tags, first order and grants so far count; without one, a new member at the first tier"),
});

export type SimulateCampaignsInput = z.infer<typeof simulateCampaignsBody>;

export const campaignVerdictSchema = z
  .object({
    campaignId: z.string(),
    name: z.string(),
    priority: z.number().int(),
    stackable: z.boolean(),
    granted: z.boolean(),
    outcome: z
      .enum(OUTCOMES)
      .describe(
        'granted, or why not: not_live (draft, paused, ended), backdated (the order is older than the program lets campaigns grant), outside_window (before startsAt or from endsAt), condition_failed, not_stackable, member_limit (limits.perMember reached), budget_spent (limits.totalPoints), pool_empty, pool_unavailable (switched off, out of its dates, or the member holds its per-member limit), nothing_to_grant',
      ),
    points: z.number().int().describe('Points granted (0 when not granted or a coupon)'),
    poolId: z.string().nullable().describe('The pool of the coupon granted'),
    reason: z.string().describe('The grant as the ledger names it, or in words why not'),
    condition: z
      .object({ index: z.number().int(), field: z.string(), op: z.enum(CONDITION_OPS), value: z.unknown() })
      .nullable()
      .describe('condition_failed: the first condition that does not hold'),
  })
  .meta({ id: 'CampaignVerdict' });

export const campaignSimulationSchema = z
  .object({
    basePoints: z.number().int().describe('What the earn rules give the order'),
    grants: z.array(z.object({ campaignId: z.string(), points: z.number().int(), poolId: z.string().nullable(), reason: z.string() })),
    totalPoints: z.number().int().describe('basePoints plus every grant'),
    memberId: z.string().nullable().describe('The member evaluated (null: a new member)'),
    occurredAt: isoDateTime.describe('The order time the campaigns were evaluated at'),
    campaigns: z.array(campaignVerdictSchema).describe('Every order campaign of the workspace, highest priority first, with what it granted or why not'),
  })
  .meta({ id: 'CampaignSimulation' });

export type CampaignSimulation = z.infer<typeof campaignSimulationSchema>;
