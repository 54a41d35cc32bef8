import * as z from 'zod';
import { freeFormMap, isoDateTime, rawItemKey, storableNumber } from '../platform/validation/common';
import { amountSchema, currencySchema, toMinor } from '../platform/money';
import { pageQueryShape } from '../platform/validation/pagination';
import { brandRecordSchema, categoryRecordSchema, PRODUCT_STATUSES } from './entities';

/** Products per import call. */
export const MAX_IMPORT = 1000;
/** Categories per product (each is one index entry, written in the product's transaction). */
export const MAX_CATEGORIES_PER_PRODUCT = 10;
export const MAX_PRODUCT_ATTRIBUTES = 50;

export const skuSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@#/+-]{0,127}$/, { message: 'letters, digits and . _ : @ # / + - (max 128), starting with a letter or digit' })
  .describe("Your own product id: unique per workspace, the import's upsert key (case-sensitive)");

export const catalogKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, { message: 'letters, digits and . _ : / - (max 128), starting with a letter or digit' });

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const httpUrl = z.string().trim().max(2048).refine(isHttpUrl, { message: 'must be an http or https URL' });

const attributeKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, { message: 'identifier of at most 64 characters' });
const attributeValue = z.union([z.string().max(1000), storableNumber, z.boolean()]);

const priceInput = z
  .strictObject({ amount: amountSchema, currency: currencySchema })
  .refine((p) => toMinor(p.amount, p.currency) !== undefined, { message: 'more decimals than the currency has', path: ['amount'] });

export const importCategorySchema = z
  .strictObject({
    key: catalogKeySchema.describe('Your own category key, unique per workspace (case-sensitive)'),
    name: z.string().trim().min(1).max(200).describe('Display name, e.g. Coffee beans'),
    parentKey: catalogKeySchema
      .nullable()
      .optional()
      .describe('Key of the parent category: an existing one or one defined in the same import; left out or null: a top-level category'),
  })
  .refine((c) => c.parentKey !== c.key, { message: 'a category cannot be its own parent', path: ['parentKey'] })
  .meta({ id: 'ImportCategory' });

export const importBrandSchema = z
  .strictObject({
    key: catalogKeySchema.describe('Your own brand key, unique per workspace (case-sensitive)'),
    name: z.string().trim().min(1).max(200).describe('Display name, e.g. Northwind Roastery'),
  })
  .meta({ id: 'ImportBrand' });

/**
 * One product of an import: the whole desired state of the product with that sku (fields left out
 * are cleared; `status` defaults to active). Categories and brands are upserted by key on the way.
 */
export const importProductSchema = z
  .strictObject({
    sku: skuSchema,
    name: z.string().trim().min(1).max(300).describe('Product name as members see it'),
    description: z.string().trim().max(5000).nullable().optional(),
    price: priceInput.nullable().optional().describe('Regular price in major units; left out or null: no price'),
    category: importCategorySchema.nullable().optional().describe('The product’s one category (or use `categories`); left out or null: none'),
    categories: z
      .array(importCategorySchema)
      .max(MAX_CATEGORIES_PER_PRODUCT)
      .optional()
      .describe(`Several categories in your order, the main one first (at most ${MAX_CATEGORIES_PER_PRODUCT}); not together with \`category\``),
    brand: importBrandSchema.nullable().optional(),
    imageUrl: httpUrl.nullable().optional(),
    url: httpUrl.nullable().optional().describe('The product page in your shop'),
    attributes: freeFormMap(attributeKey, attributeValue, { max: MAX_PRODUCT_ATTRIBUTES, noun: 'attributes' })
      .optional()
      .describe('Your own product fields (size, colour, ...): strings, numbers or booleans'),
    status: z.enum(PRODUCT_STATUSES).optional().describe('Default active; archived products stay readable and listable'),
  })
  .refine((p) => !(p.category && p.categories), { message: 'give category or categories, not both', path: ['categories'] })
  .refine((p) => !p.categories || new Set(p.categories.map((c) => c.key)).size === p.categories.length, {
    message: 'each category key at most once',
    path: ['categories'],
  })
  .meta({
    id: 'ImportProduct',
    description: 'The whole desired state of the product with this sku: fields left out are cleared (status defaults to active).',
  });

