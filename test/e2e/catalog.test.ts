import { describe, expect, it } from 'vitest';
import { call, createKey } from '../support/api';
import { tenant, type Tenant } from '../support/fixtures';

const importCatalog = (t: Tenant, products: unknown[], headers?: Record<string, string>) =>
  call('POST', '/api/v2/catalog/import', { token: t.key, body: { products }, headers });

/** Every page of a list, following nextCursor. */
async function all(t: Tenant, path: string, limit = 2): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: any = await call('GET', `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: t.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return out;
}

const skus = (products: { sku: string }[]) => products.map((p) => p.sku).sort();

const CATALOG = [
  {
    sku: 'RUN-1',
    name: 'Trail Runner',
    description: 'A light trail shoe',
    price: { amount: 119.9, currency: 'EUR' },
    categories: [
      { key: 'shoes', name: 'Shoes' },
      { key: 'running', name: 'Running', parentKey: 'shoes' },
    ],
    brand: { key: 'acme', name: 'ACME' },
    imageUrl: 'https://cdn.example.com/run-1.png',
    url: 'https://shop.example.com/p/run-1',
    attributes: { size: 42, colour: 'green', waterproof: true },
  },
  { sku: 'RUN-2', name: 'Road Runner', category: { key: 'running', name: 'Running', parentKey: 'shoes' }, brand: { key: 'zoom', name: 'Zoom' } },
  {
    sku: 'SOCK-1',
    name: 'Merino Socks',
    price: { amount: 1500, currency: 'JPY' },
    category: { key: 'accessories', name: 'Accessories' },
    brand: { key: 'acme', name: 'ACME' },
  },
  { sku: 'GIFT-1', name: 'Gift card', status: 'archived' },
];

describe('catalog', () => {
  it('imports products with their categories and brands; get, list, categories and brands', async () => {
    const t = await tenant('catalog');
    const res = await importCatalog(t, CATALOG);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = res.body.data;
    expect(report.results.map((r: any) => [r.index, r.sku, r.outcome, r.error])).toEqual([
      [0, 'RUN-1', 'created', null],
      [1, 'RUN-2', 'created', null],
      [2, 'SOCK-1', 'created', null],
      [3, 'GIFT-1', 'created', null],
    ]);
    expect(report.summary).toEqual({ created: 4, updated: 0, unchanged: 0, failed: 0 });
    expect(report.categories).toEqual({ created: 3, updated: 0, unchanged: 0 });
    expect(report.brands).toEqual({ created: 2, updated: 0, unchanged: 0 });

    const categories = (await call('GET', '/api/v2/categories', { token: t.key })).body;
    expect(categories.nextCursor).toBeNull();
    expect(categories.data.map((c: any) => [c.key, c.name, c.parentKey])).toEqual([
      ['accessories', 'Accessories', null],
      ['running', 'Running', 'shoes'],
      ['shoes', 'Shoes', null],
    ]);
    for (const c of categories.data) expect(c.id).toMatch(/^cat_[0-9a-z]{26}$/);
    const children = await call('GET', '/api/v2/categories?parentKey=shoes', { token: t.key });
    expect(children.body.data.map((c: any) => c.key)).toEqual(['running']);
    const brands = (await call('GET', '/api/v2/brands', { token: t.key })).body.data;
    expect(brands.map((b: any) => [b.key, b.name])).toEqual([
      ['acme', 'ACME'],
      ['zoom', 'Zoom'],
    ]);
    for (const b of brands) expect(b.id).toMatch(/^brd_[0-9a-z]{26}$/);

    const catId = (key: string) => categories.data.find((c: any) => c.key === key).id;
    const brandId = (key: string) => brands.find((b: any) => b.key === key).id;
    const runId = report.results[0].productId;
    expect(runId).toMatch(/^prd_[0-9a-z]{26}$/);
    const got = await call('GET', `/api/v2/products/${runId}`, { token: t.key });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({
      id: runId,
      sku: 'RUN-1',
      name: 'Trail Runner',
      description: 'A light trail shoe',
      price: { amount: 119.9, currency: 'EUR' },
      categoryIds: [catId('shoes'), catId('running')],
      brandId: brandId('acme'),
      imageUrl: 'https://cdn.example.com/run-1.png',
      url: 'https://shop.example.com/p/run-1',
      attributes: { size: 42, colour: 'green', waterproof: true },
      status: 'active',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const gift = await call('GET', `/api/v2/products/${report.results[3].productId}`, { token: t.key });
    expect(gift.body.data).toMatchObject({
      sku: 'GIFT-1',
      description: null,
      price: null,
      categoryIds: [],
      brandId: null,
      imageUrl: null,
      url: null,
      attributes: {},
      status: 'archived',
    });
    const sock = await call('GET', `/api/v2/products/${report.results[2].productId}`, { token: t.key });
    expect(sock.body.data.price).toEqual({ amount: 1500, currency: 'JPY' });

    const list = await call('GET', '/api/v2/products', { token: t.key });
    expect(list.status).toBe(200);
    expect(skus(list.body.data)).toEqual(['GIFT-1', 'RUN-1', 'RUN-2', 'SOCK-1']);
    expect(list.body.nextCursor).toBeNull();
    expect(list.body.data.find((p: any) => p.id === runId)).toEqual(got.body.data);

    // Newest first: a later import lists before the earlier one.
    expect((await importCatalog(t, [{ sku: 'LATE-1', name: 'Late arrival' }])).body.data.summary.created).toBe(1);
    const newest = await call('GET', '/api/v2/products?limit=1', { token: t.key });
    expect(newest.body.data.map((p: any) => p.sku)).toEqual(['LATE-1']);
    expect(newest.body.nextCursor).toEqual(expect.any(String));
  });

  it('a re-import of the same payload changes nothing and reports every item unchanged', async () => {
    const t = await tenant('catalog-replay');
    const first = await importCatalog(t, CATALOG);
    expect(first.body.data.summary.created).toBe(CATALOG.length);
    const before = await all(t, '/api/v2/products');
    const categoriesBefore = await all(t, '/api/v2/categories');
    const brandsBefore = await all(t, '/api/v2/brands');

    for (let run = 0; run < 2; run++) {
      const again = await importCatalog(t, CATALOG);
      expect(again.status).toBe(200);
      expect(again.body.data.results.map((r: any) => r.outcome)).toEqual(CATALOG.map(() => 'unchanged'));
      expect(again.body.data.results.map((r: any) => r.productId)).toEqual(first.body.data.results.map((r: any) => r.productId));
      expect(again.body.data.summary).toEqual({ created: 0, updated: 0, unchanged: CATALOG.length, failed: 0 });
      expect(again.body.data.categories).toEqual({ created: 0, updated: 0, unchanged: 3 });
      expect(again.body.data.brands).toEqual({ created: 0, updated: 0, unchanged: 2 });
    }
    // Same payload in another key order and spacing is the same content.
    const reordered = CATALOG.map((p) => Object.fromEntries(Object.entries(p).reverse()));
    reordered[1] = { ...reordered[1], name: '  Road Runner ' };
    expect((await importCatalog(t, reordered)).body.data.summary.unchanged).toBe(CATALOG.length);

    expect(await all(t, '/api/v2/products')).toEqual(before); // updatedAt and everything else stable
    expect(await all(t, '/api/v2/categories')).toEqual(categoriesBefore);
    expect(await all(t, '/api/v2/brands')).toEqual(brandsBefore);

    // One changed item is updated (its updatedAt moves), the rest stay unchanged.
    const changed = structuredClone(CATALOG);
    changed[1] = { ...changed[1], name: 'Road Runner 2', category: { key: 'shoes', name: 'Shoes' } } as (typeof CATALOG)[number];
    const update = await importCatalog(t, changed);
    expect(update.body.data.results.map((r: any) => r.outcome)).toEqual(['unchanged', 'updated', 'unchanged', 'unchanged']);
    const after = await call('GET', `/api/v2/products/${first.body.data.results[1].productId}`, { token: t.key });
    const old = before.find((p) => p.sku === 'RUN-2');
    expect(after.body.data.name).toBe('Road Runner 2');
    expect(after.body.data.createdAt).toBe(old.createdAt);
    expect(Date.parse(after.body.data.updatedAt)).toBeGreaterThan(Date.parse(old.updatedAt));
    // The category entries moved with it: no longer listed under running, now under shoes.
    expect(skus(await all(t, '/api/v2/products?category=running'))).toEqual(['RUN-1']);
    expect(skus(await all(t, '/api/v2/products?category=shoes'))).toEqual(['RUN-1', 'RUN-2']);

    // A category renamed by an import is a category update, not a product update.
    const renamed = structuredClone(changed);
    renamed[2] = { ...renamed[2], category: { key: 'accessories', name: 'Extras' } } as (typeof CATALOG)[number];
    const rename = await importCatalog(t, renamed);
    expect(rename.body.data.summary).toEqual({ created: 0, updated: 0, unchanged: 4, failed: 0 });
    expect(rename.body.data.categories).toMatchObject({ updated: 1 });
  });

  it('honours Idempotency-Key: the same key and body replay the first answer', async () => {
    const t = await tenant('catalog-idem');
    const headers = { 'idempotency-key': 'catalog-import-1' };
    const first = await importCatalog(t, CATALOG.slice(0, 2), headers);
    expect(first.status).toBe(200);
    const replay = await importCatalog(t, CATALOG.slice(0, 2), headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const other = await importCatalog(t, CATALOG.slice(0, 1), headers);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('fails items on their own, with one detail per field; failed items write nothing', async () => {
    const t = await tenant('catalog-items');
    const res = await importCatalog(t, [
      { sku: 'OK-1', name: 'Fine', category: { key: 'tops', name: 'Tops' }, brand: { key: 'acme', name: 'ACME' } },
      { sku: 'bad sku', name: '', price: { amount: 9.999, currency: 'EUR' }, imageUrl: 'ftp://nope', colour: 'red' },
      { sku: 'OK-1', name: 'Same sku again' },
      { sku: 'CONFLICT-1', name: 'Other name for tops', category: { key: 'tops', name: 'T-Shirts' }, brand: { key: 'newbrand', name: 'New' } },
      {
        sku: 'ORPHAN-1',
        name: 'Unknown parent',
        categories: [
          { key: 'kids', name: 'Kids' },
          { key: 'kids-tops', name: 'Kids tops', parentKey: 'nowhere' },
        ],
      },
      { sku: 'BRAND-1', name: 'Other brand name', brand: { key: 'acme', name: 'Acme Corp' } },
      { name: 'No sku' },
      { sku: 'OK-2', name: 'Also fine', category: { key: 'bottoms', name: 'Bottoms', parentKey: 'tops' } },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.data.results;
    expect(r.map((x: any) => x.outcome)).toEqual(['created', 'failed', 'failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(r[1]).toMatchObject({ sku: 'bad sku', productId: null, error: { code: 'VALIDATION_FAILED' } });
    expect(r[1].error.details.map((d: any) => d.field).sort()).toEqual(['colour', 'imageUrl', 'name', 'price.amount', 'sku']);
    expect(r[2].error.details).toEqual([{ in: 'body', field: 'sku', message: expect.stringContaining('more than once') }]);
    expect(r[3].error.details).toEqual([{ in: 'body', field: 'category', message: expect.stringContaining('defined differently') }]);
    expect(r[4].error.details).toEqual([{ in: 'body', field: 'categories.1.parentKey', message: expect.stringContaining('no category') }]);
    expect(r[5].error.details).toEqual([{ in: 'body', field: 'brand', message: expect.stringContaining('defined differently') }]);
    expect(r[6]).toMatchObject({ sku: null, error: { code: 'VALIDATION_FAILED', details: [{ in: 'body', field: 'sku', message: expect.any(String) }] } });
    expect(res.body.data.summary).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 6 });
    expect(skus(await all(t, '/api/v2/products'))).toEqual(['OK-1', 'OK-2']);
    expect((await all(t, '/api/v2/products')).find((p) => p.sku === 'OK-1').name).toBe('Fine');
    // Categories and brands of failed items were not written.
    expect((await all(t, '/api/v2/categories')).map((c) => c.key)).toEqual(['bottoms', 'tops']);
    expect((await all(t, '/api/v2/brands')).map((b) => [b.key, b.name])).toEqual([['acme', 'ACME']]);
  });

  it('refuses malformed requests as a whole with 422 and writes nothing', async () => {
    const t = await tenant('catalog-422');
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ sku: `S-${i}`, name: `P ${i}` }));
    const over = await importCatalog(t, tooMany);
    expect(over.status).toBe(422);
    expect(over.body.error.details).toEqual([expect.objectContaining({ in: 'body', field: 'products' })]);
    const empty = await importCatalog(t, []);
    expect(empty.status).toBe(422);
    const extra = await call('POST', '/api/v2/catalog/import', { token: t.key, body: { products: [{ sku: 'A', name: 'A' }], dryRun: true } });
    expect(extra.status).toBe(422);
    expect(extra.body.error.details).toEqual([{ in: 'body', field: 'dryRun', message: 'unknown field' }]);
    const notObject = await importCatalog(t, [{ sku: 'A', name: 'A' }, 'nope']);
    expect(notObject.status).toBe(422);
    expect(notObject.body.error.details.map((d: any) => d.field)).toEqual(['products.1']);
    const missing = await call('POST', '/api/v2/catalog/import', { token: t.key, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.map((d: any) => d.field)).toEqual(['products']);
    const badQuery = await call('GET', '/api/v2/products?limit=0&status=gone&colour=red', { token: t.key });
    expect(badQuery.status).toBe(422);
    expect(badQuery.body.error.details.map((d: any) => [d.in, d.field]).sort()).toEqual([
      ['query', 'colour'],
      ['query', 'limit'],
      ['query', 'status'],
    ]);
    expect((await call('GET', '/api/v2/categories?limit=500', { token: t.key })).status).toBe(422);
    expect((await call('GET', '/api/v2/products?cursor=garbage', { token: t.key })).status).toBe(400);
    expect(await all(t, '/api/v2/products')).toEqual([]);
    expect(await all(t, '/api/v2/categories')).toEqual([]);
  });

  it('accepts exactly 1,000 items, each judged on its own; 1,000 re-import without a write', async () => {
    const t = await tenant('catalog-1000');
    const many = Array.from({ length: 1000 }, (_, i) => ({ sku: `S-${i}`, name: `P ${i}` }));
    // All lack a name here, so they fail one by one (cheap: nothing is written).
    const max = await importCatalog(
      t,
      many.map(({ sku }) => ({ sku })),
    );
    expect(max.status).toBe(200);
    expect(max.body.data.summary).toEqual({ created: 0, updated: 0, unchanged: 0, failed: 1000 });
    expect(max.body.data.results[999]).toMatchObject({ index: 999, sku: 'S-999', error: { details: [{ field: 'name' }] } });
    expect(await all(t, '/api/v2/products')).toEqual([]);

    // 1,000 new products are created in one call, and re-imported without a single write.
    expect((await importCatalog(t, many)).body.data.summary).toEqual({ created: 1000, updated: 0, unchanged: 0, failed: 0 });
    expect((await importCatalog(t, many)).body.data.summary).toEqual({ created: 0, updated: 0, unchanged: 1000, failed: 0 });
    expect(await all(t, '/api/v2/products', 200)).toHaveLength(1000);
  });

  it('concurrent imports of the same new products create each product and category exactly once', async () => {
    const t = await tenant('catalog-race');
    const products = Array.from({ length: 60 }, (_, i) => ({
      sku: `RACE-${i}`,
      name: `Racer ${i}`,
      categories: [
        { key: `c${i % 3}`, name: `C${i % 3}` },
        { key: 'all', name: 'All' },
      ],
      brand: { key: 'acme', name: 'ACME' },
    }));
    const runs = await Promise.all([0, 1, 2].map(() => importCatalog(t, products)));
    for (const r of runs) expect(r.status, JSON.stringify(r.body)).toBe(200);
    products.forEach((p, i) => {
      const outcomes = runs.map((r) => r.body.data.results[i].outcome).sort();
      expect(outcomes, p.sku).toEqual(['created', 'unchanged', 'unchanged']);
      expect(new Set(runs.map((r) => r.body.data.results[i].productId)).size).toBe(1);
    });
    expect(runs.reduce((n, r) => n + r.body.data.categories.created, 0)).toBe(4);
    expect(runs.reduce((n, r) => n + r.body.data.brands.created, 0)).toBe(1);
    expect(await all(t, '/api/v2/products', 200)).toHaveLength(60);
    expect(await all(t, '/api/v2/products?category=all', 200)).toHaveLength(60);
    expect(await all(t, '/api/v2/categories', 200)).toHaveLength(4);
  });

  it('filters by category (any of a product’s categories), brand, status and free text, with cursor pages', async () => {
    const t = await tenant('catalog-filters');
    const products = Array.from({ length: 7 }, (_, i) => ({
      sku: `TEE-${i}`,
      name: i % 2 ? `Striped Tee ${i}` : `Plain Tee ${i}`,
      categories: [{ key: 'tops', name: 'Tops' }, ...(i < 3 ? [{ key: 'sale', name: 'Sale' }] : [])],
      brand: i < 4 ? { key: 'acme', name: 'ACME' } : { key: 'zoom', name: 'Zoom' },
      status: i === 6 ? 'archived' : 'active',
    }));
    expect((await importCatalog(t, [...products, { sku: 'MUG-1', name: 'Mug', description: 'A STRIPED mug' }])).body.data.summary.created).toBe(8);
    const categories = await all(t, '/api/v2/categories', 1);
    expect(categories.map((c) => c.key)).toEqual(['sale', 'tops']);
    const brands = await all(t, '/api/v2/brands', 1);
    const acme = brands.find((b) => b.key === 'acme');

    const allProducts = await all(t, '/api/v2/products', 3);
    expect(allProducts).toHaveLength(8);
    expect(new Set(allProducts.map((p) => p.id)).size).toBe(8);
    // Newest first is id order (ids sort by creation time).
    expect(allProducts.map((p) => p.id)).toEqual([...allProducts.map((p) => p.id)].sort().reverse());

    expect(skus(await all(t, '/api/v2/products?category=tops'))).toEqual(products.map((p) => p.sku).sort());
    expect(skus(await all(t, '/api/v2/products?category=sale'))).toEqual(['TEE-0', 'TEE-1', 'TEE-2']);
    const saleId = categories.find((c) => c.key === 'sale').id;
    expect(skus(await all(t, `/api/v2/products?category=${saleId}`))).toEqual(['TEE-0', 'TEE-1', 'TEE-2']);
    expect(skus(await all(t, '/api/v2/products?brand=zoom'))).toEqual(['TEE-4', 'TEE-5', 'TEE-6']);
    expect(skus(await all(t, `/api/v2/products?brand=${acme.id}&category=sale`))).toEqual(['TEE-0', 'TEE-1', 'TEE-2']);
    expect(skus(await all(t, '/api/v2/products?brand=zoom&category=sale'))).toEqual([]);
    expect(skus(await all(t, '/api/v2/products?status=archived'))).toEqual(['TEE-6']);
    expect(skus(await all(t, '/api/v2/products?category=tops&status=active&brand=zoom'))).toEqual(['TEE-4', 'TEE-5']);
    expect(skus(await all(t, '/api/v2/products?q=STRIPED'))).toEqual(['MUG-1', 'TEE-1', 'TEE-3', 'TEE-5']);
    expect(skus(await all(t, '/api/v2/products?q=tee-2'))).toEqual(['TEE-2']);
    expect(skus(await all(t, '/api/v2/products?q=striped&category=tops&brand=acme'))).toEqual(['TEE-1', 'TEE-3']);
    for (const unknown of ['nope', 'cat_0000000000aaaaaaaaaaaaaaaa']) {
      const res = await call('GET', `/api/v2/products?category=${unknown}`, { token: t.key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], nextCursor: null });
    }
    expect((await call('GET', '/api/v2/products?brand=nope', { token: t.key })).body.data).toEqual([]);

    // A cursor continues only its own list.
    const page = await call('GET', '/api/v2/products?category=tops&limit=2', { token: t.key });
    expect(page.body.nextCursor).toEqual(expect.any(String));
    expect((await call('GET', `/api/v2/products?limit=2&cursor=${encodeURIComponent(page.body.nextCursor)}`, { token: t.key })).status).toBe(400);
  });

  it("isolates workspaces: another workspace's ids are not found, its lists are its own", async () => {
    const [a, b] = await Promise.all([tenant('catalog-a'), tenant('catalog-b')]);
    const imported = await importCatalog(a, CATALOG);
    const productId = imported.body.data.results[0].productId;
    const runningId = (await all(a, '/api/v2/categories')).find((c) => c.key === 'running').id;

    const foreign = await call('GET', `/api/v2/products/${productId}`, { token: b.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await call('GET', '/api/v2/products/prd_0000000000aaaaaaaaaaaaaaaa', { token: a.key })).status).toBe(404);
    expect((await call('GET', '/api/v2/products/nonsense', { token: a.key })).status).toBe(404);
    expect((await call('GET', `/api/v2/products/${runningId}`, { token: a.key })).status).toBe(404);
    expect(await all(b, '/api/v2/products')).toEqual([]);
    expect(await all(b, `/api/v2/products?category=${runningId}`)).toEqual([]);
    expect(await all(b, '/api/v2/categories')).toEqual([]);
    expect(await all(b, '/api/v2/brands')).toEqual([]);
    // A cursor of workspace A is no use to workspace B.
    const page = await call('GET', '/api/v2/products?limit=1', { token: a.key });
    expect((await call('GET', `/api/v2/products?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`, { token: b.key })).status).toBe(400);

    // The same skus in workspace B are B's own products; A's stay as they were.
    const mine = await importCatalog(b, CATALOG);
    expect(mine.body.data.summary.created).toBe(CATALOG.length);
    expect(mine.body.data.results[0].productId).not.toBe(productId);
    const again = await importCatalog(a, CATALOG);
    expect(again.body.data.summary.unchanged).toBe(CATALOG.length);
  });

  it('needs catalog:read to read and catalog:write to import', async () => {
    const t = await tenant('catalog-scopes');
    const reader = await createKey(t.token, { name: 'reader', scopes: ['catalog:read'] });
    const writer = await createKey(t.token, { name: 'writer', scopes: ['catalog:write'] });
    const denied = await call('POST', '/api/v2/catalog/import', { token: reader.key, body: { products: CATALOG } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('catalog:write');
    expect(await all(t, '/api/v2/products')).toEqual([]);
    for (const path of ['/api/v2/products', '/api/v2/products/prd_0000000000aaaaaaaaaaaaaaaa', '/api/v2/categories', '/api/v2/brands']) {
      const res = await call('GET', path, { token: writer.key });
      expect(res.status, path).toBe(403);
      expect(res.body.error.message).toContain('catalog:read');
    }
    expect((await call('POST', '/api/v2/catalog/import', { token: writer.key, body: { products: CATALOG } })).status).toBe(200);
    expect((await call('GET', '/api/v2/products', { token: reader.key })).body.data).toHaveLength(CATALOG.length);
    expect((await call('GET', '/api/v2/products', {})).status).toBe(401);
  });
});
