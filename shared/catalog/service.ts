import * as repo from './repository';
import type { Page } from '../platform/data/queries';
import { ID_PATTERN } from '../platform/ids';
import { notFound } from '../platform/errors';
import type { Brand, Category, ListProductsQuery, Product } from './schemas';
import { toBrand, toCategory, toProduct } from './types';
import { refuseCursor } from '../platform/data/cursor';

export const isProductId = (id: string) => ID_PATTERN('prd').test(id);
const isCategoryId = (id: string) => ID_PATTERN('cat').test(id);
const isBrandId = (id: string) => ID_PATTERN('brd').test(id);

export async function getProduct(workspaceId: string, productId: string): Promise<Product> {
  const found = isProductId(productId) ? await repo.getProduct(workspaceId, productId) : undefined;
  if (!found) throw notFound('Product');
  return toProduct(found);
}

/** A filter names a category or brand by id, or by key (one read of the keyed item). */
async function resolveRef(ref: string | undefined, isId: (s: string) => boolean, byKey: (key: string) => Promise<{ id: string } | undefined>) {
  if (ref === undefined) return { given: false as const };
  if (isId(ref)) return { given: true as const, id: ref };
  return { given: true as const, id: (await byKey(ref))?.id };
}

export async function listProducts(workspaceId: string, query: ListProductsQuery): Promise<Page<Product>> {
  const [category, brand] = await Promise.all([
    resolveRef(query.category, isCategoryId, (key) => repo.getCategory(workspaceId, key)),
    resolveRef(query.brand, isBrandId, (key) => repo.getBrand(workspaceId, key)),
  ]);
  // An unknown category or brand has no products (a filter, not a lookup: never 404).
  if ((category.given && !category.id) || (brand.given && !brand.id)) {
    refuseCursor(query.cursor);
    return { items: [] };
  }
  const page = await repo.listProducts(
    workspaceId,
    {
      categoryId: category.given ? category.id : undefined,
      brandId: brand.given ? brand.id : undefined,
      status: query.status,
      q: query.q?.toLowerCase(),
    },
    query.limit,
    query.cursor,
  );
  return { ...page, items: page.items.map(toProduct) };
}

export async function listCategories(workspaceId: string, limit: number, cursor?: string, parentKey?: string): Promise<Page<Category>> {
  const page = await repo.listCategories(workspaceId, limit, cursor, parentKey);
  return { ...page, items: page.items.map(toCategory) };
}

export async function listBrands(workspaceId: string, limit: number, cursor?: string): Promise<Page<Brand>> {
  const page = await repo.listBrands(workspaceId, limit, cursor);
  return { ...page, items: page.items.map(toBrand) };
}
