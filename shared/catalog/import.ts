import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import type { TransactStep } from '../platform/data/transactions';
import { transactWrite } from './repository';
import { newId } from '../platform/ids';
import { itemError, parseItem, runInLanes, summarise } from '../platform/validation/batch';
import { AppError, validationFailed, type ErrorDetail } from '../platform/errors';
import { collectDefinitions, definitionsOf, invalidCategoryDefinitions, neededCategories, outsideParents, type ItemDefinitions } from './definitions';
import { importProductSchema, type ImportProductInput, type ImportReport, type ImportResult } from './schemas';
import { contentHash, productContent, productSearchText } from './types';
import { refuseOversized } from '../platform/data/stored-size';
import type { BrandRecord, CategoryRecord, ProductContent, ProductRecord } from './entities';

/** Single-record upserts in flight at once (categories, brands, products settled one by one). */
const CONCURRENCY = 16;
/** Grouped product transactions in flight at once. */
const GROUPS_IN_FLIGHT = 8;

type KeyedOutcome = 'created' | 'updated' | 'unchanged';

const skuOf = (raw: unknown): string | null => {
  const sku = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).sku : undefined;
  return typeof sku === 'string' ? sku : null;
};

const counts = (outcomes: readonly { outcome: KeyedOutcome }[]) => ({
  created: outcomes.filter((o) => o.outcome === 'created').length,
  updated: outcomes.filter((o) => o.outcome === 'updated').length,
  unchanged: outcomes.filter((o) => o.outcome === 'unchanged').length,
});

interface Versioned {
  id: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

interface UpsertRules<R extends Versioned> {
  reread: () => Promise<R | undefined>;
  unchanged: (current: R) => boolean;
  build: (base: Versioned) => R;
  write: (next: R, current: R | undefined) => TransactStep[];
  idPrefix: string;
  at: string;
}

type Plan<R> = { outcome: 'unchanged'; id: string } | { outcome: 'created' | 'updated'; id: string; next: R; steps: TransactStep[] };

/** What to do about one keyed record, given what is stored: nothing, a create or a replace. */
function plan<R extends Versioned>(rules: UpsertRules<R>, current: R | undefined): Plan<R> {
  if (current && rules.unchanged(current)) return { outcome: 'unchanged', id: current.id };
  const next = rules.build(
    current
      ? { id: current.id, version: current.version + 1, createdAt: current.createdAt, updatedAt: rules.at }
      : { id: newId(rules.idPrefix), version: 1, createdAt: rules.at, updatedAt: rules.at },
  );
  return { outcome: current ? 'updated' : 'created', id: next.id, next, steps: rules.write(next, current) };
}

/**
 * Upsert of one keyed record (category, brand, product): unchanged -> no write at all; otherwise a
 * create conditional on absence or a replace conditional on the version read. The first attempt
 * uses the batch-read state when given; a lost race re-reads and decides again.
 */
async function upsert<R extends Versioned>(rules: UpsertRules<R>, prefetched?: { value: R | undefined }): Promise<{ id: string; outcome: KeyedOutcome }> {
  let known = prefetched;
  return withOptimisticRetry(async () => {
    const current = known ? known.value : await rules.reread();
    known = undefined;
    const p = plan(rules, current);
    if (p.outcome !== 'unchanged') await transactWrite(p.steps);
    return { id: p.id, outcome: p.outcome };
  });
}

async function productBySku(workspaceId: string, sku: string): Promise<ProductRecord | undefined> {
  const id = await repo.productIdBySku(workspaceId, sku);
  if (!id) return undefined;
  const product = await repo.getProduct(workspaceId, id);
  // Lookup and product are written in one transaction, so one never exists without the other.
  if (!product) throw new Error(`sku lookup without its product (${id})`);
  return product;
}

function productRules(workspaceId: string, content: ProductContent, at: string): UpsertRules<ProductRecord> {
  const hash = contentHash(content);
  return {
    reread: () => productBySku(workspaceId, content.sku),
    unchanged: (current) => current.contentHash === hash,
    build: (base) => ({ ...content, ...base, workspaceId, searchText: productSearchText(content), contentHash: hash }),
    write: (next, current) => (current ? repo.replaceProductSteps(current, next) : repo.createProductSteps(next)),
    idPrefix: 'prd',
    at,
  };
}

/** TransactWriteItems takes 100 items and 4 MB; groups stay well inside both. */
const GROUP_MAX_ITEMS = 100;
const GROUP_MAX_BYTES = 2_000_000;

/** Packs the planned product writes into few transactions (whole products only, in order). */
function packGroups<T extends { steps: TransactStep[] }>(planned: T[]): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let items = 0;
  let bytes = 0;
  for (const p of planned) {
    const size = JSON.stringify(p.steps.map((s) => s.op)).length;
    if (group.length && (items + p.steps.length > GROUP_MAX_ITEMS || bytes + size > GROUP_MAX_BYTES)) {
      groups.push(group);
      group = [];
      items = 0;
      bytes = 0;
    }
    group.push(p);
    items += p.steps.length;
    bytes += size;
  }
  if (group.length) groups.push(group);
  return groups;
}

