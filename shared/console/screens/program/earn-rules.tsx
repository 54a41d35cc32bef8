import type { components } from '../../../client/schema';
import { FieldError, NumberField } from '../../ui/fields';

type Earn = components['schemas']['Program']['earn'];
type Caps = Earn['caps'];

const CAPS: { key: keyof Caps; label: string }[] = [
  { key: 'baseDaily', label: "Most of an order's own points per member and day (empty: no cap)" },
  { key: 'baseMonthly', label: "Most of an order's own points per member and month" },
  { key: 'campaignDaily', label: 'Most campaign points on orders per member and day' },
  { key: 'campaignMonthly', label: 'Most campaign points on orders per member and month' },
];

const listOf = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

/** What an order earns on (basis, excluded items) and the earning caps: the rest of the program's `earn`. */
export function EarnRulesFields({ earn, onEarn, errors }: { earn: Earn; onEarn: (e: Earn) => void; errors: Record<string, string> }) {
  const exclude = (patch: Partial<Earn['exclude']>) => onEarn({ ...earn, exclude: { ...earn.exclude, ...patch } });
  return (
    <>
      <label>
        Orders earn on
        <select name="basis" value={earn.basis} onChange={(e) => onEarn({ ...earn, basis: e.currentTarget.value as Earn['basis'] })}>
          <option value="total">Their total, as sent</option>
          <option value="net">Their net amount: subtotal less discount, no tax or shipping</option>
        </select>
      </label>
      <label>
        Categories that earn nothing (comma-separated, e.g. gift-cards)
        <input
          name="excludeCategories"
          defaultValue={earn.exclude.categories.join(', ')}
          aria-describedby="err-exclude-categories"
          onChange={(e) => exclude({ categories: listOf(e.currentTarget.value) })}
        />
        <FieldError id="err-exclude-categories" message={errors['earn.exclude.categories']} />
      </label>
      <label>
        SKUs that earn nothing (comma-separated)
        <input
          name="excludeSkus"
          defaultValue={earn.exclude.skus.join(', ')}
          aria-describedby="err-exclude-skus"
          onChange={(e) => exclude({ skus: listOf(e.currentTarget.value) })}
        />
        <FieldError id="err-exclude-skus" message={errors['earn.exclude.skus']} />
      </label>
      <label>
        <input
          type="checkbox"
          name="excludeDiscountedLines"
          checked={earn.exclude.discountedLines}
          onChange={(e) => exclude({ discountedLines: e.currentTarget.checked })}
        />
        Items with a discount of their own earn nothing
      </label>
      {CAPS.map(({ key, label }) => (
        <NumberField
          key={key}
          label={label}
          name={key}
          min={1}
          step="1"
          value={earn.caps[key]}
          error={errors[`earn.caps.${key}`]}
          onValue={(n) => onEarn({ ...earn, caps: { ...earn.caps, [key]: Number.isNaN(n) ? null : n } })}
        />
      ))}
    </>
  );
}
