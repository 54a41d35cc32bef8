/**
 * Campaign evaluation: pure. A campaign is data (trigger, conditions, effect, limits); the same
 * evaluation grants rewards for real and answers a simulation, so the two never disagree.
 */
import { DAY_MS } from '../program/calendar';
import { campaignBase, type LinePoints } from './line-base';

export const CAMPAIGN_TRIGGERS = ['order', 'member_created', 'birthday', 'tag_added', 'inactivity'] as const;
export type CampaignTrigger = (typeof CAMPAIGN_TRIGGERS)[number];

export const CAMPAIGN_STATUSES = ['draft', 'active', 'paused', 'ended'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Each field with the kind of value it holds; list fields hold one value per item or tag. */
export const CONDITION_FIELDS = {
  'order.total': 'number',
  'order.currency': 'string',
  'order.storeId': 'string',
  'order.items.sku': 'list',
  'order.items.category': 'list',
  'order.items.brand': 'list',
  'order.isFirst': 'boolean',
  'member.tier': 'string',
  'member.tags': 'list',
  'date.weekday': 'string',
} as const;
export type ConditionField = keyof typeof CONDITION_FIELDS;

export const CONDITION_OPS = ['eq', 'neq', 'gte', 'lte', 'in', 'contains'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** Which operators make sense for which kind of field (anything else is refused when saved). */
export const OPS_BY_KIND: Record<(typeof CONDITION_FIELDS)[ConditionField], readonly ConditionOp[]> = {
  number: ['eq', 'neq', 'gte', 'lte', 'in'],
  string: ['eq', 'neq', 'in'],
  boolean: ['eq', 'neq'],
  list: ['contains', 'in'],
};

export type Scalar = string | number | boolean;

export interface Condition {
  field: ConditionField;
  op: ConditionOp;
  value: Scalar | Scalar[];
}

export type CampaignEffect = { type: 'bonus_points'; points: number } | { type: 'multiplier'; factor: number } | { type: 'coupon'; poolId: string };

export interface CampaignRule {
  campaignId: string;
  name: string;
  status: CampaignStatus;
  startsAt: number | null;
  endsAt: number | null;
  trigger: { type: CampaignTrigger; days?: number };
  conditions: Condition[];
  effect: CampaignEffect;
  limits: { perMember: number | null; totalPoints: number | null };
  priority: number;
  stackable: boolean;
}

export interface CampaignFacts {
  trigger: CampaignTrigger;
  at: number;
  timeZone: string;
  member: { tier: string; tags: readonly string[] };
  order?: {
    /** major units */
    total: number;
    currency: string;
    storeId: string | null;
    items: readonly { sku?: string; category?: string; brand?: string }[];
    isFirst: boolean;
    /** The points of the lines a campaign's item conditions pick (a real order with priced items); absent: the whole order's. */
    linePoints?: LinePoints;
  };
}

/** What a campaign has granted so far (the limits count against it). */
export interface CampaignUsage {
  memberGrants: number;
  totalPoints: number;
}

export interface Grant {
  campaignId: string;
  points: number;
  poolId: string | null;
  reason: string;
}

function weekday(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(new Date(at)).toLowerCase();
}

/** The value(s) a field has in the facts; undefined when the trigger has none (no order, say). */
export function fieldValue(field: ConditionField, facts: CampaignFacts): Scalar | readonly Scalar[] | undefined {
  const o = facts.order;
  switch (field) {
    case 'order.total':
      return o?.total;
    case 'order.currency':
      return o?.currency;
    case 'order.storeId':
      return o?.storeId ?? undefined;
    case 'order.items.sku':
    case 'order.items.category':
    case 'order.items.brand': {
      const key = field.slice('order.items.'.length) as 'sku' | 'category' | 'brand';
      return o?.items.flatMap((i) => (i[key] === undefined ? [] : [i[key]!]));
    }
    case 'order.isFirst':
      return o?.isFirst;
    case 'member.tier':
      return facts.member.tier;
    case 'member.tags':
      return facts.member.tags;
    case 'date.weekday':
      return weekday(facts.at, facts.timeZone);
  }
}

/** Whether one condition holds. A field the facts lack (an order field on a birthday) never holds. */
export function holds(condition: Condition, facts: CampaignFacts): boolean {
  const actual = fieldValue(condition.field, facts);
  if (actual === undefined) return false;
  const { op, value } = condition;
  const listed = Array.isArray(value) ? value : [value];
  if (Array.isArray(actual)) {
    // A list field: `contains` one value, or `in`: shares at least one value with the list.
    return op === 'contains' ? actual.includes(value as Scalar) : op === 'in' && actual.some((a) => listed.includes(a));
  }
  switch (op) {
    case 'eq':
      return actual === value;
    case 'neq':
      return actual !== value;
    case 'gte':
      return typeof actual === 'number' && typeof value === 'number' && actual >= value;
    case 'lte':
      return typeof actual === 'number' && typeof value === 'number' && actual <= value;
    case 'in':
      return listed.includes(actual as Scalar);
    default:
      return false;
  }
}

/** Whether a campaign runs at `at`: active, and inside its dates (start inclusive, end exclusive). */
export function isLive(c: CampaignRule, at: number): boolean {
  return c.status === 'active' && (c.startsAt === null || c.startsAt <= at) && (c.endsAt === null || at < c.endsAt);
}

/** Extra points of a multiplier: base x factor - base, in hundredths so 1.1 x 10 is exactly 11. */
export function multiplierPoints(basePoints: number, factor: number): number {
  const hundredths = BigInt(Math.round(factor * 100));
  return Math.max(0, Number((BigInt(basePoints) * hundredths) / 100n) - basePoints);
}

function pointsOf(effect: CampaignEffect, basePoints: number): number {
  if (effect.type === 'bonus_points') return effect.points;
  if (effect.type === 'multiplier') return multiplierPoints(basePoints, effect.factor);
  return 0;
}

function reasonOf(c: CampaignRule, points: number): string {
  if (c.effect.type === 'coupon') return `${c.name}: a coupon from pool ${c.effect.poolId}`;
  if (c.effect.type === 'multiplier') return `${c.name}: ${c.effect.factor}x the order's points (+${points})`;
  return `${c.name}: ${points} bonus points`;
}

/** The grant of one campaign, or null when its limits leave nothing to grant. */
function grantOf(c: CampaignRule, basePoints: number, usage: CampaignUsage): Grant | null {
  if (c.limits.perMember !== null && usage.memberGrants >= c.limits.perMember) return null;
  let points = pointsOf(c.effect, basePoints);
  if (c.limits.totalPoints !== null) points = Math.min(points, Math.max(0, c.limits.totalPoints - usage.totalPoints));
  if (c.effect.type !== 'coupon' && points <= 0) return null;
  return { campaignId: c.campaignId, points, poolId: c.effect.type === 'coupon' ? c.effect.poolId : null, reason: reasonOf(c, points) };
}

/** Whether the campaign listens to this trigger (inactivity campaigns only to their own number of days). */
function matchesTrigger(c: CampaignRule, facts: CampaignFacts, inactiveDays: number | undefined): boolean {
  if (c.trigger.type !== facts.trigger) return false;
  return c.trigger.type !== 'inactivity' || (inactiveDays !== undefined && inactiveDays >= (c.trigger.days ?? 0));
}

/**
 * The grants a trigger earns, highest priority first. A non-stackable campaign applies alone: first
 * in line it ends the evaluation, after stackable grants it is skipped.
 */
export function evaluateCampaigns(
  campaigns: readonly CampaignRule[],
  facts: CampaignFacts,
  basePoints: number,
  usage: (campaignId: string) => CampaignUsage,
  inactiveDays?: number,
): Grant[] {
  const candidates = campaigns
    .filter((c) => isLive(c, facts.at) && matchesTrigger(c, facts, inactiveDays) && c.conditions.every((k) => holds(k, facts)))
    .sort((a, b) => b.priority - a.priority || (a.campaignId < b.campaignId ? -1 : 1));
  const grants: Grant[] = [];
  for (const c of candidates) {
    if (!c.stackable && grants.length > 0) continue;
    const grant = grantOf(c, campaignBase(c.conditions, basePoints, facts.order?.linePoints), usage(c.campaignId));
    if (!grant) continue;
    grants.push(grant);
    if (!c.stackable) break;
  }
  return grants;
}

/** Whole days without activity at `now` (what an inactivity trigger compares with its `days`). */
export function inactiveDaysAt(lastActivityAt: number, now: number): number {
  return Math.floor((now - lastActivityAt) / DAY_MS);
}
