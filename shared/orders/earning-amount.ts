/**
 * The amount an order earns on, in integer minor units: pure arithmetic over what the order says of
 * its amounts and lines and what the program says earns (docs/program.md, "What an order earns on").
 */
import { type EarnBasis, type EarnExclusions, type EarnSnapshot, pointsFor } from '../program';

/** One order line in minor units: `amountMinor` is unitPrice x quantity - its own discount, absent when the line has no unitPrice. */
export interface OrderLine {
  sku?: string;
  category?: string;
  brand?: string;
  amountMinor?: number;
  discountMinor: number;
}

/** An order's amounts in minor units; the optional ones only when the order gave them. */
export interface OrderAmounts {
  totalMinor: number;
  subtotalMinor?: number;
  discountMinor?: number;
  taxMinor?: number;
  shippingMinor?: number;
  lines: readonly OrderLine[];
}

export interface EarnAmountRules {
  basis: EarnBasis;
  exclude: EarnExclusions;
}

/** The default: the whole total earns, every line earns (what an order earned before bases and exclusions). */
export const TOTAL_RULES: EarnAmountRules = { basis: 'total', exclude: { skus: [], categories: [], discountedLines: false } };

/** The basis and exclusions an order's earn snapshot keeps (absent: the default). */
export const earnAmountRules = (earn: EarnSnapshot): EarnAmountRules => ({ basis: earn.basis ?? 'total', exclude: earn.exclude ?? TOTAL_RULES.exclude });

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const priced = (l: OrderLine): l is OrderLine & { amountMinor: number } => l.amountMinor !== undefined;

/** Whether the program's exclusions take a line out of earning. */
export function isExcluded(line: OrderLine, exclude: EarnExclusions): boolean {
  return (
    (line.sku !== undefined && exclude.skus.includes(line.sku)) ||
    (line.category !== undefined && exclude.categories.includes(line.category)) ||
    (exclude.discountedLines && line.discountMinor > 0)
  );
}

/** The order's subtotal: as given, else the sum of its lines when every line is priced; undefined when neither is known. */
export function subtotalOf(a: OrderAmounts): number | undefined {
  if (a.subtotalMinor !== undefined) return a.subtotalMinor;
  return a.lines.length > 0 && a.lines.every(priced) ? sum(a.lines.map((l) => l.amountMinor!)) : undefined;
}

/**
 * Lines' amount after their share of the order's discount: the discount is spread over the
 * subtotal in proportion (its share rounded down, in exact integers), so lines that make up the
 * whole subtotal carry the whole discount. Without a known subtotal, the amount as it is.
 */
export function afterOrderDiscount(amountMinor: number, a: OrderAmounts): number {
  const discount = a.discountMinor ?? 0;
  const subtotal = subtotalOf(a);
  if (discount <= 0 || subtotal === undefined || subtotal <= 0) return amountMinor;
  return amountMinor - Number((BigInt(discount) * BigInt(amountMinor)) / BigInt(subtotal));
}

/**
 * What the basis earns on before exclusions. total: the total as sent. net: subtotal - discount
 * (no tax, no shipping); without a subtotal (given or from priced lines), total - tax - shipping.
 */
export function basisAmount(a: OrderAmounts, basis: EarnBasis): number {
  if (basis === 'total') return a.totalMinor;
  const subtotal = subtotalOf(a);
  if (subtotal !== undefined) return subtotal - (a.discountMinor ?? 0);
  return a.totalMinor - (a.taxMinor ?? 0) - (a.shippingMinor ?? 0);
}

/** The excluded lines' amount (each must be priced: the order's validation insists). */
export function excludedAmount(a: OrderAmounts, exclude: EarnExclusions): number {
  const excluded = a.lines.filter((l) => priced(l) && isExcluded(l, exclude));
  return excluded.length ? afterOrderDiscount(sum(excluded.map((l) => l.amountMinor!)), a) : 0;
}

/** The amount the order earns on: its basis less its excluded lines, never below zero. */
export function earningAmount(a: OrderAmounts, rules: EarnAmountRules): number {
  return Math.max(0, basisAmount(a, rules.basis) - excludedAmount(a, rules.exclude));
}

/**
 * The earning amount of the lines `matches` picks (a category, brand or SKU campaign's lines):
 * the matching lines that earn, after their share of the order's discount, never more than the
 * order earns on. Undefined when a matching line has no price (its amount is unknown): the caller
 * then falls back to the whole order.
 */
export function matchingAmount(a: OrderAmounts, rules: EarnAmountRules, matches: (line: OrderLine) => boolean): number | undefined {
  const matching = a.lines.filter(matches);
  if (!matching.every(priced)) return undefined;
  const earning = matching.filter((l) => !isExcluded(l, rules.exclude));
  const amount = earning.length ? afterOrderDiscount(sum(earning.map((l) => l.amountMinor!)), a) : 0;
  return Math.min(amount, earningAmount(a, rules));
}

/**
 * What an order offers its campaigns (and a simulation of it): the points the lines a predicate
 * picks earn under the order's rule; undefined when a picked line has no price.
 */
export function linePointsOf(a: OrderAmounts, currency: string, earn: EarnSnapshot): (matches: (line: OrderLine) => boolean) => number | undefined {
  const rules = earnAmountRules(earn);
  return (matches) => {
    const amount = matchingAmount(a, rules, matches);
    return amount === undefined ? undefined : pointsFor(amount, currency, earn);
  };
}
