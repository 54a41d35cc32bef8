import { type Benefit, minorDigits, type Reward } from './words';

/** A reward as its form holds it: what was typed, as typed (amounts in major units, blanks for "none"). */
export interface RewardForm {
  name: string;
  description: string;
  imageUrl: string;
  pointsCost: string;
  type: Benefit['type'];
  amount: string;
  currency: string;
  percent: string;
  maxDiscount: string;
  sku: string;
  stock: string;
  perMemberLimit: string;
  status: Reward['status'];
}

const major = (minor: number, currency: string) => String(minor / 10 ** minorDigits(currency));

export function formOf(r: Reward | undefined): RewardForm {
  const b = r?.benefit;
  const currency = b?.type === 'fixed_discount' ? b.currency : b?.type === 'percent_discount' && b.maxDiscount ? b.maxDiscount.currency : 'EUR';
  return {
    name: r?.name ?? '',
    description: r?.description ?? '',
    imageUrl: r?.imageUrl ?? '',
    pointsCost: r ? String(r.pointsCost) : '',
    type: b?.type ?? 'fixed_discount',
    amount: b?.type === 'fixed_discount' ? major(b.amount, currency) : '',
    currency,
    percent: b?.type === 'percent_discount' ? String(b.percent) : '',
    maxDiscount: b?.type === 'percent_discount' && b.maxDiscount ? major(b.maxDiscount.amount, currency) : '',
    sku: b?.type === 'free_product' ? b.sku : '',
    stock: r?.stock == null ? '' : String(r.stock),
    perMemberLimit: r?.perMemberLimit == null ? '' : String(r.perMemberLimit),
    status: r?.status ?? 'draft',
  };
}

/** A typed number, or NaN (the API refuses it by name) when something that is not one was typed. */
const num = (s: string): number => (s.trim() === '' ? Number.NaN : Number(s));
const orNull = (s: string): number | null => (s.trim() === '' ? null : Number(s));
const minor = (s: string, currency: string): number => Math.round(num(s) * 10 ** minorDigits(currency));

/** The benefit the form describes (amounts back in minor units). */
export function benefitOf(f: RewardForm): Benefit {
  const currency = f.currency.trim().toUpperCase();
  switch (f.type) {
    case 'fixed_discount':
      return { type: 'fixed_discount', amount: minor(f.amount, currency), currency };
    case 'percent_discount':
      return {
        type: 'percent_discount',
        percent: num(f.percent),
        maxDiscount: f.maxDiscount.trim() ? { amount: minor(f.maxDiscount, currency), currency } : null,
      };
    case 'free_shipping':
      return { type: 'free_shipping' };
    case 'free_product':
      return { type: 'free_product', sku: f.sku };
  }
}

/** What the form sends: every field it shows (a blank stock is unlimited, a blank limit none). */
export const bodyOf = (f: RewardForm) => ({
  name: f.name,
  description: f.description.trim() || null,
  imageUrl: f.imageUrl.trim() || null,
  pointsCost: num(f.pointsCost),
  benefit: benefitOf(f),
  stock: orNull(f.stock),
  perMemberLimit: orNull(f.perMemberLimit),
});
