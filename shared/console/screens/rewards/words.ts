import type { components } from '../../../client/schema';

export type Reward = components['schemas']['Reward'];
export type Benefit = components['schemas']['RewardBenefit'];

/** Digits after the point of a currency's minor unit (2 for EUR, 0 for JPY), as the browser knows it. */
export const minorDigits = (currency: string): number => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
};

/** An amount in minor units as people read it: `500, EUR` -> `€5.00` (in the reader's locale). */
export function moneyInWords(amount: number, currency: string): string {
  const major = amount / 10 ** minorDigits(currency);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(major);
  } catch {
    return `${major} ${currency}`;
  }
}

/** What a reward gives, in a sentence a member reads on its card. */
export function benefitInWords(b: Benefit): string {
  switch (b.type) {
    case 'fixed_discount':
      return `${moneyInWords(b.amount, b.currency)} off your order`;
    case 'percent_discount':
      return b.maxDiscount
        ? `${b.percent}% off your order, up to ${moneyInWords(b.maxDiscount.amount, b.maxDiscount.currency)}`
        : `${b.percent}% off your order`;
    case 'free_shipping':
      return 'Free shipping on your order';
    case 'free_product':
      return `A free ${b.sku}`;
  }
}

/** The benefit on the preview card: its words once what was typed makes one (a half-typed number shows `…`). */
export const cardBenefit = (b: Benefit): string => {
  const words = benefitInWords(b);
  return words.includes('NaN') ? '…' : words;
};

/** The kind of benefit, in words (the list's Type column). */
export const TYPE_NAMES: Readonly<Record<Benefit['type'], string>> = {
  fixed_discount: 'Amount off',
  percent_discount: 'Percent off',
  free_shipping: 'Free shipping',
  free_product: 'Free product',
};

export const pointsInWords = (points: number): string => `${points.toLocaleString()} ${points === 1 ? 'point' : 'points'}`;

/** What is left of the stock: `12 of 50 left`, `Unlimited`. */
export const stockInWords = (r: Pick<Reward, 'stock' | 'remaining'>): string =>
  r.stock === null || r.remaining === null ? 'Unlimited' : `${r.remaining.toLocaleString()} of ${r.stock.toLocaleString()} left`;

export const STATUS_NAMES: Readonly<Record<Reward['status'], string>> = {
  draft: 'Draft',
  active: 'Active',
  paused: 'Paused',
  archived: 'Archived',
};

/** The moves a reward's status offers from where it is (an archived reward stays archived). */
export function statusMoves(status: Reward['status']): { to: Reward['status']; verb: string }[] {
  if (status === 'archived') return [];
  const moves: { to: Reward['status']; verb: string }[] = [];
  if (status !== 'active') moves.push({ to: 'active', verb: 'Activate' });
  if (status === 'active') moves.push({ to: 'paused', verb: 'Pause' });
  moves.push({ to: 'archived', verb: 'Archive' });
  return moves;
}
