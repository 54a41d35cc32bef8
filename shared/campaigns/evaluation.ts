/**
 * Campaign evaluation: pure. A campaign is data (trigger, conditions, effect, limits); the same
 * evaluation grants rewards for real and answers a simulation, so the two never disagree.
 */
import { DAY_MS } from '../program';
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

/** What date.weekday holds: day names in lower case (a campaign's values are stored so, whatever case they were given in). */
export const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export const isWeekday = (v: string) => (DAY_NAMES as readonly string[]).includes(v.toLowerCase());

export type Scalar = string | number | boolean;

/** A condition as stored: date.weekday values in lower case (campaigns saved before that may hold any case). */
export function normalised<C extends { field: string; value: unknown }>(c: C): C {
  if (c.field !== 'date.weekday') return c;
  const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
  return { ...c, value: Array.isArray(c.value) ? c.value.map(lower) : lower(c.value) };
}

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
  /** When the trigger occurred (an order: its occurredAt): campaign dates and date.weekday read it. */
  at: number;
  /** The oldest `at` that still earns campaigns (recording time minus the program's backdating limit); absent: any. */
  notBefore?: number;
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

/** Whether a coupon campaign's pool can issue to the member now, as a grant would find it. */
export type PoolState = 'issuing' | 'empty' | 'unavailable';