/**
 * `POST /catalog/import`: upserts products by sku with their categories and brands (by key).
 *
 * 1. Each item is validated on its own; a sku given twice fails the later item.
 * 2. Category and brand definitions must agree across the payload (the first wins); a category's
 *    parent must exist or be defined in the payload, and the tree stays a tree.
 * 3. The categories and brands the surviving items need are upserted (unchanged ones not written).
 * 4. Each product is compared with what is stored through a hash of its normalised content:
 *    equal -> `unchanged` and no write (updatedAt stays); else created (with its sku lookup) or
 *    replaced (conditional on its version), with its category entries. The changes are packed
 *    into transactions of up to 100 items; a group that loses a race falls back to one product
 *    at a time.
 *
 * Stored state is read in batches of 100 keys, so an unchanged re-import of 1,000 products costs
 * about 20 batched reads and no writes.
 */
export async function importCatalog(workspaceId: string, items: readonly unknown[], now = new Date()): Promise<ImportReport> {
  const at = now.toISOString();
  const results = new Array<ImportResult>(items.length);
  const fail: Fail = (index, err) => {
    // AppError details are ErrorDetail objects, which the published schema spells out.
    results[index] = { index, sku: skuOf(items[index]), outcome: 'failed', productId: null, error: itemError(err) as ImportResult['error'] };
  };
  const parsed = parseItems(items, fail);
  const { alive, defs, storedCategories, storedBrands } = await checkDefinitions(workspaceId, parsed, fail);
  const definitions = await upsertDefinitions(workspaceId, alive, defs, { categories: storedCategories, brands: storedBrands }, at);
  await importProducts(workspaceId, alive, definitions, at, results, fail);
  return { results, summary: summarise(results), categories: counts(definitions.categoryOutcomes), brands: counts(definitions.brandOutcomes) };
}

type Fail = (index: number, err: unknown) => void;
type AliveItem = { index: number; input: ImportProductInput; defs: ItemDefinitions };
type Definitions = ReturnType<typeof collectDefinitions>;

/** 1. Items on their own; a sku given twice fails the later item. */
function parseItems(items: readonly unknown[], fail: Fail): AliveItem[] {
  const alive: AliveItem[] = [];
  const firstBySku = new Map<string, number>();
  items.forEach((raw, index) => {
    try {
      const input = parseItem(importProductSchema, raw);
      const first = firstBySku.get(input.sku);
      if (first !== undefined) throw validationFailed([{ in: 'body', field: 'sku', message: `given more than once in this import (first by item ${first})` }]);
      firstBySku.set(input.sku, index);
      alive.push({ index, input, defs: definitionsOf(index, input) });
    } catch (err) {
      fail(index, err);
    }
  });
  return alive;
}

/** 2. Definitions across the payload, checked against what is stored. */
async function checkDefinitions(workspaceId: string, parsed: AliveItem[], fail: Fail) {
  const defs = collectDefinitions(parsed.map((a) => a.defs));
  for (const [index, details] of defs.failures) fail(index, validationFailed(details));
  const agreed = parsed.filter((a) => !defs.failures.has(a.index));
  const [storedCategories, storedBrands] = await Promise.all([
    repo.categoriesByKeys(workspaceId, [...defs.categories.keys(), ...outsideParents(defs.categories)]),
    repo.brandsByKeys(workspaceId, [...defs.brands.keys()]),
  ]);
  const invalid = invalidCategoryDefinitions(defs.categories, new Map([...storedCategories].map(([key, c]) => [key, c.parentKey])));
  const alive = agreed.filter((a) => {
    const details: ErrorDetail[] = a.defs.categories
      .filter((c) => invalid.has(c.def.key))
      .map((c) => ({ in: 'body', field: `${c.path}.parentKey`, message: invalid.get(c.def.key)! }));
    if (details.length) fail(a.index, validationFailed(details));
    return details.length === 0;
  });
  return { alive, defs, storedCategories, storedBrands };
}