export type ImportProductInput = z.output<typeof importProductSchema>;
export type ImportCategoryInput = z.output<typeof importCategorySchema>;
export type ImportBrandInput = z.output<typeof importBrandSchema>;

export const importCatalogBody = z.strictObject({
  products: z
    .array(
      z.union([importProductSchema, z.record(rawItemKey, z.unknown()).describe('Any other object is accepted by the request and reported as a failed item')]),
    )
    .min(1)
    .max(MAX_IMPORT)
    .describe(`1 to ${MAX_IMPORT} products, upserted by sku; each is validated on its own and fails on its own`),
});

export const priceSchema = z.object({
  amount: z.number().describe('Major units of the currency, e.g. 19.99'),
  currency: z.string().describe('ISO 4217 code'),
});

export const productSchema = z
  .object({
    id: z.string().describe('prd_...'),
    sku: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    price: priceSchema.nullable(),
    categoryIds: z.array(z.string()).describe('cat_... ids, in the order the import gave them'),
    brandId: z.string().nullable().describe('brd_...'),
    imageUrl: z.string().nullable(),
    url: z.string().nullable(),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    status: z.enum(PRODUCT_STATUSES),
    createdAt: isoDateTime,
    updatedAt: isoDateTime.describe('Moves only when an import changes the product'),
  })
  .meta({ id: 'Product' });

export type Product = z.infer<typeof productSchema>;

// A category is answered as stored, less its version.
export const categorySchema = categoryRecordSchema()
  .omit({ version: true })
  .extend({ id: z.string().describe('cat_...'), createdAt: isoDateTime, updatedAt: isoDateTime })
  .meta({ id: 'Category' });

export type Category = z.infer<typeof categorySchema>;

// A brand is answered as stored, less its version.
export const brandSchema = brandRecordSchema()
  .omit({ version: true })
  .extend({ id: z.string().describe('brd_...'), createdAt: isoDateTime, updatedAt: isoDateTime })
  .meta({ id: 'Brand' });

export type Brand = z.infer<typeof brandSchema>;

const filterRef = (what: string) =>
  z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe(`A ${what} key, or its id (${what === 'category' ? 'cat_' : 'brd_'}...): only products of that ${what}`);

export const listProductsQuery = z.strictObject({
  ...pageQueryShape,
  category: filterRef('category'),
  brand: filterRef('brand'),
  status: z.enum(PRODUCT_STATUSES).optional(),
  q: z.string().trim().min(1).max(100).optional().describe('Free text: part of sku, name or description (case-insensitive)'),
});
export type ListProductsQuery = z.output<typeof listProductsQuery>;

export const listCategoriesQuery = z.strictObject({
  ...pageQueryShape,
  parentKey: catalogKeySchema.optional().describe('Only the direct children of this category'),
});

export const listBrandsQuery = z.strictObject(pageQueryShape);

const itemErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.array(z.object({ in: z.enum(['body', 'query', 'path', 'header']), field: z.string(), message: z.string() })).optional(),
});

export const importResultSchema = z
  .object({
    index: z.number().int().describe('Position of the item in `products`'),
    sku: z.string().nullable().describe('The sku of the item as sent (null if it had none)'),
    outcome: z.enum(['created', 'updated', 'unchanged', 'failed']),
    productId: z.string().nullable(),
    error: itemErrorSchema.nullable(),
  })
  .meta({ id: 'CatalogImportResult' });

export type ImportResult = z.infer<typeof importResultSchema>;

const countsOf = (what: string) =>
  z
    .object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() })
    .describe(`The ${what} the import named, by what happened to them`);

export const importReportSchema = z.object({
  results: z.array(importResultSchema).describe('One per item, in order'),
  summary: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), failed: z.number().int() }),
  categories: countsOf('categories'),
  brands: countsOf('brands'),
});

export type ImportReport = z.infer<typeof importReportSchema>;