/** What a campaign has granted so far (the limits count against it), and its pool's state. */
export interface CampaignUsage {
  memberGrants: number;
  totalPoints: number;
  /** A coupon campaign's pool; absent: assumed issuing. */
  pool?: PoolState;
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

/**
 * Why a campaign the trigger reached granted or not, in the order they are looked at: its status,
 * the order's age, its dates, its conditions, stacking, then its limits, budget and pool.
 */
export const OUTCOMES = [
  'granted',
  'not_live',
  'backdated',
  'outside_window',
  'condition_failed',
  'not_stackable',
  'member_limit',
  'budget_spent',
  'pool_empty',
  'pool_unavailable',
  'nothing_to_grant',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** One campaign as the evaluation saw it: granted (with what), or why not. */
export interface Verdict {
  campaignId: string;
  name: string;
  priority: number;
  stackable: boolean;
  outcome: Outcome;
  points: number;
  poolId: string | null;
  /** The grant's reason, or in words why it did not grant. */
  reason: string;
  /** The first condition that does not hold (`condition_failed` only). */
  condition: (Condition & { index: number }) | null;
}

const shown = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

/** Why a campaign cannot grant whatever its limits: status, the order's age, dates, conditions; null when it can. */
function ineligibility(c: CampaignRule, facts: CampaignFacts): Pick<Verdict, 'outcome' | 'reason' | 'condition'> | null {
  const no = (outcome: Outcome, reason: string, condition: Verdict['condition'] = null) => ({ outcome, reason: `${c.name}: ${reason}`, condition });
  if (c.status !== 'active') return no('not_live', `the campaign is ${c.status}`);
  if (facts.notBefore !== undefined && facts.at < facts.notBefore) return no('backdated', 'the order is older than the program lets campaigns grant');
  if (!isLive(c, facts.at))
    return no('outside_window', c.startsAt !== null && facts.at < c.startsAt ? 'not started at the order time' : 'ended before the order time');
  const index = c.conditions.findIndex((k) => !holds(k, facts));
  if (index < 0) return null;
  const k = c.conditions[index]!;
  return no('condition_failed', `${k.field} ${k.op} ${shown(k.value)} does not hold (${k.field}: ${shown(fieldValue(k.field, facts))})`, { ...k, index });
}

/** What a campaign that may grant grants, or why its limits, budget or pool leave nothing. */
function limited(c: CampaignRule, basePoints: number, usage: CampaignUsage): Pick<Verdict, 'outcome' | 'reason' | 'points'> {
  const no = (outcome: Outcome, reason: string) => ({ outcome, reason: `${c.name}: ${reason}`, points: 0 });
  if (c.limits.perMember !== null && usage.memberGrants >= c.limits.perMember)
    return no('member_limit', `the member has had its ${c.limits.perMember} grant(s) per member`);
  let points = pointsOf(c.effect, basePoints);
  if (c.limits.totalPoints !== null) points = Math.min(points, Math.max(0, c.limits.totalPoints - usage.totalPoints));
  if (c.effect.type === 'coupon') {
    if (usage.pool === 'empty') return no('pool_empty', `pool ${c.effect.poolId} has no stock left`);
    if (usage.pool === 'unavailable') return no('pool_unavailable', `pool ${c.effect.poolId} cannot issue to the member now`);
  } else if (points <= 0) {
    return c.limits.totalPoints !== null && pointsOf(c.effect, basePoints) > 0
      ? no('budget_spent', `its budget of ${c.limits.totalPoints} points is spent`)
      : no('nothing_to_grant', 'the effect gives no points on this order');
  }
  return { outcome: 'granted', reason: reasonOf(c, points), points };
}

/** Whether the campaign listens to this trigger (inactivity campaigns only to their own number of days). */
function matchesTrigger(c: CampaignRule, facts: CampaignFacts, inactiveDays: number | undefined): boolean {
  if (c.trigger.type !== facts.trigger) return false;
  return c.trigger.type !== 'inactivity' || (inactiveDays !== undefined && inactiveDays >= (c.trigger.days ?? 0));
}

/** The campaigns a trigger reaches, highest priority first (equal priorities: by id). */
function reached(campaigns: readonly CampaignRule[], facts: CampaignFacts, inactiveDays: number | undefined): CampaignRule[] {
  return campaigns.filter((c) => matchesTrigger(c, facts, inactiveDays)).sort((a, b) => b.priority - a.priority || (a.campaignId < b.campaignId ? -1 : 1));
}

/** The campaigns that may grant on these facts whatever their limits (what a grant reads the counts of). */
export function eligibleCampaigns(campaigns: readonly CampaignRule[], facts: CampaignFacts, inactiveDays?: number): CampaignRule[] {
  return reached(campaigns, facts, inactiveDays).filter((c) => ineligibility(c, facts) === null);
}

/**
 * Every campaign the trigger reaches, highest priority first, with what it grants or why not. A
 * non-stackable campaign applies alone: first to grant it ends the evaluation (the rest are
 * `not_stackable`), after stackable grants it is skipped.
 */
export function traceCampaigns(
  campaigns: readonly CampaignRule[],
  facts: CampaignFacts,
  basePoints: number,
  usage: (campaignId: string) => CampaignUsage,
  inactiveDays?: number,
): Verdict[] {
  let granted: string[] = [];
  let alone: string | null = null;
  return reached(campaigns, facts, inactiveDays).map((c): Verdict => {
    const poolId = c.effect.type === 'coupon' ? c.effect.poolId : null;
    const head = { campaignId: c.campaignId, name: c.name, priority: c.priority, stackable: c.stackable, poolId };
    const ineligible = ineligibility(c, facts);
    if (ineligible) return { ...head, ...ineligible, points: 0, poolId: null };
    const blocked =
      alone !== null ? `${alone} applies alone` : !c.stackable && granted.length > 0 ? `applies alone, and ${granted.join(', ')} granted first` : null;
    if (blocked) return { ...head, outcome: 'not_stackable', reason: `${c.name}: ${blocked}`, points: 0, poolId: null, condition: null };
    const result = limited(c, campaignBase(c.conditions, basePoints, facts.order?.linePoints), usage(c.campaignId));
    if (result.outcome !== 'granted') return { ...head, ...result, poolId: null, condition: null };
    granted = [...granted, c.name];
    if (!c.stackable) alone = c.name;
    return { ...head, ...result, condition: null };
  });
}

/** The grants of a trace, in its order. */
export const grantsOf = (verdicts: readonly Verdict[]): Grant[] =>
  verdicts.filter((v) => v.outcome === 'granted').map((v) => ({ campaignId: v.campaignId, points: v.points, poolId: v.poolId, reason: v.reason }));

/** The grants a trigger earns, highest priority first (`traceCampaigns`, granted only). */
export function evaluateCampaigns(
  campaigns: readonly CampaignRule[],
  facts: CampaignFacts,
  basePoints: number,
  usage: (campaignId: string) => CampaignUsage,
  inactiveDays?: number,
): Grant[] {
  return grantsOf(traceCampaigns(campaigns, facts, basePoints, usage, inactiveDays));
}

/** Whole days without activity at `now` (what an inactivity trigger compares with its `days`). */
export function inactiveDaysAt(lastActivityAt: number, now: number): number {
  return Math.floor((now - lastActivityAt) / DAY_MS);
}
