import type { components, operations } from '../../../client/schema';

/**
 * What the Program screen's forms hold (text as typed) and the bodies they send: pure, so the
 * conversions are pinned by unit tests. A value that is not what the API takes is sent as it is
 * (a number that is not one as null) so the API refuses it by field, next to that field.
 */

type Program = components['schemas']['Program'];
type Expiry = Program['points']['expiry'];
export type Campaign = components['schemas']['Campaign'];
export type CampaignBody = operations['createCampaign']['requestBody']['content']['application/json'];
type Condition = NonNullable<CampaignBody['conditions']>[number];
export type ConditionField = Condition['field'];
export type ConditionOp = Condition['op'];
export type ConditionKind = 'number' | 'string' | 'boolean' | 'list';
type Scalar = string | number | boolean;

/** Warning days as typed ("30, 7"): a number each, in the order typed; what is not a whole number is NaN. */
export const parseDays = (text: string): number[] =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((d) => (/^\d+$/.test(d) ? Number(d) : Number.NaN));

/** A policy with days keeps the days of the previous one; 365 when it had none. */
export const expiryWith = (current: Expiry, policy: Expiry['policy']): Expiry =>
  policy === 'none' ? { policy } : { policy, days: 'days' in current ? current.days : 365 };

/** One value of a condition as typed, read as the field's kind compares it. */
const scalarOf = (kind: ConditionKind, text: string): Scalar => {
  const t = text.trim();
  if (kind === 'number') return t === '' ? Number.NaN : Number(t);
  if (kind === 'boolean' && (t === 'true' || t === 'false')) return t === 'true';
  return t;
};

/** A condition's value as typed: a comma-separated list for `in`, one value otherwise. */
export const conditionValue = (kind: ConditionKind, op: ConditionOp, text: string): Scalar | Scalar[] =>
  op === 'in'
    ? text
        .split(',')
        .filter((v) => v.trim() !== '')
        .map((v) => scalarOf(kind, v))
    : scalarOf(kind, text);

/** A stored condition value as the form shows it. */
export const valueText = (value: unknown): string => (Array.isArray(value) ? value.map(String).join(', ') : value === undefined ? '' : String(value));

/** The operator a condition keeps when its field changes: the same if the new field takes it, else the field's first. */
export const opFor = (allowed: readonly ConditionOp[], current: ConditionOp): ConditionOp => (allowed.includes(current) ? current : allowed[0]!);

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local input shows it, in the reader's time zone ('' for none). */
export function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's value as an instant (null for empty). */
export const instantOf = (local: string): string | null => (local ? new Date(local).toISOString() : null);

export interface ConditionRow {
  field: ConditionField;
  op: ConditionOp;
  value: string;
}

export interface CampaignForm {
  name: string;
  status: Campaign['status'];
  startsAt: string;
  endsAt: string;
  trigger: Campaign['trigger']['type'];
  triggerDays: number;
  conditions: ConditionRow[];
  effect: Campaign['effect']['type'];
  points: number;
  factor: number;
  poolId: string;
  perMember: number;
  totalPoints: number;
  priority: number;
  stackable: boolean;
}

export const NEW_CONDITION: ConditionRow = { field: 'order.total', op: 'gte', value: '' };

/** The form of a stored campaign, or of a new one (a draft order campaign of 50 bonus points). */
export function formOf(c?: Campaign): CampaignForm {
  const effect = c?.effect ?? { type: 'bonus_points', points: 50 };
  return {
    name: c?.name ?? '',
    status: c?.status ?? 'draft',
    startsAt: localInput(c?.startsAt ?? null),
    endsAt: localInput(c?.endsAt ?? null),
    trigger: c?.trigger.type ?? 'order',
    triggerDays: c?.trigger.days ?? 90,
    conditions: (c?.conditions ?? []).map((k) => ({ field: k.field as ConditionField, op: k.op, value: valueText(k.value) })),
    effect: effect.type,
    points: effect.type === 'bonus_points' ? effect.points : 50,
    factor: effect.type === 'multiplier' ? effect.factor : 2,
    poolId: effect.type === 'coupon' ? effect.poolId : '',
    perMember: c?.limits.perMember ?? Number.NaN,
    totalPoints: c?.limits.totalPoints ?? Number.NaN,
    priority: c?.priority ?? 0,
    stackable: c?.stackable ?? true,
  };
}

