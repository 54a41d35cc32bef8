/**
 * The points a campaign's multiplier applies to. A campaign with item conditions (SKU, category,
 * brand) rewards the lines they pick, not the whole basket: "2x on shoes" doubles what the shoes
 * earn. Pure, and apart from the evaluation so the evaluation only asks it for a number.
 */

/** The item condition fields and the line field each reads. */
const ITEM_FIELDS: Record<string, 'sku' | 'category' | 'brand'> = {
  'order.items.sku': 'sku',
  'order.items.category': 'category',
  'order.items.brand': 'brand',
};

interface ItemLine {
  sku?: string;
  category?: string;
  brand?: string;
}

interface AnyCondition {
  field: string;
  op: string;
  value: unknown;
}

/** What an order offers: the points of the lines a predicate picks (undefined when a picked line has no price). */
export type LinePoints = (matches: (line: ItemLine) => boolean) => number | undefined;

/** Whether one item condition holds on one line: `contains` its value, or `in` the listed values. */
export function lineHolds(condition: AnyCondition, line: ItemLine): boolean {
  const key = ITEM_FIELDS[condition.field];
  if (key === undefined) return true;
  const actual = line[key];
  if (actual === undefined) return false;
  if (condition.op === 'contains') return actual === condition.value;
  return condition.op === 'in' && Array.isArray(condition.value) && condition.value.includes(actual);
}

/**
 * The base of a campaign's reward: the points of the lines that meet all its item conditions,
 * never more than the order's own points (a capped order has less to multiply); the order's points
 * when the campaign has no item condition, the order no line prices, or a matching line no price.
 */
export function campaignBase(conditions: readonly AnyCondition[], basePoints: number, linePoints: LinePoints | undefined): number {
  const itemConditions = conditions.filter((c) => c.field in ITEM_FIELDS);
  if (itemConditions.length === 0 || linePoints === undefined) return basePoints;
  const points = linePoints((line) => itemConditions.every((c) => lineHolds(c, line)));
  return points === undefined ? basePoints : Math.min(points, basePoints);
}
