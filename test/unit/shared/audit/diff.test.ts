import { describe, expect, it } from 'vitest';
import { definitionDiff, diffOf, sameValue } from '../../../../shared/audit/diff';

describe('diffOf: what a configuration change changed, field by field', () => {
  it('names nothing when nothing changed, whatever the key order', () => {
    expect(diffOf({ a: 1, b: { c: [1, { d: 2 }] } }, { b: { c: [1, { d: 2 }] }, a: 1 })).toStrictEqual([]);
    expect(diffOf({}, {})).toStrictEqual([]);
  });

  it('a changed primitive: its field with both sides', () => {
    expect(diffOf({ a: 1, b: 'x' }, { a: 2, b: 'x' })).toStrictEqual([{ field: 'a', before: 1, after: 2 }]);
    expect(diffOf({ a: true }, { a: false })).toStrictEqual([{ field: 'a', before: true, after: false }]);
    expect(diffOf({ a: null }, { a: 0 })).toStrictEqual([{ field: 'a', before: null, after: 0 }]);
    expect(diffOf({ a: '1' }, { a: 1 })).toStrictEqual([{ field: 'a', before: '1', after: 1 }]);
  });

  it('walks into nested objects: the dotted path of the leaf that changed', () => {
    expect(diffOf({ earn: { rate: 1, basis: 'total', caps: { perOrder: 5 } } }, { earn: { rate: 1, basis: 'total', caps: { perOrder: 9 } } })).toStrictEqual([
      { field: 'earn.caps.perOrder', before: 5, after: 9 },
    ]);
  });

  it('an added key has no before, a removed one no after; an undefined key counts as absent', () => {
    expect(diffOf({ a: 1 }, { a: 1, b: { c: 2 } })).toStrictEqual([{ field: 'b', after: { c: 2 } }]);
    expect(diffOf({ a: 1, b: 'gone' }, { a: 1 })).toStrictEqual([{ field: 'b', before: 'gone' }]);
    expect(diffOf({ a: 1, b: undefined }, { a: 1 })).toStrictEqual([]);
    expect(diffOf({ n: { x: 1 } }, { n: { x: 1, y: 2 } })).toStrictEqual([{ field: 'n.y', after: 2 }]);
    expect(diffOf({ n: { x: 1, y: 2 } }, { n: { x: 1 } })).toStrictEqual([{ field: 'n.y', before: 2 }]);
  });

  it('an array is one value: shown whole on both sides when any item changed, order included', () => {
    expect(diffOf({ tiers: [{ key: 'a' }, { key: 'b' }] }, { tiers: [{ key: 'a' }, { key: 'c' }] })).toStrictEqual([
      { field: 'tiers', before: [{ key: 'a' }, { key: 'b' }], after: [{ key: 'a' }, { key: 'c' }] },
    ]);
    expect(diffOf({ l: [1, 2] }, { l: [2, 1] })).toStrictEqual([{ field: 'l', before: [1, 2], after: [2, 1] }]);
    expect(diffOf({ l: [1, 2] }, { l: [1, 2, 3] })).toStrictEqual([{ field: 'l', before: [1, 2], after: [1, 2, 3] }]);
    expect(diffOf({ l: [1, 2] }, { l: [1, 2] })).toStrictEqual([]);
  });

  it('an object replaced by something else is one value, not walked', () => {
    expect(diffOf({ a: { b: 1 } }, { a: null })).toStrictEqual([{ field: 'a', before: { b: 1 }, after: null }]);
    expect(diffOf({ a: [1] }, { a: { 0: 1 } })).toStrictEqual([{ field: 'a', before: [1], after: { 0: 1 } }]);
    expect(diffOf({ a: 'x' }, { a: { b: 1 } })).toStrictEqual([{ field: 'a', before: 'x', after: { b: 1 } }]);
  });

  it('in key order: before’s keys first, then after’s new ones', () => {
    expect(diffOf({ b: 1, a: 1, gone: 0 }, { a: 2, b: 2, c: 3 }).map((c) => c.field)).toStrictEqual(['b', 'a', 'gone', 'c']);
  });

  it('leaves out the bookkeeping every change moves, at the top only', () => {
    expect(diffOf({ version: 1, updatedAt: 'x', createdAt: 'y', a: 1 }, { version: 2, updatedAt: 'z', createdAt: 'w', a: 1 })).toStrictEqual([]);
    expect(diffOf({ n: { version: 1 } }, { n: { version: 2 } })).toStrictEqual([{ field: 'n.version', before: 1, after: 2 }]);
  });
});

describe('definitionDiff: only the definition’s own fields', () => {
  it('never names what the record keeps beside its definition', () => {
    const current = { name: 'Spring', grants: 40, remaining: 3, workspaceId: 'ws_1', limits: { total: null } };
    expect(definitionDiff(current, { name: 'Summer', limits: { total: 100 } })).toStrictEqual([
      { field: 'name', before: 'Spring', after: 'Summer' },
      { field: 'limits.total', before: null, after: 100 },
    ]);
    expect(definitionDiff(current, { name: 'Spring' })).toStrictEqual([]);
    expect(definitionDiff({ a: 1 }, { a: 1, b: 2 })).toStrictEqual([{ field: 'b', after: 2 }]);
  });
});

describe('sameValue: equal as JSON', () => {
  it('compares arrays item by item and objects key by key', () => {
    expect(sameValue([1, [2]], [1, [2]])).toBe(true);
    expect(sameValue([1], [1, 1])).toBe(false);
    expect(sameValue([], {})).toBe(false);
    expect(sameValue({}, [])).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue(1, 1)).toBe(true);
    expect(sameValue(1, '1')).toBe(false);
  });
});
