import { createHash } from 'node:crypto';
import { fromMinor, toMinor } from '../platform/money';
import type { BrandRecord, CategoryRecord, ProductContent, ProductRecord } from './entities';
import type { Brand, Category, ImportProductInput, Product } from './schemas';

const orNull = (s: string | null | undefined): string | null => (s === undefined || s === null || s === '' ? null : s);

/**
 * The content an import item asks for, with its categories and brand already resolved to ids.
 * An item is the whole state of the product: anything left out is cleared.
 */
export function productContent(input: ImportProductInput, categoryIds: string[], brandId: string | null): ProductContent {
  const price = input.price ?? null;
  return {
    sku: input.sku,
    name: input.name,
    description: orNull(input.description),
    priceMinor: price ? toMinor(price.amount, price.currency)! : null,
    currency: price ? price.currency : null,
    categoryIds,
    brandId,
    imageUrl: orNull(input.imageUrl),
    url: orNull(input.url),
    attributes: { ...(input.attributes ?? {}) },
    status: input.status ?? 'active',
  };
}

/** JSON with sorted object keys (arrays keep their order: category order is content). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .filter((k) => obj[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Versioned so that a future change of the normalisation is a deliberate, one-time "updated". */
const HASH_VERSION = 'catalog-product-v1';

export function contentHash(content: ProductContent): string {
  return createHash('sha256')
    .update(`${HASH_VERSION}\n${canonicalJson(content)}`, 'utf8')
    .digest('base64url');
}

export const productSearchText = (c: Pick<ProductContent, 'sku' | 'name' | 'description'>): string =>
  [c.sku, c.name, c.description].filter(Boolean).join('\n').toLowerCase();

export function toProduct(r: ProductRecord): Product {
  return {
    id: r.id,
    sku: r.sku,
    name: r.name,
    description: r.description,
    price: r.priceMinor === null || r.currency === null ? null : { amount: fromMinor(r.priceMinor, r.currency), currency: r.currency },
    categoryIds: r.categoryIds,
    brandId: r.brandId,
    imageUrl: r.imageUrl,
    url: r.url,
    attributes: r.attributes,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export const toCategory = ({ version: _v, ...c }: CategoryRecord): Category => ({
  id: c.id,
  key: c.key,
  name: c.name,
  parentKey: c.parentKey,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

export const toBrand = ({ version: _v, ...b }: BrandRecord): Brand => ({ id: b.id, key: b.key, name: b.name, createdAt: b.createdAt, updatedAt: b.updatedAt });
