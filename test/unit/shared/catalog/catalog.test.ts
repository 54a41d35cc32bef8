import { describe, expect, it } from 'vitest';
import { collectDefinitions, definitionsOf, invalidCategoryDefinitions, neededCategories, outsideParents } from '../../../../shared/catalog/definitions';
import { importProductSchema, type ImportCategoryInput } from '../../../../shared/catalog/schemas';
import { canonicalJson, contentHash, productContent, productSearchText } from '../../../../shared/catalog/types';

const parse = (raw: unknown) => importProductSchema.parse(raw);
const cat = (key: string, name = key, parentKey?: string | null): ImportCategoryInput => ({ key, name, ...(parentKey !== undefined ? { parentKey } : {}) });
const defs = (...cs: ImportCategoryInput[]) => new Map(cs.map((c) => [c.key, c]));

describe('catalog import item', () => {
  it('normalises to the same content whatever the key order, spacing of names or explicit nulls', () => {
    const a = productContent(
      parse({ sku: 'A-1', name: ' Shoe ', price: { amount: 19.9, currency: 'EUR' }, attributes: { size: 42, colour: 'red' } }),
      ['cat_1'],
      null,
    );
    const b = productContent(
      parse({
        attributes: { colour: 'red', size: 42 },
        price: { currency: 'EUR', amount: 19.9 },
        name: 'Shoe',
        sku: 'A-1',
        description: null,
        imageUrl: null,
        status: 'active',
      }),
      ['cat_1'],
      null,
    );
    expect(a).toEqual(b);
    expect(contentHash(a)).toBe(contentHash(b));
    expect(a.priceMinor).toBe(1990);
  });

  it('any change of content changes the hash; category order is content', () => {
    const base = parse({ sku: 'A-1', name: 'Shoe' });
    const h = contentHash(productContent(base, ['cat_1', 'cat_2'], null));
    expect(contentHash(productContent(base, ['cat_2', 'cat_1'], null))).not.toBe(h);
    expect(contentHash(productContent(base, ['cat_1', 'cat_2'], 'brd_1'))).not.toBe(h);
    expect(contentHash(productContent(parse({ sku: 'A-1', name: 'Shoe', status: 'archived' }), ['cat_1', 'cat_2'], null))).not.toBe(h);
  });

  it('canonical JSON sorts keys and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: undefined, c: 'x' }] })).toBe('{"a":[2,{"c":"x"}],"b":1}');
  });

  it('search text is lower-cased sku, name and description', () => {
    expect(productSearchText({ sku: 'SKU-9', name: 'Trail Runner', description: null })).toBe('sku-9\ntrail runner');
  });

  it('validates each field with its own detail', () => {
    const res = importProductSchema.safeParse({
      sku: ' bad sku',
      name: '',
      price: { amount: 1.999, currency: 'EUR' },
      category: { key: 'a', name: 'A' },
      categories: [{ key: 'a', name: 'A' }],
      imageUrl: 'ftp://x',
      extra: 1,
    });
    expect(res.success).toBe(false);
    const paths = res.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['sku', 'name', 'price.amount', 'imageUrl']));
    expect(importProductSchema.safeParse({ sku: 'x', name: 'X', category: { key: 'a', name: 'A', parentKey: 'a' } }).success).toBe(false);
    expect(importProductSchema.safeParse({ sku: 'x', name: 'X', categories: [cat('a'), cat('a')] }).success).toBe(false);
    expect(importProductSchema.safeParse({ sku: 'x', name: 'X', category: cat('a'), categories: [cat('b')] }).success).toBe(false);
  });
});

describe('category and brand definitions', () => {
  it('the first definition of a key wins; a differing later item fails and defines nothing', () => {
    const items = [
      definitionsOf(0, parse({ sku: '1', name: 'x', category: cat('shoes', 'Shoes'), brand: { key: 'acme', name: 'ACME' } })),
      definitionsOf(1, parse({ sku: '2', name: 'x', categories: [cat('shoes', 'Shoes'), cat('new', 'New')] })),
      definitionsOf(2, parse({ sku: '3', name: 'x', categories: [cat('boots', 'Boots'), cat('shoes', 'Sneakers')] })),
      definitionsOf(3, parse({ sku: '4', name: 'x', brand: { key: 'acme', name: 'Acme Inc' } })),
    ];
    const out = collectDefinitions(items);
    expect([...out.categories.keys()]).toEqual(['shoes', 'new']);
    expect([...out.brands.keys()]).toEqual(['acme']);
    expect(out.failures.get(2)).toEqual([{ in: 'body', field: 'categories.1', message: expect.stringContaining('item 0') }]);
    expect(out.failures.get(3)).toEqual([{ in: 'body', field: 'brand', message: expect.stringContaining('item 0') }]);
    expect(out.failures.has(0) || out.failures.has(1)).toBe(false);
  });

  it('parents must exist or be defined; cycles through new or stored categories are refused', () => {
    const d = defs(
      cat('a', 'A', 'root'),
      cat('b', 'B', 'a'),
      cat('orphan', 'O', 'missing'),
      cat('child', 'C', 'orphan'),
      cat('x', 'X', 'y'),
      cat('y', 'Y', 'x'),
      cat('s', 'S', 'stored'),
    );
    expect(outsideParents(d).sort()).toEqual(['missing', 'root', 'stored']);
    const invalid = invalidCategoryDefinitions(
      d,
      new Map([
        ['root', null],
        ['stored', 's'],
      ]),
    );
    expect([...invalid.keys()].sort()).toEqual(['child', 'orphan', 's', 'x', 'y']);
    expect(invalid.get('orphan')).toMatch(/no category/);
    expect(invalid.get('child')).toMatch(/parent category "orphan" is invalid/);
    expect(invalid.get('s')).toMatch(/circular/);
  });

  it('needed categories include ancestors defined in the import', () => {
    const d = defs(cat('a', 'A'), cat('b', 'B', 'a'), cat('c', 'C', 'b'), cat('unused', 'U'));
    expect([...neededCategories(d, ['c'])].sort()).toEqual(['a', 'b', 'c']);
  });
});