const effectOf = (f: CampaignForm): CampaignBody['effect'] =>
  f.effect === 'bonus_points'
    ? { type: f.effect, points: f.points }
    : f.effect === 'multiplier'
      ? { type: f.effect, factor: f.factor }
      : { type: f.effect, poolId: f.poolId };

/** An empty limit is no limit. */
const limit = (n: number): number | null => (Number.isNaN(n) ? null : n);

/** The body a form sends, whole (a PATCH is checked whole too); `kindOf` says how each field's values read. */
export function bodyOf(f: CampaignForm, kindOf: (field: ConditionField) => ConditionKind): CampaignBody {
  return {
    name: f.name,
    status: f.status,
    startsAt: instantOf(f.startsAt),
    endsAt: instantOf(f.endsAt),
    trigger: f.trigger === 'inactivity' ? { type: f.trigger, days: f.triggerDays } : { type: f.trigger },
    conditions: f.conditions.map((c) => ({ field: c.field, op: c.op, value: conditionValue(kindOf(c.field), c.op, c.value) })),
    effect: effectOf(f),
    limits: { perMember: limit(f.perMember), totalPoints: limit(f.totalPoints) },
    priority: f.priority,
    stackable: f.stackable,
  };
}

/** How the list says a campaign's effect. */
export const describeEffect = (e: Campaign['effect']): string =>
  e.type === 'bonus_points' ? `${e.points} bonus points` : e.type === 'multiplier' ? `points × ${e.factor}` : `a coupon of ${e.poolId}`;

/** When a trigger grants, as a sentence ends. */
const TRIGGER_WORDS: Record<Campaign['trigger']['type'], string> = {
  order: 'on orders',
  member_created: 'on joining',
  birthday: 'on the member’s birthday',
  tag_added: 'when a tag is added',
  inactivity: 'after inactivity',
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const values = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [String(v)]);
/** "a", "a or b", "a, b or c". */
const either = (list: string[]) => (list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : (list[0] ?? ''));
const COMPARED: Partial<Record<ConditionOp, string>> = { gte: 'at least', lte: 'at most', eq: 'exactly', neq: 'other than', in: 'one of' };

/** One condition in words; `tierName` names a tier by its key. */
export function describeCondition(c: { field: string; op: string; value: unknown }, tierName: (key: string) => string): string {
  const not = c.op === 'neq' ? 'not ' : '';
  const list = values(c.value);
  switch (c.field) {
    case 'member.tier':
      return `for ${not ? 'members not in ' : ''}${either(list.map(tierName))}${not ? '' : ' members'}`;
    case 'member.tags':
      return `for members tagged ${either(list)}`;
    case 'date.weekday':
      return `${not ? 'except ' : ''}on ${either(list.map(capital))}`;
    case 'order.total':
      return `with a total of ${COMPARED[c.op as ConditionOp] ?? c.op} ${list.join(', ')}`;
    case 'order.isFirst':
      return (c.value === true) === (c.op === 'eq') ? 'on a first order' : 'on a repeat order';
    case 'order.currency':
      return `${not ? 'not ' : ''}in ${either(list)}`;
    case 'order.storeId':
      return `${not ? 'not ' : ''}at store ${either(list)}`;
    case 'order.items.sku':
      return `with item ${either(list)}`;
    case 'order.items.category':
      return `with an item in ${either(list)}`;
    case 'order.items.brand':
      return `with an item of ${either(list)}`;
    default:
      return `where ${c.field} ${c.op} ${list.join(', ')}`;
  }
}

/** A campaign in one sentence: "2× points on orders on Saturday or Sunday for Gold members". */
export function campaignSentence(c: Pick<Campaign, 'trigger' | 'effect' | 'conditions'>, tierName: (key: string) => string): string {
  const effect = c.effect.type === 'multiplier' ? `${c.effect.factor}× points` : capital(describeEffect(c.effect));
  const when = c.trigger.type === 'inactivity' ? `after ${c.trigger.days} days without activity` : TRIGGER_WORDS[c.trigger.type];
  return [effect, when, ...(c.conditions ?? []).map((x) => describeCondition(x, tierName))].join(' ');
}

/** A new campaign's form from an existing one: everything but the name (marked a copy) and the status (a draft, so nothing grants before it is checked). */
export const copyForm = (c: Campaign): CampaignForm => ({ ...formOf(c), name: `Copy of ${c.name}`, status: 'draft' });
