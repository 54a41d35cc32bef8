import type { ErrorDetail } from '../platform/errors';
import type { ImportBrandInput, ImportCategoryInput, ImportProductInput } from './schemas';

/**
 * Pure rules for the categories and brands an import defines along with its products:
 * - one definition per key and payload: the first item to define a key wins; a later item that
 *   defines it differently (another name or parent) fails and contributes nothing;
 * - a category's parent must exist already or be defined in the same import, and the tree must
 *   stay a tree (no category becomes its own ancestor).
 */

export interface Located<T> {
  def: T;
  /** Where the definition is in its item (`category`, `categories.2`, `brand`). */
  path: string;
}

export interface ItemDefinitions {
  index: number;
  categories: Located<ImportCategoryInput>[];
  brand: Located<ImportBrandInput> | null;
}

export function definitionsOf(index: number, input: ImportProductInput): ItemDefinitions {
  const categories = input.categories
    ? input.categories.map((def, i) => ({ def, path: `categories.${i}` }))
    : input.category
      ? [{ def: input.category, path: 'category' }]
      : [];
  return { index, categories, brand: input.brand ? { def: input.brand, path: 'brand' } : null };
}

const sameCategory = (a: ImportCategoryInput, b: ImportCategoryInput) => a.name === b.name && (a.parentKey ?? null) === (b.parentKey ?? null);
const sameBrand = (a: ImportBrandInput, b: ImportBrandInput) => a.name === b.name;

export interface CollectedDefinitions {
  categories: Map<string, ImportCategoryInput>;
  brands: Map<string, ImportBrandInput>;
  /** Items that disagree with an earlier item: index -> one detail per disagreeing definition. */
  failures: Map<number, ErrorDetail[]>;
}

/** First definition of each key wins; a differing later one fails its item (which then defines nothing). */
export function collectDefinitions(items: readonly ItemDefinitions[]): CollectedDefinitions {
  const categories = new Map<string, { def: ImportCategoryInput; index: number }>();
  const brands = new Map<string, { def: ImportBrandInput; index: number }>();
  const failures = new Map<number, ErrorDetail[]>();
  for (const item of items) {
    const details: ErrorDetail[] = [];
    for (const { def, path } of item.categories) {
      const first = categories.get(def.key);
      if (first && !sameCategory(first.def, def)) {
        details.push({ in: 'body', field: path, message: `category "${def.key}" is defined differently by item ${first.index} of this import` });
      }
    }
    const firstBrand = item.brand ? brands.get(item.brand.def.key) : undefined;
    if (item.brand && firstBrand && !sameBrand(firstBrand.def, item.brand.def)) {
      details.push({
        in: 'body',
        field: item.brand.path,
        message: `brand "${item.brand.def.key}" is defined differently by item ${firstBrand.index} of this import`,
      });
    }
    if (details.length) {
      failures.set(item.index, details);
      continue;
    }
    for (const { def } of item.categories) if (!categories.has(def.key)) categories.set(def.key, { def, index: item.index });
    if (item.brand && !brands.has(item.brand.def.key)) brands.set(item.brand.def.key, { def: item.brand.def, index: item.index });
  }
  return {
    categories: new Map([...categories].map(([k, v]) => [k, v.def])),
    brands: new Map([...brands].map(([k, v]) => [k, v.def])),
    failures,
  };
}

/** Keys whose parent an import must also know: parents that the import itself does not define. */
export const outsideParents = (defs: ReadonlyMap<string, ImportCategoryInput>): string[] => [
  ...new Set([...defs.values()].map((d) => d.parentKey).filter((p): p is string => typeof p === 'string' && !defs.has(p))),
];

/**
 * The definitions that would break the tree, with the reason: an unknown parent, a parent whose
 * own definition is invalid, or a cycle (through new or existing categories). `existingParents`
 * maps each stored category the import touches (or names as parent) to its stored parent.
 */
export function invalidCategoryDefinitions(
  defs: ReadonlyMap<string, ImportCategoryInput>,
  existingParents: ReadonlyMap<string, string | null>,
): Map<string, string> {
  const invalid = new Map<string, string>();
  const defined = (k: string) => defs.has(k) && !invalid.has(k);
  const parentOf = (k: string): string | null => (defined(k) ? (defs.get(k)!.parentKey ?? null) : (existingParents.get(k) ?? null));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, def] of defs) {
      if (invalid.has(key) || !def.parentKey) continue;
      const parent = def.parentKey;
      let reason: string | undefined;
      if (!defined(parent) && !existingParents.has(parent)) {
        reason = defs.has(parent)
          ? `the parent category "${parent}" is invalid in this import`
          : 'no category with this key exists or is defined in this import';
      } else {
        const seen = new Set([key]);
        for (let k: string | null = parent; k !== null; k = parentOf(k)) {
          if (seen.has(k)) {
            reason = 'would make the category tree circular';
            break;
          }
          seen.add(k);
        }
      }
      if (reason) {
        invalid.set(key, reason);
        changed = true;
      }
    }
  }
  return invalid;
}

/** The accepted definitions the surviving items need, with every ancestor among the definitions. */
export function neededCategories(defs: ReadonlyMap<string, ImportCategoryInput>, usedKeys: Iterable<string>): Set<string> {
  const needed = new Set<string>();
  for (const used of usedKeys) {
    for (let k: string | null | undefined = used; k && defs.has(k) && !needed.has(k); k = defs.get(k)!.parentKey) needed.add(k);
  }
  return needed;
}
