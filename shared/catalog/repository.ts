import { brandEntity, type BrandRecord, categoryEntity, type CategoryRecord, productCategoryEntity, productEntity, type ProductRecord } from './entities';
import { indexPartition, keyOf, skPrefix } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { batchGetItems, filterExpression, queryPage, type Filter, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

type Raw = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Batch reads (the import reads what it compares against in pages of 100 keys, not one by one)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------------

const productItem = (p: ProductRecord) => productEntity.toItem(p);
const categoryEntryItem = (p: ProductRecord, categoryId: string) => productCategoryEntity.toItem(p, { categoryId });

/** A new product, its sku lookup and its category entries, all or nothing. */
export function createProductSteps(p: ProductRecord): TransactStep[] {
  return [
    { op: { Put: { Item: productItem(p), ConditionExpression: 'attribute_not_exists(pk)' } } },
    {
      op: {
        Put: {
          Item: { ...keyOf('productSku', { workspaceId: p.workspaceId, sku: p.sku }), entity: 'productSku', productId: p.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      // A concurrent import created this sku first: re-read and compare with what it wrote.
      onConditionFailed: () => new StaleRead('product'),
    },
    ...p.categoryIds.map((categoryId): TransactStep => ({ op: { Put: { Item: categoryEntryItem(p, categoryId) } } })),
  ];
}

/** Replaces a product we read (conditional on its version) and brings its category entries along. */
export function replaceProductSteps(current: ProductRecord, next: ProductRecord): TransactStep[] {
  const removed = current.categoryIds.filter((id) => !next.categoryIds.includes(id));
  return [
    {
      op: { Put: { Item: productItem(next), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } } },
      onConditionFailed: () => new StaleRead('product'),
    },
    ...next.categoryIds.map((categoryId): TransactStep => ({ op: { Put: { Item: categoryEntryItem(next, categoryId) } } })),
    ...removed.map(
      (categoryId): TransactStep => ({
        op: { Delete: { Key: keyOf('productCategory', { workspaceId: current.workspaceId, productId: current.id, categoryId }) } },
      }),
    ),
  ];
}

export async function getProduct(workspaceId: string, productId: string): Promise<ProductRecord | undefined> {
  const item = await getItem<Raw>(keyOf('product', { workspaceId, productId }));
  return item ? productEntity.fromItem(item) : undefined;
}

export async function productIdBySku(workspaceId: string, sku: string): Promise<string | undefined> {
  return (await getItem<{ productId: string }>(keyOf('productSku', { workspaceId, sku })))?.productId;
}

/** The stored products of the given skus (sku -> product), in two batched rounds of reads. */
export async function productsBySku(workspaceId: string, skus: string[]): Promise<Map<string, ProductRecord>> {
  const lookups = await batchGetItems<Raw>(skus.map((sku) => keyOf('productSku', { workspaceId, sku })));
  const ids = lookups.map((l) => l.productId as string);
  const products = await batchGetItems<Raw>(ids.map((productId) => keyOf('product', { workspaceId, productId })));
  const byId = new Map(products.map((p) => [p.id as string, productEntity.fromItem(p)]));
  const out = new Map<string, ProductRecord>();
  for (const id of ids) {
    const p = byId.get(id);
    if (p) out.set(p.sku, p);
  }
  return out;
}

export interface ProductFilters {
  categoryId?: string;
  brandId?: string;
  status?: string;
  /** Already lower-cased. */
  q?: string;
}

/**
 * Newest first, always an index read of one partition: a category's entries (gsi2) when filtering
 * by category (the brand, if also given, then filters), else the brand's products (gsi3), else the
 * workspace's products (gsi1). Status and free text narrow the page.
 */
export async function listProducts(workspaceId: string, f: ProductFilters, limit: number, cursor?: string): Promise<Page<ProductRecord>> {
  const [index, partition, extra]: [string, string, Filter[]] = f.categoryId
    ? ['gsi2', indexPartition('productCategory', 'gsi2', { workspaceId, categoryId: f.categoryId }), [{ attr: 'brandId', op: '=', value: f.brandId }]]
    : f.brandId
      ? ['gsi3', indexPartition('product', 'gsi3', { workspaceId, brandId: f.brandId }), []]
      : ['gsi1', indexPartition('product', 'gsi1', { workspaceId }), []];
  const filter = filterExpression([...extra, { attr: 'status', op: '=', value: f.status }, { attr: 'searchText', op: 'contains', value: f.q }]);
  const page = await queryPage<Raw>({
    partition: { attr: `${index}pk`, value: partition },
    cursor,
    limit,
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk`,
    ...filter,
    ExpressionAttributeValues: { ...filter.ExpressionAttributeValues, ':pk': partition },
    ScanIndexForward: false,
  });
  // A category's entries are copies of the product: each read as its own declaration drops its keys.
  return { ...page, items: page.items.map(f.categoryId ? productCategoryEntity.fromItem : productEntity.fromItem) };
}

// ---------------------------------------------------------------------------------------------
// Categories and brands (few per workspace: items of the workspace partition, keyed by key)
// ---------------------------------------------------------------------------------------------

type Keyed = typeof categoryEntity | typeof brandEntity;
type RecordOf<E extends Keyed> = ReturnType<E['fromItem']>;

function putKeyedStep<E extends Keyed>(entity: E, workspaceId: string, record: RecordOf<E>, expectedVersion: number | null): TransactStep {
  return {
    op: {
      Put: {
        Item: (entity as typeof brandEntity).toItem(record, { workspaceId }),
        ...(expectedVersion === null
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } }),
      },
    },
    onConditionFailed: () => new StaleRead(entity === categoryEntity ? 'category' : 'brand'),
  };
}

/** Creates (`expectedVersion` null) or replaces a category we read at that version. */
export const putCategoryStep = (workspaceId: string, c: CategoryRecord, expectedVersion: number | null) =>
  putKeyedStep(categoryEntity, workspaceId, c, expectedVersion);
export const putBrandStep = (workspaceId: string, b: BrandRecord, expectedVersion: number | null) => putKeyedStep(brandEntity, workspaceId, b, expectedVersion);

async function keyedByKeys<E extends Keyed>(entity: E, workspaceId: string, keys: string[]): Promise<Map<string, RecordOf<E>>> {
  const items = await batchGetItems<Raw>(keys.map((key) => keyOf(entity.name, { workspaceId, key })));
  return new Map(items.map((i) => [i.key as string, entity.fromItem(i) as RecordOf<E>]));
}

export const categoriesByKeys = (workspaceId: string, keys: string[]) => keyedByKeys(categoryEntity, workspaceId, keys);
export const brandsByKeys = (workspaceId: string, keys: string[]) => keyedByKeys(brandEntity, workspaceId, keys);

export async function getCategory(workspaceId: string, key: string): Promise<CategoryRecord | undefined> {
  const item = await getItem<Raw>(keyOf('catalogCategory', { workspaceId, key }));
  return item ? categoryEntity.fromItem(item) : undefined;
}

export async function getBrand(workspaceId: string, key: string): Promise<BrandRecord | undefined> {
  const item = await getItem<Raw>(keyOf('catalogBrand', { workspaceId, key }));
  return item ? brandEntity.fromItem(item) : undefined;
}

/** In key order (a prefix read of the workspace partition). */
async function listKeyed<E extends Keyed>(
  entity: E,
  workspaceId: string,
  limit: number,
  cursor: string | undefined,
  filters: Filter[],
): Promise<Page<RecordOf<E>>> {
  const { pk } = keyOf('workspace', { workspaceId });
  const filter = filterExpression(filters);
  const page = await queryPage<Raw>({
    partition: { attr: 'pk', value: pk },
    cursor,
    limit,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ...filter,
    ExpressionAttributeValues: { ...filter.ExpressionAttributeValues, ':pk': pk, ':prefix': skPrefix(entity.name) },
    ScanIndexForward: true,
  });
  return { ...page, items: page.items.map((i) => entity.fromItem(i) as RecordOf<E>) };
}

export const listCategories = (workspaceId: string, limit: number, cursor?: string, parentKey?: string) =>
  listKeyed(categoryEntity, workspaceId, limit, cursor, [{ attr: 'parentKey', op: '=', value: parentKey }]);
export const listBrands = (workspaceId: string, limit: number, cursor?: string) => listKeyed(brandEntity, workspaceId, limit, cursor, []);
