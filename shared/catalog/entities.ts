/**
 * Products, categories and brands as the table stores them, declared once below the domain.
 * Categories and brands are answered as stored (less their version): the API's schemas derive from
 * these.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const PRODUCT_STATUSES = ['active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** What an import decides about a product: everything the merchant controls, normalised. */
const productContentFields = () => ({
  sku: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Integer minor units of `currency`, or null (with currency null) when the product has no price. */
  priceMinor: z.number().nullable(),
  currency: z.string().nullable(),
  categoryIds: z.array(z.string()),
  brandId: z.string().nullable(),
  imageUrl: z.string().nullable(),
  url: z.string().nullable(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  status: z.enum(PRODUCT_STATUSES),
});
export type ProductContent = z.infer<z.ZodObject<ReturnType<typeof productContentFields>>>;

/** A product as stored: its content plus id, search text, content hash, version and times. */
export const productRecordSchema = () =>
  z.object({
    ...productContentFields(),
    id: z.string(),
    workspaceId: z.string(),
    /** Lower-cased sku, name and description, for the case-insensitive `q` filter. */
    searchText: z.string(),
    /** Hash of the normalised content: an import whose content hashes the same writes nothing. */
    contentHash: z.string(),
    /** Whole-item replaces are conditional on it (optimistic concurrency). */
    version: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  });
export type ProductRecord = z.infer<ReturnType<typeof productRecordSchema>>;

/** A product: gsi1 always, gsi3 only with a brand (a sparse per-brand index). */
export const productEntity = /* @__PURE__ */ defineEntity({
  name: 'product',
  keys: (p: ProductRecord) => ({ workspaceId: p.workspaceId, productId: p.id, brandId: p.brandId ?? '' }),
  when: { gsi3: (p) => Boolean(p.brandId) },
});

/** The product's entry in one of its categories: a copy of the product, indexed by category. */
export const productCategoryEntity = /* @__PURE__ */ defineEntity({
  name: 'productCategory',
  keys: (p: ProductRecord, c: { categoryId: string }) => ({ workspaceId: p.workspaceId, productId: p.id, categoryId: c.categoryId }),
  beside: { categoryId: (_, c) => c.categoryId },
});

const named = () => ({ id: z.string(), key: z.string(), name: z.string() });
const times = () => ({ createdAt: z.string(), updatedAt: z.string(), version: z.number() });
/** Where a category or brand lives: its workspace's partition (the record does not name it). */
type InWorkspace = { workspaceId: string };

export const categoryRecordSchema = () => z.object({ ...named(), parentKey: z.string().nullable(), ...times() });
export type CategoryRecord = z.infer<ReturnType<typeof categoryRecordSchema>>;

export const categoryEntity = /* @__PURE__ */ defineEntity({
  name: 'catalogCategory',
  keys: (c: CategoryRecord, { workspaceId }: InWorkspace) => ({ workspaceId, key: c.key }),
  beside: { workspaceId: (_, c) => c.workspaceId },
});

export const brandRecordSchema = () => z.object({ ...named(), ...times() });
export type BrandRecord = z.infer<ReturnType<typeof brandRecordSchema>>;

export const brandEntity = /* @__PURE__ */ defineEntity({
  name: 'catalogBrand',
  keys: (b: BrandRecord, { workspaceId }: InWorkspace) => ({ workspaceId, key: b.key }),
  beside: { workspaceId: (_, c) => c.workspaceId },
});
