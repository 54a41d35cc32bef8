/**
 * Products, categories and brands as the table stores them. Plain declarations below the domain,
 * so the data layer can name them without importing it. Categories and brands are answered as
 * stored (less their version): the domain's answer schemas are checked against them at compile
 * time (`SameShape`), so these stay the one description of what is stored.
 */

export const PRODUCT_STATUSES = ['active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** What an import decides about a product: everything the merchant controls, normalised. */
export interface ProductContent {
  sku: string;
  name: string;
  description: string | null;
  /** Integer minor units of `currency`, or null (with currency null) when the product has no price. */
  priceMinor: number | null;
  currency: string | null;
  categoryIds: string[];
  brandId: string | null;
  imageUrl: string | null;
  url: string | null;
  attributes: Record<string, string | number | boolean>;
  status: ProductStatus;
}

/** A product as stored: its content plus id, search text, content hash, version and times. */
export interface ProductRecord extends ProductContent {
  id: string;
  workspaceId: string;
  /** Lower-cased sku, name and description, for the case-insensitive `q` filter. */
  searchText: string;
  /** Hash of the normalised content: an import whose content hashes the same writes nothing. */
  contentHash: string;
  /** Whole-item replaces are conditional on it (optimistic concurrency). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface CategoryRecord {
  id: string;
  key: string;
  name: string;
  parentKey: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface BrandRecord {
  id: string;
  key: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}
