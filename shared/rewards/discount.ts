/**
 * What a reward's benefit takes off a cart, in minor units of the cart's currency: pure, so the
 * arithmetic is read and pinned in one place (docs/rewards.md, "At checkout").
 */
import type { RewardTypeRecord } from './entities';

export interface CartLine {
  sku: string;
  category?: string;
  quantity: number;
  /** Minor units of the cart's currency. */
  unitPrice: number;
}

export interface Cart {
  currency: string;
  lines: readonly CartLine[];
  /** Minor units; absent: no shipping charged. */
  shipping?: number;
}

type Money = { amount: number; currency: string };

export type DiscountRefusal = { applies: false; reason: 'CURRENCY_MISMATCH' | 'MINIMUM_SPEND' | 'NO_MATCHING_LINE'; message: string };
export type Discount = { applies: true; discount: Money } | DiscountRefusal;

/** The cart's lines before any discount, shipping left out: what minimum spends and percents are of. */
export const subtotalOf = (cart: Pick<Cart, 'lines'>): number => cart.lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0);

/** `percent` % of `amount` minor units, rounded half up to a whole minor unit (integers only, no float drift). */
export const percentOf = (amount: number, percent: number): number => Math.floor((amount * percent + 50) / 100);

const mismatch = (what: string, currency: string, cart: string): DiscountRefusal => ({
  applies: false,
  reason: 'CURRENCY_MISMATCH',
  message: `The ${what} is in ${currency}, the cart in ${cart}`,
});

/** The first money of the terms in another currency than the cart's, as a refusal; null when all agree. */
function currencyRefusal(benefit: RewardTypeRecord, minimumSpend: Money | null, currency: string): DiscountRefusal | null {
  if (benefit.type === 'fixed_discount' && benefit.currency !== currency) return mismatch('discount', benefit.currency, currency);
  if (benefit.type === 'percent_discount' && benefit.maxDiscount && benefit.maxDiscount.currency !== currency) {
    return mismatch('maximum discount', benefit.maxDiscount.currency, currency);
  }
  if (minimumSpend && minimumSpend.currency !== currency) return mismatch('minimum spend', minimumSpend.currency, currency);
  return null;
}

/** What the benefit takes off, or null for a free product the cart does not hold. */
function amountOf(benefit: RewardTypeRecord, cart: Cart, subtotal: number): number | null {
  switch (benefit.type) {
    case 'fixed_discount':
      return Math.min(benefit.amount, subtotal);
    case 'percent_discount': {
      const off = percentOf(subtotal, benefit.percent);
      return benefit.maxDiscount ? Math.min(off, benefit.maxDiscount.amount) : off;
    }
    case 'free_shipping':
      return cart.shipping ?? 0;
    case 'free_product': {
      // One unit, at the lowest price the SKU has in the cart when it appears on several lines.
      const prices = cart.lines.filter((l) => l.sku === benefit.sku).map((l) => l.unitPrice);
      return prices.length ? Math.min(...prices) : null;
    }
  }
}

/**
 * The discount of a benefit on a cart: refused when money of the terms is in another currency, the
 * subtotal is under the minimum spend (one exactly at it applies), or a free product is not in the
 * cart. Fixed: its amount, at most the subtotal. Percent: of the subtotal, half up, at most
 * `maxDiscount`. Free shipping: the cart's shipping (0 without). Free product: one unit's price.
 */
export function discountFor(benefit: RewardTypeRecord, minimumSpend: Money | null, cart: Cart): Discount {
  const refusal = currencyRefusal(benefit, minimumSpend, cart.currency);
  if (refusal) return refusal;
  const subtotal = subtotalOf(cart);
  if (minimumSpend && subtotal < minimumSpend.amount) {
    return { applies: false, reason: 'MINIMUM_SPEND', message: `The cart's subtotal ${subtotal} is under the minimum spend of ${minimumSpend.amount}` };
  }
  const amount = amountOf(benefit, cart, subtotal);
  if (amount === null) return { applies: false, reason: 'NO_MATCHING_LINE', message: `The cart holds no ${(benefit as { sku: string }).sku}` };
  return { applies: true, discount: { amount, currency: cart.currency } };
}
