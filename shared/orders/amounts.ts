/**
 * An order's amounts as the API takes them (major units) turned into minor units and checked
 * together: every amount within its currency's decimals, line discounts within their lines, the
 * order discount within the subtotal, a given subtotal equal to the priced lines it sums, and an
 * excluded line priced. Every problem is one 422 detail naming its field.
 */
import { validationFailed, type ErrorDetail } from '../platform/errors';
import { currencyExponent, toMinor } from '../platform/money';
import { isExcluded, subtotalOf, type EarnAmountRules, type OrderAmounts, type OrderLine } from './earning-amount';

export interface AmountsInput {
  currency: string;
  total: number;
  subtotal?: number;
  discount?: number;
  tax?: number;
  shipping?: number;
  items?: readonly { sku?: string; category?: string; brand?: string; quantity: number; unitPrice?: number; discount?: number }[];
}

type Item = NonNullable<AmountsInput['items']>[number];

/** The largest line (unitPrice x quantity) in minor units: what one amount may be (1e12 major units). */
const maxLineMinor = (currency: string) => 1e12 * 10 ** currencyExponent(currency);

function lineOf(
  item: Item,
  i: number,
  currency: string,
  minor: (v: number | undefined, field: string) => number | undefined,
  at: (f: string, m: string) => void,
) {
  const unit = minor(item.unitPrice, `items.${i}.unitPrice`);
  const discount = minor(item.discount, `items.${i}.discount`) ?? 0;
  const gross = unit === undefined ? undefined : unit * item.quantity;
  if (gross !== undefined && gross > maxLineMinor(currency)) at(`items.${i}.quantity`, 'unitPrice x quantity is over 1e12');
  if (item.discount !== undefined && item.unitPrice === undefined) at(`items.${i}.discount`, 'needs the unitPrice of the item');
  if (gross !== undefined && discount > gross) at(`items.${i}.discount`, 'is more than unitPrice x quantity');
  const line: OrderLine = { discountMinor: discount };
  if (item.sku !== undefined) line.sku = item.sku;
  if (item.category !== undefined) line.category = item.category;
  if (item.brand !== undefined) line.brand = item.brand;
  if (gross !== undefined) line.amountMinor = Math.max(0, gross - discount);
  return line;
}

/** The order's amounts in minor units (422 with one detail per problem); `rules` name the lines that must be priced. */
export function orderAmounts(input: AmountsInput, rules: EarnAmountRules, prefix = ''): OrderAmounts {
  const details: ErrorDetail[] = [];
  const at = (field: string, message: string) => details.push({ in: 'body', field: `${prefix}${field}`, message });
  const minor = (value: number | undefined, field: string): number | undefined => {
    if (value === undefined) return undefined;
    const m = toMinor(value, input.currency);
    if (m === undefined) at(field, `has more decimals than ${input.currency} allows`);
    return m;
  };
  const amounts: OrderAmounts = {
    totalMinor: minor(input.total, 'total') ?? 0,
    lines: (input.items ?? []).map((item, i) => lineOf(item, i, input.currency, minor, at)),
  };
  for (const field of ['subtotal', 'discount', 'tax', 'shipping'] as const) {
    const m = minor(input[field], field);
    if (m !== undefined) amounts[`${field}Minor`] = m;
  }
  checkTogether(amounts, rules, at);
  if (details.length) throw validationFailed(details);
  return amounts;
}

function checkTogether(a: OrderAmounts, rules: EarnAmountRules, at: (field: string, message: string) => void): void {
  const fromLines = subtotalOf({ ...a, subtotalMinor: undefined });
  if (a.subtotalMinor !== undefined && fromLines !== undefined && fromLines !== a.subtotalMinor) {
    at('subtotal', `is not the sum of the items (unitPrice x quantity - discount): ${fromLines} minor units`);
  }
  const subtotal = subtotalOf(a);
  if (a.discountMinor !== undefined && subtotal !== undefined && a.discountMinor > subtotal) at('discount', 'is more than the subtotal');
  a.lines.forEach((l, i) => {
    if (l.amountMinor === undefined && isExcluded(l, rules.exclude)) at(`items.${i}.unitPrice`, 'is required: the program excludes this item from earning');
  });
}