/** 3. Categories (with their ancestors among the definitions) and brands the surviving items use. */
async function upsertDefinitions(
  workspaceId: string,
  alive: AliveItem[],
  defs: Definitions,
  stored: { categories: Map<string, CategoryRecord>; brands: Map<string, BrandRecord> },
  at: string,
) {
  const categoryKeys = [
    ...neededCategories(
      defs.categories,
      alive.flatMap((a) => a.defs.categories.map((c) => c.def.key)),
    ),
  ];
  const brandKeys = [...new Set(alive.flatMap((a) => (a.defs.brand ? [a.defs.brand.def.key] : [])))];
  const [categoryOutcomes, brandOutcomes] = await Promise.all([
    runInLanes(
      categoryKeys,
      (key) => key,
      CONCURRENCY,
      (key) => {
        const def = defs.categories.get(key)!;
        const parentKey = def.parentKey ?? null;
        return upsert<CategoryRecord>(
          {
            reread: () => repo.getCategory(workspaceId, key),
            unchanged: (c) => c.name === def.name && c.parentKey === parentKey,
            build: (base) => ({ ...base, key, name: def.name, parentKey }),
            write: (next, current) => [repo.putCategoryStep(workspaceId, next, current ? current.version : null)],
            idPrefix: 'cat',
            at,
          },
          { value: stored.categories.get(key) },
        );
      },
    ),
    runInLanes(
      brandKeys,
      (key) => key,
      CONCURRENCY,
      (key) => {
        const def = defs.brands.get(key)!;
        return upsert<BrandRecord>(
          {
            reread: () => repo.getBrand(workspaceId, key),
            unchanged: (b) => b.name === def.name,
            build: (base) => ({ ...base, key, name: def.name }),
            write: (next, current) => [repo.putBrandStep(workspaceId, next, current ? current.version : null)],
            idPrefix: 'brd',
            at,
          },
          { value: stored.brands.get(key) },
        );
      },
    ),
  ]);
  return {
    categoryOutcomes,
    brandOutcomes,
    categoryIds: new Map(categoryKeys.map((key, i) => [key, categoryOutcomes[i]!.id])),
    brandIds: new Map(brandKeys.map((key, i) => [key, brandOutcomes[i]!.id])),
  };
}

/**
 * 4. Products: decide each against the batch-read state, then write the changes in few
 * transactions. A group that loses a race (someone changed one of its products meanwhile) commits
 * nothing, and each of its products is then settled on its own (re-read, decide, write).
 */
async function importProducts(
  workspaceId: string,
  alive: AliveItem[],
  { categoryIds, brandIds }: { categoryIds: Map<string, string>; brandIds: Map<string, string> },
  at: string,
  results: ImportResult[],
  fail: Fail,
): Promise<void> {
  const stored = await repo.productsBySku(
    workspaceId,
    alive.map((a) => a.input.sku),
  );
  const changes: { index: number; sku: string; rules: UpsertRules<ProductRecord>; outcome: 'created' | 'updated'; id: string; steps: TransactStep[] }[] = [];
  for (const a of alive) {
    const content = productContent(
      a.input,
      a.defs.categories.map((c) => categoryIds.get(c.def.key)!),
      a.defs.brand ? brandIds.get(a.defs.brand.def.key)! : null,
    );
    try {
      refuseOversized({ ...content, searchText: productSearchText(content) }, 'product', { fields: a.input, at: '' });
    } catch (err) {
      fail(a.index, err);
      continue;
    }
    const rules = productRules(workspaceId, content, at);
    const p = plan(rules, stored.get(a.input.sku));
    if (p.outcome === 'unchanged') results[a.index] = { index: a.index, sku: a.input.sku, outcome: 'unchanged', productId: p.id, error: null };
    else changes.push({ index: a.index, sku: a.input.sku, rules, outcome: p.outcome, id: p.id, steps: p.steps });
  }
  await runInLanes(
    packGroups(changes),
    (_, i) => String(i),
    GROUPS_IN_FLIGHT,
    async (group) => {
      try {
        await transactWrite(group.flatMap((c) => c.steps));
        for (const c of group) results[c.index] = { index: c.index, sku: c.sku, outcome: c.outcome, productId: c.id, error: null };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await runInLanes(
          group,
          (c) => c.sku,
          CONCURRENCY,
          async (c) => {
            try {
              const { id, outcome } = await upsert(c.rules);
              results[c.index] = { index: c.index, sku: c.sku, outcome, productId: id, error: null };
            } catch (e) {
              fail(c.index, e);
            }
          },
        );
      }
    },
  );
}
